"""The stub LLM's context limit, its token rule and its prompt-cache reports, seen by LLMClient."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from agentd.errors import ContextExceeded
from agentd.messages import Message, assistant, system, user
from agentd.model.client import ChatResult, Completed, LLMClient
from tests.support.stub_llm import Reply, StubLLM, overflow_body, render, tokens

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def client_for(stub: StubLLM) -> AsyncIterator[LLMClient]:
    async with httpx.AsyncClient(timeout=10) as http:
        yield LLMClient(http, base_url=stub.url, model="m", max_retries=0)


def body_of(messages: list[Message], tools: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"messages": [m.to_openai() for m in messages]}
    if tools:
        body["tools"] = tools
    return body


async def streamed(client: LLMClient, messages: list[Message]) -> ChatResult:
    results = [e.result async for e in client.stream(messages) if isinstance(e, Completed)]
    return results[0]


def test_tokens_count_every_started_four_characters_of_the_rendering() -> None:
    """tokens() is ceil(len(render) / 4); render lays out tools, roles, text and tool calls."""
    tools = [{"type": "function", "function": {"name": "t"}}]
    body = body_of([system("sys"), user("hello")], tools)
    assert render(body) == (
        '<|tools|>[{"function":{"name":"t"},"type":"function"}]\n<|system|>sys\n<|user|>hello\n'
    )
    assert tokens(body) == -(-len(render(body)) // 4)
    assert tokens({"messages": [{"role": "user", "content": "abc"}]}) == 3  # 12 characters


@pytest.mark.parametrize("wording", ["llama", "openai", "vllm"])
async def test_a_prompt_over_the_context_is_refused_in_each_wording(
    stub_llm: StubLLM, wording: Any
) -> None:
    """Over the limit the stub answers 400 in the server's words; the client reads its numbers."""
    small = [user("hi")]
    big = [user("x" * 400)]
    stub_llm.context = tokens(body_of(small)) + 10
    stub_llm.wording = wording
    stub_llm.add(Reply(text="fits"))
    async with client_for(stub_llm) as client:
        with pytest.raises(ContextExceeded) as info:
            await client.chat(big)
        assert (await client.chat(small)).message.content == "fits"
    assert (info.value.limit, info.value.requested) == (stub_llm.context, tokens(body_of(big)))
    assert len(stub_llm.requests) == 2 and len(stub_llm.rejected) == 1


async def test_a_streamed_prompt_over_the_context_is_refused(stub_llm: StubLLM) -> None:
    """A streaming request over the limit is refused the same way."""
    stub_llm.context = 5
    async with client_for(stub_llm) as client:
        with pytest.raises(ContextExceeded):
            await streamed(client, [user("a much longer message than five tokens")])


@pytest.mark.parametrize(
    ("wording", "refused"),
    [
        pytest.param("llama", True, id="llama-refuses-a-full-context"),
        pytest.param("openai", False, id="openai-takes-a-full-context"),
        pytest.param("vllm", False, id="vllm-takes-a-full-context"),
    ],
)
async def test_the_limit_is_decided_as_each_server_does(
    stub_llm: StubLLM, wording: Any, refused: bool
) -> None:
    """llama-server refuses a prompt of exactly n_ctx tokens; OpenAI and vLLM accept it."""
    messages = [user("exactly as long as the context")]
    stub_llm.context = tokens(body_of(messages))
    stub_llm.wording = wording
    async with client_for(stub_llm) as client:
        if refused:
            with pytest.raises(ContextExceeded):
                await client.chat(messages)
        else:
            await client.chat(messages)


@pytest.mark.parametrize(
    ("wording", "message"),
    [
        pytest.param(
            "llama",
            "request (120 tokens) exceeds the available context size (100 tokens), "
            "try increasing it",
            id="llama",
        ),
        pytest.param(
            "openai",
            "This model's maximum context length is 100 tokens. However, you requested 150 "
            "tokens (120 in the messages, 30 in the completion). Please reduce the length of "
            "the messages or completion.",
            id="openai",
        ),
        pytest.param(
            "vllm",
            "You passed 120 input tokens and requested 30 output tokens. However, the model's "
            "context length is only 100 tokens, resulting in a maximum input length of 70 "
            "tokens. Please reduce the length of the input prompt. "
            "(parameter=input_tokens, value=120)",
            id="vllm",
        ),
    ],
)
def test_overflow_bodies_use_the_servers_words(wording: Any, message: str) -> None:
    """The refusals carry each server's exact message."""
    assert overflow_body(wording, 120, 30, 100)["error"]["message"] == message


async def test_props_reports_the_context(stub_llm: StubLLM) -> None:
    """With a llama-style context, GET /props says n_ctx; otherwise there is no /props."""
    async with client_for(stub_llm) as client:
        assert await client.context_size() is None
    stub_llm.context = 2048
    async with client_for(stub_llm) as client:
        assert await client.context_size() == 2048
    stub_llm.wording = "vllm"
    async with client_for(stub_llm) as client:
        assert await client.context_size() is None


@pytest.mark.parametrize("stream", [False, True], ids=["chat", "stream"])
async def test_the_prompt_cache_is_reported(stub_llm: StubLLM, stream: bool) -> None:
    """A prompt that extends the last one reuses its prefix, in timings and usage details."""
    stub_llm.timings = stub_llm.cached_tokens = True
    first = [system("s" * 40), user("u" * 40)]
    second = [*first, assistant("echo: " + "u" * 40), user("next")]
    async with client_for(stub_llm) as client:
        ask = streamed if stream else LLMClient.chat
        cold = (await ask(client, first)).usage
        warm = (await ask(client, second)).usage
    assert (cold.cached_tokens, cold.evaluated_tokens) == (0, tokens(body_of(first)))
    assert cold.prompt_tokens == tokens(body_of(first))
    assert warm.prompt_tokens == tokens(body_of(second))
    assert warm.cached_tokens == len(render(body_of(second[:3]))) // 4
    assert warm.evaluated_tokens == warm.prompt_tokens - warm.cached_tokens


async def test_a_changed_prefix_is_evaluated_again(stub_llm: StubLLM) -> None:
    """Dropping an old message changes the prefix: little is reused."""
    stub_llm.timings = True
    history = [system("s"), user("a" * 80), assistant("b" * 80), user("c" * 80)]
    async with client_for(stub_llm) as client:
        await client.chat(history)
        trimmed = (await client.chat([history[0], *history[3:]])).usage
    assert trimmed.cached_tokens == len("<|system|>s\n<|user|>") // 4
    assert trimmed.evaluated_tokens == trimmed.prompt_tokens - trimmed.cached_tokens


async def test_without_the_reports_nothing_is_said(stub_llm: StubLLM) -> None:
    """By default the stub reports no cache counters, as a plain OpenAI server."""
    async with client_for(stub_llm) as client:
        usage = (await client.chat([user("hi")])).usage
        usage = (await client.chat([user("hi")])).usage
    assert usage.cached_tokens == 0 and usage.evaluated_tokens is None
