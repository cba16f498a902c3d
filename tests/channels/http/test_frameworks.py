"""Agent frameworks against the real daemon: LangChain's ``bind_tools`` and the OpenAI Agents
SDK's ``function_tool`` run their own tools through agentd unchanged (stub model).

The stub acts from the request alone: offered ``mul`` and asked "what is A times B", it calls
``mul``; after a tool result it answers with what the tools returned. So what the client reads
shows that its tool ran on its side and the result reached the model.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openai
import pytest

from agentd.engine.pending import NOT_RUN
from agentd.model.sidecar import free_port
from tests.support.daemon import http_token, ready_daemon, write_config
from tests.support.stub_llm import Reply, StubLLM, running_stub

EXAMPLES = Path(__file__).parents[3] / "examples" / "clients"
ASK = re.compile(r"what is (\d+) times (\d+)", re.IGNORECASE)


def framework_agent(body: dict[str, Any]) -> Reply:
    """The stub's answer: call mul (and current_time when asked "and the time"), or answer."""
    messages = body["messages"]
    offered = {t["function"]["name"] for t in body.get("tools") or ()}
    last = messages[-1]
    if last["role"] == "tool":
        names = {
            c["id"]: c["function"]["name"]
            for m in messages
            if m["role"] == "assistant"
            for c in m.get("tool_calls") or ()
        }
        results = []
        for message in reversed(messages):
            if message["role"] != "tool":
                break
            results.append(f"{names.get(message['tool_call_id'], '?')}={message['content']}")
        return Reply(text="The tools said: " + ", ".join(reversed(results)))
    asked = ASK.search(str(last.get("content") or ""))
    if asked and "mul" in offered:
        a, b = int(asked.group(1)), int(asked.group(2))
        calls: list[tuple[str, Any]] = [("mul", {"a": a, "b": b})]
        if "and the time" in last["content"]:
            calls.insert(0, ("current_time", {"timezone": "UTC"}))
        return Reply(tool_calls=calls)
    return Reply(text="no tool needed")


@dataclass
class Daemon:
    stub: StubLLM
    url: str
    token: str
    history: Path


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    tmp = tmp_path_factory.mktemp("frameworks")
    port = free_port()
    with running_stub() as stub:
        stub.fallback = framework_agent
        config = write_config(
            tmp / "config.json",
            tmp,
            stub.url,
            channels={"http": {"enabled": True, "port": port}},
            cron={"enabled": False},
            log={"level": "warning"},
        )
        with ready_daemon(config, tmp / "notify.sock"):
            yield Daemon(
                stub,
                f"http://127.0.0.1:{port}/v1",
                http_token(tmp),
                tmp / "state" / "history.db",
            )


def _mul_tool() -> Any:
    from langchain_core.tools import tool

    @tool
    def mul(a: int, b: int) -> int:
        """Multiply two integers."""
        return a * b

    return mul


def _chat(running: Daemon, session: str | None = None) -> Any:
    from langchain_openai import ChatOpenAI

    headers = {"X-Session-Id": session} if session else None
    return ChatOpenAI(
        model="agentd",
        base_url=running.url,
        api_key=running.token,  # type: ignore[arg-type]
        default_headers=headers,
        max_retries=0,
    )


def _langchain_loop(running: Daemon, question: str, *, session: str | None, stream: bool) -> Any:
    """LangChain's tool loop as its docs write it: invoke, run the tool calls, invoke again."""
    from langchain_core.messages import HumanMessage

    mul = _mul_tool()
    model = _chat(running, session).bind_tools([mul])
    messages: list[Any] = [HumanMessage(question)]
    for _ in range(4):
        if stream:
            reply = None
            for chunk in model.stream(messages):
                reply = chunk if reply is None else reply + chunk
        else:
            reply = model.invoke(messages)
        assert reply is not None
        messages.append(reply)
        if not reply.tool_calls:
            return messages
        messages.extend(mul.invoke(call) for call in reply.tool_calls)
    raise AssertionError("the loop did not end")


@pytest.mark.parametrize("stream", [False, True], ids=["invoke", "stream"])
@pytest.mark.parametrize("session", [None, "lc-session"], ids=["stateless", "session"])
def test_langchain_bind_tools_loop(running: Daemon, stream: bool, session: str | None) -> None:
    """bind_tools + the tool loop: the model's mul call comes back to LangChain, which runs it
    and sends the result; the final answer carries the client's result."""
    name = f"{session}-{stream}" if session else None
    messages = _langchain_loop(running, "What is 6 times 7?", session=name, stream=stream)
    calls = messages[1].tool_calls
    assert [(c["name"], c["args"]) for c in calls] == [("mul", {"a": 6, "b": 7})]
    assert messages[2].content == "42"
    assert messages[-1].content == "The tools said: mul=42"
    if name is not None:
        with sqlite3.connect(running.history) as db:
            roles = [
                json.loads(body)["role"]
                for (body,) in db.execute(
                    "SELECT body FROM messages WHERE session_id = ? ORDER BY id",
                    (f"http:{name}",),
                )
            ]
        assert roles == ["user", "assistant", "tool", "assistant"]


def test_langchain_mixed_step_runs_agentd_tool_and_hands_out_the_client_tool(
    running: Daemon,
) -> None:
    """One step calls agentd's current_time and the client's mul: agentd runs its own, LangChain
    sees only mul, and the answer shows both results (stateless: agentd kept its own)."""
    messages = _langchain_loop(
        running, "What is 3 times 5, and the time?", session=None, stream=False
    )
    assert [c["name"] for c in messages[1].tool_calls] == ["mul"]
    final = messages[-1].content
    assert final.startswith("The tools said: current_time=") and final.endswith("mul=15")


def test_langchain_name_clash_is_a_400(running: Daemon) -> None:
    from langchain_core.messages import HumanMessage
    from langchain_core.tools import tool

    @tool
    def current_time(timezone: str) -> str:
        """The time."""
        return "noon"

    model = _chat(running).bind_tools([current_time])
    with pytest.raises(openai.BadRequestError) as raised:
        model.invoke([HumanMessage("what time is it?")])
    assert "current_time" in str(raised.value)
    assert raised.value.code == "tool_name_clash"


def test_dangling_pending_call_is_closed_by_a_new_message(running: Daemon) -> None:
    """A session left waiting on mul: a new user message instead of its result goes on, and
    the model sees mul answered as not run."""
    client = openai.OpenAI(base_url=running.url, api_key=running.token, max_retries=0)
    headers = {"X-Session-Id": "dangling"}
    mul = {
        "type": "function",
        "function": {
            "name": "mul",
            "parameters": {
                "type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            },
        },
    }
    first = client.chat.completions.create(
        model="agentd",
        messages=[{"role": "user", "content": "what is 2 times 4?"}],
        tools=[mul],  # type: ignore[list-item]
        extra_headers=headers,
    )
    assert first.choices[0].finish_reason == "tool_calls"
    before = len(running.stub.requests)
    second = client.chat.completions.create(
        model="agentd",
        messages=[{"role": "user", "content": "never mind, say hi"}],
        extra_headers=headers,
    )
    assert second.choices[0].message.content == "no tool needed"
    sent = running.stub.requests[before]["messages"]
    assert [m["role"] for m in sent[-3:]] == ["assistant", "tool", "user"]
    assert sent[-2]["content"] == NOT_RUN


def test_openai_agents_sdk_function_tool(running: Daemon) -> None:
    """The OpenAI Agents SDK: an Agent with a function_tool on OpenAIChatCompletionsModel."""
    import anyio
    from agents import (
        Agent,
        OpenAIChatCompletionsModel,
        Runner,
        function_tool,
        set_tracing_disabled,
    )

    set_tracing_disabled(True)  # no traces sent anywhere
    ran: list[tuple[int, int]] = []

    @function_tool
    def mul(a: int, b: int) -> int:
        """Multiply two integers."""
        ran.append((a, b))
        return a * b

    client = openai.AsyncOpenAI(base_url=running.url, api_key=running.token, max_retries=0)
    agent = Agent(
        name="calc",
        instructions="Use the tools.",
        tools=[mul],
        model=OpenAIChatCompletionsModel(model="agentd", openai_client=client),
    )

    async def main() -> Any:
        try:
            return await Runner.run(agent, "What is 6 times 7?")
        finally:
            await client.close()

    result = anyio.run(main)
    assert ran == [(6, 7)]
    assert result.final_output == "The tools said: mul=42"


@pytest.mark.parametrize("example", ["langchain_tools.py", "agents_sdk_tools.py"])
def test_the_examples_run_their_tool(running: Daemon, example: str) -> None:
    """examples/clients: each runs mul on its side and prints agentd's answer."""
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / example), "what is 7 times 8?"],
        env={
            **os.environ,
            "AGENTD_URL": running.url.removesuffix("/v1"),
            "AGENTD_TOKEN": running.token,
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "The tools said: mul=56\n"
    assert "running mul" in proc.stderr
