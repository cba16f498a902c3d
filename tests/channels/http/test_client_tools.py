"""Client-side tools over the OpenAI API: the request's ``tools`` are offered to the model, and a
call of one is answered to the client (``finish_reason: "tool_calls"``) to run and send back."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from agentd import scope as scopes
from agentd.config import AgentDefaults
from agentd.engine.loop import AgentLoop
from agentd.engine.pending import NOT_RUN
from agentd.engine.policy import SessionPolicy
from agentd.engine.runtime import Runtime
from agentd.memory.history import SQLiteHistory
from tests.channels.conftest import SYSTEM
from tests.support.http_channel import api_error, in_process, serving
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio

MUL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "mul",
        "description": "Multiply two integers.",
        "parameters": {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
        },
    },
}
ASK = {"role": "user", "content": "what is 6 times 7?"}


def _nested(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        node = {"type": "object", "properties": {"x": node}}
    return node


def _offered(body: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in body.get("tools") or ()]


def _chat(**extra: Any) -> dict[str, Any]:
    return {"messages": [ASK], "tools": [MUL], **extra}


def _exchange(call_id: str = "call_0") -> list[dict[str, Any]]:
    """The conversation a client sends back: its request, the model's call, its result."""
    call = {
        "id": call_id,
        "type": "function",
        "function": {"name": "mul", "arguments": '{"a": 6, "b": 7}'},
    }
    return [
        ASK,
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": call_id, "content": "42"},
    ]


async def test_client_tool_call_is_answered_to_the_client(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """A call of a client tool ends the turn with finish_reason tool_calls and the call."""
    stub_llm.add(Reply(tool_calls=[("mul", {"a": 6, "b": 7})]))
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat())
    assert reply.status_code == 200, reply.text
    choice = reply.json()["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] is None
    assert choice["message"]["tool_calls"] == [
        {
            "id": "call_0",
            "type": "function",
            "function": {"name": "mul", "arguments": '{"a": 6, "b": 7}'},
        }
    ]
    assert len(stub_llm.requests) == 1


async def test_model_is_offered_the_client_tool_schema(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """The model receives the client tool's schema, and only the client's tools: the caller
    leads the tool loop (default.guards.client_tools)."""
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat())
    assert reply.status_code == 200, reply.text
    tools = stub_llm.requests[0]["tools"]
    assert MUL in tools
    assert "current_time" not in _offered(stub_llm.requests[0])


async def test_with_client_tools_off_the_agents_tools_are_offered_beside(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """default.guards.client_tools off: the agent's own tools are offered beside the client's,
    and a step may call both (the agent's run here, the client's are handed back)."""
    loop = stub_runtime.agent_loop
    stub_runtime.agent_loop = AgentLoop(loop.model, loop.tools, guards={"client_tools": "off"})
    stub_llm.add(Reply(tool_calls=[("current_time", {"timezone": "UTC"}), ("mul", {"a": 1})]))
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat())
    assert "current_time" in _offered(stub_llm.requests[0])
    message = reply.json()["choices"][0]["message"]
    assert [c["function"]["name"] for c in message["tool_calls"]] == ["mul"]


async def test_stateless_results_continue_the_turn(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """The client's next request carries the exchange whole and the model continues from it."""
    stub_llm.add(Reply(text="It is 42."))
    async with in_process(stub_runtime) as http:
        reply = await http.post(
            "/v1/chat/completions", json={"messages": _exchange(), "tools": [MUL]}
        )
    assert reply.status_code == 200, reply.text
    assert reply.json()["choices"][0]["message"]["content"] == "It is 42."
    sent = stub_llm.requests[0]["messages"]
    assert [m["role"] for m in sent[1:4]] == ["user", "assistant", "tool"]
    assert sent[3]["content"] == "42"


async def test_streamed_client_tool_call_comes_as_deltas(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """With stream, the calls come as tool_calls deltas, then a chunk finishing tool_calls."""
    stub_llm.add(Reply(tool_calls=[("mul", {"a": 6, "b": 7})]))
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat(stream=True))
    assert reply.status_code == 200, reply.text
    chunks = [
        json.loads(line[6:]) for line in reply.text.splitlines() if line.startswith("data: {")
    ]
    deltas = [c["choices"][0]["delta"] for c in chunks]
    calls = [d["tool_calls"] for d in deltas if "tool_calls" in d]
    assert calls == [
        [
            {
                "index": 0,
                "id": "call_0",
                "type": "function",
                "function": {"name": "mul", "arguments": '{"a": 6, "b": 7}'},
            }
        ]
    ]
    assert chunks[-1]["choices"][0]["finish_reason"] == "tool_calls"
    assert reply.text.endswith("data: [DONE]\n\n")


async def test_step_mixing_tools_runs_the_agents_and_returns_the_clients(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """A step calling current_time and mul runs current_time and returns only mul."""
    stub_llm.add(Reply(tool_calls=[("current_time", {"timezone": "UTC"}), ("mul", {"a": 1})]))
    ran: list[str] = []
    tools = stub_runtime.agent_loop.tools
    original = tools.call

    async def spy(call: Any, *rest: Any) -> Any:
        ran.append(call.name)
        return await original(call, *rest)

    tools.call = spy  # type: ignore[method-assign]
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat())
    message = reply.json()["choices"][0]["message"]
    assert [c["function"]["name"] for c in message["tool_calls"]] == ["mul"]
    assert message["tool_calls"][0]["id"] == "call_1"
    assert ran == ["current_time"]


async def test_name_clash_with_an_agent_tool_is_400(stub_runtime: Runtime) -> None:
    """A client tool named like one of the agent's tools is refused, naming the tool."""
    clash = {"type": "function", "function": {"name": "current_time"}}
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat(tools=[MUL, clash]))
    error = api_error(reply, 400)
    assert "current_time" in error["message"]
    assert error["param"] == "tools.1.function.name"
    assert error["code"] == "tool_name_clash"


@pytest.mark.parametrize(
    ("tools", "param"),
    [
        pytest.param([{"type": "function"}], "tools.0.function", id="no-function"),
        pytest.param([{"type": "web", "function": MUL["function"]}], "tools.0.type", id="type"),
        pytest.param(
            [{"type": "function", "function": {"name": "a b"}}],
            "tools.0.function.name",
            id="bad-name",
        ),
        pytest.param([MUL, MUL], "tools.1.function.name", id="twice"),
        pytest.param(
            [{"type": "function", "function": {"name": "f", "parameters": "x"}}],
            "tools.0.function.parameters",
            id="parameters",
        ),
        pytest.param(
            [{"type": "function", "function": {"name": "f", "parameters": _nested(40)}}],
            "tools.0.function.parameters",
            id="too-deep",
        ),
        pytest.param(
            [{"type": "function", "function": {"name": "f", "parameters": {"definitions": []}}}],
            "tools.0.function.parameters",
            id="definitions-not-object",
        ),
    ],
)
async def test_invalid_tools_are_400_naming_the_field(
    stub_runtime: Runtime, tools: list[dict[str, Any]], param: str
) -> None:
    """A malformed tools entry is a 400 whose param names the field."""
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat(tools=tools))
    assert api_error(reply, 400)["param"] == param


async def test_invalid_tool_choice_is_400(stub_runtime: Runtime) -> None:
    """A tool_choice that is none of OpenAI's forms is a 400 naming tool_choice."""
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat(tool_choice="sometimes"))
    assert api_error(reply, 400)["param"].startswith("tool_choice")


async def test_tool_choice_none_offers_no_tools(stub_runtime: Runtime, stub_llm: StubLLM) -> None:
    """tool_choice none sends the model neither the agent's tools nor the client's."""
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat(tool_choice="none"))
    assert reply.status_code == 200, reply.text
    assert "tools" not in stub_llm.requests[0]


async def test_openai_client_round_trip(stub_runtime: Runtime, stub_llm: StubLLM) -> None:
    """The official openai client gets the call, sends the result, and reads the answer."""
    stub_llm.add(Reply(tool_calls=[("mul", {"a": 6, "b": 7})]), Reply(text="42."))
    async with (
        serving(stub_runtime) as channel,
        openai.AsyncOpenAI(
            base_url=f"{channel.url}/v1", api_key="unused", max_retries=0, timeout=30
        ) as client,
    ):
        messages: list[Any] = [ASK]
        first = await client.chat.completions.create(
            model="agentd",
            messages=messages,
            tools=[MUL],  # type: ignore[list-item]
        )
        assert first.choices[0].finish_reason == "tool_calls"
        calls = first.choices[0].message.tool_calls
        assert calls is not None and calls[0].function.name == "mul"  # type: ignore[union-attr]
        messages.append(first.choices[0].message.model_dump(exclude_none=True))
        messages.append({"role": "tool", "tool_call_id": calls[0].id, "content": "42"})
        second = await client.chat.completions.create(
            model="agentd",
            messages=messages,
            tools=[MUL],  # type: ignore[list-item]
        )
    assert second.choices[0].message.content == "42."
    assert second.choices[0].finish_reason == "stop"


@pytest.fixture
async def stored(tmp_path: Path) -> AsyncIterator[SQLiteHistory]:
    """A durable history in the default scope."""
    with scopes.use(scopes.Scope()):
        async with SQLiteHistory.open(tmp_path / "h.db") as history:
            yield history


@pytest.fixture
async def session_runtime(stub_runtime: Runtime, stored: SQLiteHistory) -> AsyncIterator[Runtime]:
    """The stub runtime's agent with its sessions stored in ``stored``."""
    async with Runtime(
        stub_runtime.agent_loop,
        system_prompt=SYSTEM,
        defaults=AgentDefaults(),
        sessions=SessionPolicy(history=stored),
    ) as runtime:
        yield runtime


SESSION = {"X-Session-Id": "s1"}


def _answer(reply: httpx.Response, stream: bool) -> str:
    """The answer's text, from a whole completion or joined from a stream's deltas."""
    if not stream:
        return str(reply.json()["choices"][0]["message"]["content"])
    chunks = [json.loads(ln[6:]) for ln in reply.text.splitlines() if ln.startswith("data: {")]
    return "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks)


async def _rows(stored: SQLiteHistory) -> list[tuple[str, str]]:
    return [(m.role, m.content) for m in await stored.resume("http:s1")]


@pytest.mark.parametrize("stream", [pytest.param(False, id="whole"), pytest.param(True, id="sse")])
async def test_session_round_trip_stores_the_exchange_whole(
    session_runtime: Runtime, stored: SQLiteHistory, stub_llm: StubLLM, stream: bool
) -> None:
    """In a session, trailing tool messages answer the pending call and the turn continues;
    the history holds the call, the result and the continuation."""
    stub_llm.add(Reply(tool_calls=[("mul", {"a": 6, "b": 7})]), Reply(text="It is 42."))
    async with in_process(session_runtime) as http:
        first = await http.post("/v1/chat/completions", json=_chat(stream=stream), headers=SESSION)
        assert first.status_code == 200, first.text
        assert "tool_calls" in first.text
        second = await http.post(
            "/v1/chat/completions",
            json={"messages": _exchange(), "tools": [MUL], "stream": stream},
            headers=SESSION,
        )
    assert second.status_code == 200, second.text
    assert _answer(second, stream) == "It is 42."
    assert await _rows(stored) == [
        ("user", ASK["content"]),
        ("assistant", ""),
        ("tool", "42"),
        ("assistant", "It is 42."),
    ]
    assert (await stored.resume("http:s1"))[1].tool_calls[0].name == "mul"
    assert stub_llm.requests[1]["messages"][-1]["role"] in ("tool", "user")


async def test_session_mixed_step_stores_the_agents_result(
    session_runtime: Runtime, stored: SQLiteHistory, stub_llm: StubLLM
) -> None:
    """A step calling current_time and mul stores current_time's result; mul stays pending."""
    stub_llm.add(Reply(tool_calls=[("current_time", {"timezone": "UTC"}), ("mul", {"a": 1})]))
    async with in_process(session_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat(), headers=SESSION)
    calls = reply.json()["choices"][0]["message"]["tool_calls"]
    assert [c["id"] for c in calls] == ["call_1"]
    rows = await stored.resume("http:s1")
    assert [m.role for m in rows] == ["user", "assistant", "tool"]
    assert rows[2].tool_call_id == "call_0"


async def test_session_result_for_an_unknown_call_is_400(
    session_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """A tool result for a call that is not pending in the session is a 400."""
    stub_llm.add(Reply(tool_calls=[("mul", {"a": 6, "b": 7})]))
    async with in_process(session_runtime) as http:
        await http.post("/v1/chat/completions", json=_chat(), headers=SESSION)
        reply = await http.post(
            "/v1/chat/completions",
            json={"messages": _exchange("call_9"), "tools": [MUL]},
            headers=SESSION,
        )
    error = api_error(reply, 400)
    assert "call_9" in error["message"]
    assert error["code"] == "invalid_tool_results"


async def test_session_result_without_pending_calls_is_400(session_runtime: Runtime) -> None:
    """Tool results in a session that waits on no call are a 400."""
    async with in_process(session_runtime) as http:
        reply = await http.post(
            "/v1/chat/completions", json={"messages": _exchange()}, headers=SESSION
        )
    assert api_error(reply, 400)["code"] == "invalid_tool_results"


async def test_new_message_closes_the_pending_calls(
    session_runtime: Runtime, stored: SQLiteHistory, stub_llm: StubLLM
) -> None:
    """A new user message instead of results answers the pending calls as not run."""
    stub_llm.add(Reply(tool_calls=[("mul", {"a": 6, "b": 7})]), Reply(text="Fine."))
    async with in_process(session_runtime) as http:
        await http.post("/v1/chat/completions", json=_chat(), headers=SESSION)
        reply = await http.post(
            "/v1/chat/completions",
            json={"messages": [{"role": "user", "content": "never mind"}]},
            headers=SESSION,
        )
    assert reply.json()["choices"][0]["message"]["content"] == "Fine."
    sent = stub_llm.requests[1]["messages"]
    assert [m["role"] for m in sent[1:]] == ["user", "assistant", "tool", "user"]
    assert sent[3] == {"role": "tool", "content": NOT_RUN, "tool_call_id": "call_0", "name": "mul"}
    assert [role for role, _ in await _rows(stored)] == [
        "user",
        "assistant",
        "tool",
        "user",
        "assistant",
    ]


async def test_pending_call_survives_a_restart(
    session_runtime: Runtime, stored: SQLiteHistory, stub_llm: StubLLM
) -> None:
    """A session reloaded from its history still waits on the client's call."""
    stub_llm.add(Reply(tool_calls=[("mul", {"a": 6, "b": 7})]), Reply(text="42 it is."))
    async with in_process(session_runtime) as http:
        await http.post("/v1/chat/completions", json=_chat(), headers=SESSION)
        await session_runtime.close_session("http:s1")
        reply = await http.post(
            "/v1/chat/completions", json={"messages": _exchange()}, headers=SESSION
        )
    assert reply.json()["choices"][0]["message"]["content"] == "42 it is."


async def test_required_tool_choice_holds_for_the_first_step(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """tool_choice "required" is passed to the model for the first step; once a tool ran,
    the next step may answer (else no turn could end)."""
    stub_llm.add(Reply(tool_calls=[("current_time", {"timezone": "UTC"})]), Reply(text="Noon."))
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat(tool_choice="required"))
    assert reply.json()["choices"][0]["message"]["content"] == "Noon."
    assert stub_llm.requests[0]["tool_choice"] == "required"
    assert "tool_choice" not in stub_llm.requests[1]


async def test_named_tool_choice_is_passed_to_the_model(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """A named function in tool_choice reaches the model as OpenAI spells it."""
    stub_llm.add(Reply(tool_calls=[("mul", {"a": 6, "b": 7})]))
    choice = {"type": "function", "function": {"name": "mul"}}
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat(tool_choice=choice))
    assert reply.json()["choices"][0]["finish_reason"] == "tool_calls"
    assert stub_llm.requests[0]["tool_choice"] == choice


async def test_named_tool_choice_of_an_unknown_tool_is_400(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """tool_choice naming a function neither side has is refused before the model runs."""
    choice = {"type": "function", "function": {"name": "div"}}
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat(tool_choice=choice))
        agents = await http.post(
            "/v1/chat/completions",
            json=_chat(tool_choice={"type": "function", "function": {"name": "current_time"}}),
        )
    error = api_error(reply, 400)
    assert error["code"] == "unknown_tool_choice" and "'div'" in error["message"]
    assert error["param"] == "tool_choice"
    assert agents.status_code == 200  # one of the agent's own tools may be named
    assert len(stub_llm.requests) == 1


async def test_parallel_tool_calls_false_keeps_one_call(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """parallel_tool_calls false is passed on, and a step calling twice keeps its first call."""
    stub_llm.add(Reply(tool_calls=[("mul", {"a": 6, "b": 7}), ("mul", {"a": 1, "b": 2})]))
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=_chat(parallel_tool_calls=False))
    calls = reply.json()["choices"][0]["message"]["tool_calls"]
    assert [json.loads(c["function"]["arguments"]) for c in calls] == [{"a": 6, "b": 7}]
    assert stub_llm.requests[0]["parallel_tool_calls"] is False


async def test_stateless_continuation_keeps_the_agents_own_results(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """A stateless step that ran current_time and handed out mul: the client sends back only
    mul's call, and the model still sees current_time's call and result on the next step."""
    stub_llm.add(
        Reply(tool_calls=[("current_time", {"timezone": "UTC"}), ("mul", {"a": 6, "b": 7})]),
        Reply(text="42, at noon."),
    )
    async with in_process(stub_runtime) as http:
        first = await http.post("/v1/chat/completions", json=_chat())
        handed = first.json()["choices"][0]["message"]
        assert [c["function"]["name"] for c in handed["tool_calls"]] == ["mul"]
        back = [
            ASK,
            {"role": "assistant", "content": None, "tool_calls": handed["tool_calls"]},
            {"role": "tool", "tool_call_id": handed["tool_calls"][0]["id"], "content": "42"},
        ]
        second = await http.post("/v1/chat/completions", json={"messages": back, "tools": [MUL]})
    assert second.json()["choices"][0]["message"]["content"] == "42, at noon."
    sent = stub_llm.requests[1]["messages"]
    assert [m["role"] for m in sent[1:]] == ["user", "assistant", "tool", "tool"]
    assert [c["function"]["name"] for c in sent[2]["tool_calls"]] == ["current_time", "mul"]
    assert [m["tool_call_id"] for m in sent[3:]] == ["call_0", "call_1"]
    assert sent[4]["content"] == "42"


async def test_retried_request_gets_the_same_tool_calls_again(
    session_runtime: Runtime, stored: SQLiteHistory, stub_llm: StubLLM
) -> None:
    """An Idempotency-Key retry of a request that ended handing calls to the client gets the
    same calls again, without a model call and without storing anything twice."""
    stub_llm.add(Reply(tool_calls=[("mul", {"a": 6, "b": 7})]))
    headers = {**SESSION, "Idempotency-Key": "k-1"}
    async with in_process(session_runtime) as http:
        first = await http.post("/v1/chat/completions", json=_chat(), headers=headers)
        again = await http.post("/v1/chat/completions", json=_chat(), headers=headers)
        streamed = await http.post("/v1/chat/completions", json=_chat(stream=True), headers=headers)
    one, two = (r.json()["choices"][0] for r in (first, again))
    assert two["finish_reason"] == "tool_calls"
    assert two["message"]["tool_calls"] == one["message"]["tool_calls"]
    assert '"finish_reason":"tool_calls"' in streamed.text.replace(" ", "")
    assert len(stub_llm.requests) == 1
    assert [role for role, _ in await _rows(stored)] == ["user", "assistant"]
