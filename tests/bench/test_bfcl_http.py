"""The BFCL benchmark's http mode: items sent to a real ``agentd run`` as an agent framework
sends them, on the loopback stub model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from bench.bfcl.convert import to_openai_tools
from bench.bfcl.data import Item
from bench.bfcl.over_http import MODEL, ask_http, daemon_asker, daemon_config
from bench.bfcl.runner import MAX_TOKENS, judge
from tests.support.stub_llm import Reply, StubLLM

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(240)]

FACTORIAL = {
    "name": "math.factorial",
    "description": "Calculate the factorial of a given positive integer.",
    "parameters": {
        "type": "dict",
        "properties": {"number": {"type": "integer", "description": "The number."}},
        "required": ["number"],
    },
}
SIMPLE = Item(
    id="simple_python_0",
    category="simple_python",
    messages=[{"role": "user", "content": "What is 5!?"}],
    functions=[FACTORIAL],
    ground_truth=[{"math.factorial": {"number": [5]}}],
)
PARALLEL = Item(
    id="parallel_0",
    category="parallel",
    messages=[
        {"role": "system", "content": "Answer with calls."},
        {"role": "user", "content": "What are 5! and 7!?"},
    ],
    functions=[FACTORIAL],
    ground_truth=[
        {"math.factorial": {"number": [5]}},
        {"math.factorial": {"number": [7]}},
    ],
)
TOOLS = to_openai_tools([FACTORIAL])


def _completion(calls: list[tuple[str, str]], content: str | None = None) -> dict[str, Any]:
    tool_calls = [
        {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": a}}
        for i, (n, a) in enumerate(calls)
    ]
    message = {"role": "assistant", "content": content, "tool_calls": tool_calls or None}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if calls else "stop",
            }
        ],
    }


async def test_a_request_is_stateless_with_the_items_tools() -> None:
    """One POST /v1/chat/completions: the item's messages, its tools, no session header; every
    call of the reply is kept, in order."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        calls = [("math_factorial", '{"number": 5}'), ("math_factorial", '{"number": 7}')]
        return httpx.Response(200, json=_completion(calls))

    transport = httpx.MockTransport(handler)
    async with (
        httpx.AsyncClient(transport=transport) as http,
        openai.AsyncOpenAI(base_url="http://agentd/v1", api_key="tok", http_client=http) as client,
    ):
        got = await ask_http(client, PARALLEL, TOOLS)
    (request,) = seen
    body = json.loads(request.content)
    assert (request.method, request.url.path) == ("POST", "/v1/chat/completions")
    assert request.headers["authorization"] == "Bearer tok"
    assert "x-session-id" not in request.headers
    assert body["model"] == MODEL
    assert body["messages"] == PARALLEL.messages
    assert body["tools"] == TOOLS
    assert got.calls == [("math_factorial", '{"number": 5}'), ("math_factorial", '{"number": 7}')]
    assert got.finish_reason == "tool_calls" and got.failure is None and got.seconds > 0
    assert judge("m", "http", PARALLEL, TOOLS, got).correct


async def test_an_error_is_a_failed_request_not_the_end_of_the_run() -> None:
    """An HTTP error of the daemon or a dropped connection is recorded as the item's failure."""
    replies = [httpx.Response(400, json={"error": {"message": "tool name clash"}})]

    def handler(request: httpx.Request) -> httpx.Response:
        if not replies:
            raise httpx.ConnectError("refused", request=request)
        return replies.pop(0)

    async with (
        httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http,
        openai.AsyncOpenAI(base_url="http://agentd/v1", api_key="tok", http_client=http) as client,
    ):
        refused = await ask_http(client, SIMPLE, TOOLS)
        unreachable = await ask_http(client, SIMPLE, TOOLS)
    assert refused.failure is not None and refused.failure.startswith("HTTP 400: ")
    assert "tool name clash" in refused.failure
    assert unreachable.failure == "APIConnectionError"
    assert judge("m", "http", SIMPLE, TOOLS, refused).error_type == "request_failed"


async def test_the_daemon_offers_only_the_items_tools_and_returns_parallel_calls_together(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """Through a real daemon: the model is offered the item's tools alone, at the bench's
    sampling; two calls in one model reply come back in one message and score as a parallel
    answer; a reply in words is no call."""
    stub_llm.add(
        Reply(tool_calls=[("math_factorial", {"number": 5}), ("math_factorial", {"number": 7})]),
        Reply(tool_calls=[("math_factorial", {"number": 5})]),
        Reply(text="5! is 120."),
    )
    config = daemon_config(seed=42, answer_tokens=MAX_TOKENS)
    async with daemon_asker(stub_llm.url, tmp_path / "daemon", config) as ask:
        both = await ask(PARALLEL, TOOLS)
        one = await ask(PARALLEL, TOOLS)
        words = await ask(SIMPLE, TOOLS)
    chats = [r for r in stub_llm.requests if "messages" in r]
    first = chats[0]
    assert [t["function"]["name"] for t in first["tools"]] == ["math_factorial"]
    assert first["tools"][0]["function"]["parameters"]["required"] == ["number"]
    assert first["messages"][-1] == {"role": "user", "content": "What are 5! and 7!?"}
    assert "Answer with calls." in first["messages"][0]["content"]
    assert (first["temperature"], first["seed"]) == (0.0, 42)
    assert both.failure is None, both.failure
    assert [json.loads(a) for _, a in both.calls] == [{"number": 5}, {"number": 7}]
    assert both.finish_reason == "tool_calls"
    assert judge("m", "http", PARALLEL, TOOLS, both).correct
    assert not judge("m", "http", PARALLEL, TOOLS, one).correct
    assert words.calls == [] and words.content == "5! is 120."
    verdict = judge("m", "http", SIMPLE, TOOLS, words)
    assert verdict.error_type == "simple_function_checker:wrong_count"
    assert len(chats) == 3  # one model request per item: nothing asked again
