"""Messages, conversations and the strict decoder of stored rows."""

from __future__ import annotations

import json

import pytest

from agentd.errors import StoredRowError
from agentd.messages import (
    Conversation,
    Message,
    ToolCall,
    assistant,
    decode_stored_message,
    system,
    tool_result,
    user,
)

CALL = ToolCall(id="c1", name="read_file", arguments='{"path": "a"}')


def test_to_openai_shapes() -> None:
    """Messages serialise to the OpenAI chat format; metadata and timestamps stay local."""
    asked = assistant("", [CALL])
    answered = tool_result(CALL, "text", error=True)
    assert user("hi").to_openai() == {"role": "user", "content": "hi"}
    assert asked.to_openai() == {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "read_file", "arguments": '{"path": "a"}'},
            }
        ],
    }
    assert answered.to_openai() == {
        "role": "tool",
        "content": "text",
        "tool_call_id": "c1",
        "name": "read_file",
    }
    assert answered.metadata == {"error": True}
    assert tool_result(CALL, "ok").metadata == {}


def test_name_is_sent_only_on_tool_messages() -> None:
    """A name on a non-tool message is not sent to the model."""
    assert "name" not in Message(role="user", content="x", name="bob").to_openai()


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(user("hello"), id="user"),
        pytest.param(system("be brief"), id="system"),
        pytest.param(assistant("let me look", [CALL]), id="assistant-tool-calls"),
        pytest.param(tool_result(CALL, "contents", error=True), id="tool-result"),
        pytest.param(
            Message(role="assistant", content="ünïcode ✓", metadata={"summary": True}),
            id="metadata-unicode",
        ),
    ],
)
def test_stored_round_trip(message: Message) -> None:
    """to_stored() and decode_stored_message() are inverses."""
    decoded = decode_stored_message(message.to_stored())
    assert decoded == message
    assert decode_stored_message(message.to_stored().encode()) == message


def test_decode_accepts_integer_timestamps() -> None:
    """A row whose timestamp is an integer decodes to a float timestamp."""
    decoded = decode_stored_message('{"role":"user","content":"x","ts":1700000000}')
    assert decoded.timestamp == 1700000000.0 and isinstance(decoded.timestamp, float)


SECRET = "hunter2-the-secret-content"


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param("{" + SECRET, id="not-json"),
        pytest.param(json.dumps([SECRET]), id="not-object"),
        pytest.param(json.dumps({"role": "wizard", "content": SECRET, "ts": 1}), id="bad-role"),
        pytest.param(json.dumps({"role": "user", "ts": 1, "extra": SECRET}), id="no-content"),
        pytest.param(json.dumps({"role": "user", "content": SECRET}), id="no-timestamp"),
        pytest.param(json.dumps({"role": "user", "content": 5, "ts": 1}), id="content-not-str"),
        pytest.param(
            json.dumps({"role": "user", "content": SECRET, "ts": "yesterday"}), id="ts-not-number"
        ),
        pytest.param(
            json.dumps({"role": "user", "content": SECRET, "ts": 1, "mood": "x"}), id="extra-key"
        ),
        pytest.param(
            json.dumps(
                {
                    "role": "user",
                    "content": SECRET,
                    "ts": 1,
                    "tool_calls": [{"id": "a", "name": "f", "arguments": "{}"}],
                }
            ),
            id="tool-calls-on-user",
        ),
        pytest.param(json.dumps({"role": "tool", "content": SECRET, "ts": 1}), id="tool-no-id"),
        pytest.param(
            json.dumps(
                {
                    "role": "assistant",
                    "content": SECRET,
                    "ts": 1,
                    "tool_calls": [{"id": "a", "name": "", "arguments": "{}"}],
                }
            ),
            id="tool-call-no-name",
        ),
        pytest.param(b"\xff\xfe" + SECRET.encode(), id="not-utf8"),
    ],
)
def test_decode_rejects_malformed_rows_without_leaking(raw: str | bytes) -> None:
    """A malformed row raises StoredRowError whose message, cause and context hold no content."""
    with pytest.raises(StoredRowError) as info:
        decode_stored_message(raw)
    err = info.value
    assert str(err) == "stored message is malformed"
    assert SECRET not in repr(err)
    assert err.__cause__ is None and err.__suppress_context__


def test_conversation_system_handling() -> None:
    """set_system() replaces the first system message or inserts one at the front."""
    conv = Conversation([user("a")])
    assert conv.system is None
    conv.set_system("one")
    assert conv.system is not None and conv.system.content == "one"
    conv.set_system("two")
    assert [m.content for m in conv] == ["two", "a"] and len(conv) == 2
    assert Conversation().system is None


def test_conversation_copy_and_extend() -> None:
    """copy() is independent of the original; extend() and to_openai() work in order."""
    conv = Conversation()
    conv.append(user("a"))
    conv.extend([assistant("b")])
    twin = conv.copy()
    twin.append(user("c"))
    assert len(conv) == 2 and len(twin) == 3
    assert conv.to_openai() == [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": "b"},
    ]
