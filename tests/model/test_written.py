"""Calls the model wrote as text go back to it as that text (the server's cache holds them)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from agentd.messages import ToolCall, assistant, decode_stored_message, tool_result, user
from agentd.model.written import WRITTEN, keep, to_wire, written
from tests.model.test_client import make_client
from tests.model.test_client_grammar import TOOLS, Server

pytestmark = pytest.mark.anyio

FENCE = (
    '```json\n{\n  "name": "current_time",\n  "arguments": {\n    "timezone": "UTC"\n  }\n}\n```'
)


def _called() -> ToolCall:
    return ToolCall("call_1", "current_time", '{"timezone": "UTC"}')


def test_a_kept_text_stands_for_its_calls_and_survives_storage() -> None:
    message = keep(assistant("", [_called()]), FENCE)
    assert written(message) == FENCE
    stored = decode_stored_message(message.to_stored())
    assert written(stored) == FENCE


def test_calls_changed_since_they_were_written_go_as_calls() -> None:
    message = keep(assistant("", [_called()]), FENCE)
    other = ToolCall("call_1", "current_time", '{"timezone": "Asia/Tokyo"}')
    changed = dataclasses.replace(message, tool_calls=(other,))  # metadata shared, calls not
    assert written(changed) is None
    assert to_wire([changed], as_written=True)[0]["tool_calls"][0]["function"]["arguments"] == (
        other.arguments
    )
    assert written(assistant("", [_called()])) is None  # never written: nothing kept
    assert WRITTEN not in keep(assistant("just words"), "just words").metadata


def test_the_wire_form_is_the_text_only_when_asked() -> None:
    call = _called()
    sent = [user("time?"), keep(assistant("", [call]), FENCE), tool_result(call, "12:00")]
    as_text = to_wire(sent, as_written=True)
    assert as_text[1] == {"role": "assistant", "content": FENCE}
    assert as_text[2]["role"] == "tool" and as_text[2]["tool_call_id"] == "call_1"
    plain = to_wire(sent, as_written=False)
    assert plain == [m.to_openai() for m in sent] and "tool_calls" in plain[1]


@pytest.mark.parametrize("stream", [False, True])
async def test_the_next_step_sends_the_call_as_the_model_wrote_it(stream: bool) -> None:
    server = Server()
    server.reply = FENCE
    client = make_client(server, tool_grammar="on")
    names = frozenset({"current_time"})
    if stream:
        events = [e async for e in client.stream([user("time?")], TOOLS, names)]
        reply = events[-1].result.message  # type: ignore[union-attr]
    else:
        reply = (await client.chat([user("time?")], TOOLS, names)).message
    [call] = reply.tool_calls
    assert reply.content == "" and json.loads(call.arguments) == {"timezone": "UTC"}
    server.reply = "It is noon."
    await client.chat([user("time?"), reply, tool_result(call, "12:00")], TOOLS, names)
    sent = server.bodies[-1]["messages"]
    assert sent[1] == {"role": "assistant", "content": FENCE}
    assert sent[2]["role"] == "tool"


async def test_a_server_without_the_grammar_gets_tool_calls() -> None:
    server = Server()
    server.reply = FENCE
    client = make_client(server, tool_grammar="off")
    names = frozenset({"current_time"})
    reply = (await client.chat([user("time?")], TOOLS, names)).message
    [call] = reply.tool_calls  # parsed from text all the same
    await client.chat([user("time?"), reply, tool_result(call, "12:00")], TOOLS, names)
    sent = server.bodies[-1]["messages"]
    assert sent[1]["tool_calls"][0]["function"]["name"] == "current_time"
    assert sent[1]["content"] == ""
