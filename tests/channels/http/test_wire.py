"""Request parsing: whole-request limits and the tool-call structure (#15, findings 5 and 9)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from channels.http.wire import ApiError, RequestLimits, parse_request

LIMITS = RequestLimits(message_chars=100, request_chars=250, messages=10)


def _call(call_id: str, name: str = "read_file") -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}


def _asks(*ids: str) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": [_call(i) for i in ids]}


def _result(call_id: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": "ok"}


USER = {"role": "user", "content": "hi"}


def _parse(messages: list[dict[str, Any]], limits: RequestLimits = LIMITS) -> None:
    parse_request(json.dumps({"messages": messages}).encode(), limits)


def _refusal(messages: list[dict[str, Any]], limits: RequestLimits = LIMITS) -> ApiError:
    with pytest.raises(ApiError) as caught:
        _parse(messages, limits)
    assert caught.value.status == 400
    return caught.value


@pytest.mark.parametrize(
    "messages",
    [
        pytest.param([USER, _asks("a"), _result("a"), USER], id="one-call"),
        pytest.param(
            [USER, _asks("a", "b"), _result("b"), _result("a"), USER], id="two-calls-any-order"
        ),
        pytest.param(
            [USER, _asks("a"), _result("a"), _asks("b"), _result("b"), USER], id="two-rounds"
        ),
        pytest.param(
            [USER, _asks("a"), {"role": "system", "content": "note"}, _result("a")],
            id="system-between",
        ),
        pytest.param([USER, _asks("a"), _result("a")], id="ends-with-result"),
    ],
)
def test_complete_tool_exchanges_pass(messages: list[dict[str, Any]]) -> None:
    """Every call answered by its tool message, and nothing else, is accepted."""
    _parse(messages)


@pytest.mark.parametrize(
    ("messages", "index", "param"),
    [
        pytest.param([USER, _result("a")], 1, "messages.1.tool_call_id", id="result-no-call"),
        pytest.param(
            [USER, _asks("a"), _result("a"), _result("a")],
            3,
            "messages.3.tool_call_id",
            id="result-twice",
        ),
        pytest.param([USER, _asks("a"), _result("b")], 2, "messages.2.tool_call_id", id="wrong-id"),
        pytest.param([USER, _asks("a"), USER], 1, "messages.1.tool_calls", id="call-no-result"),
        pytest.param([USER, _asks("a")], 1, "messages.1.tool_calls", id="call-at-end"),
        pytest.param(
            [USER, _asks("a", "b"), _result("a"), USER],
            1,
            "messages.1.tool_calls",
            id="one-of-two-unanswered",
        ),
        pytest.param(
            [USER, _asks("a"), _asks("b"), _result("a"), _result("b")],
            1,
            "messages.1.tool_calls",
            id="assistant-before-result",
        ),
        pytest.param(
            [USER, _asks("a", "a"), _result("a"), _result("a")],
            1,
            "messages.1.tool_calls",
            id="duplicate-in-one",
        ),
        pytest.param(
            [USER, _asks("a"), _result("a"), _asks("a"), _result("a")],
            3,
            "messages.3.tool_calls",
            id="duplicate-across",
        ),
    ],
)
def test_broken_tool_exchanges_are_400_naming_the_message(
    messages: list[dict[str, Any]], index: int, param: str
) -> None:
    """A result without its call, a call without its result or a reused id is a 400."""
    error = _refusal(messages)
    assert error.param == param
    assert error.code == "invalid_tool_calls"
    assert error.message.startswith(f"message {index}:")


def test_limits_on_the_whole_request() -> None:
    """The total characters and the number of messages are limited, naming the limit."""
    _parse([{"role": "user", "content": "x" * 100}] * 2 + [{"role": "user", "content": "x" * 50}])
    total = _refusal([{"role": "user", "content": "x" * 100}] * 3)
    assert (total.code, total.param) == ("request_too_long", "messages")
    assert "max_request_chars (250)" in total.message
    many = _refusal([USER] * 11)
    assert many.code == "too_many_messages"
    assert "max_messages (10)" in many.message
    single = _refusal([{"role": "user", "content": "x" * 101}])
    assert (single.code, single.param) == ("message_too_long", "messages.0.content")


def test_trailing_user_text_is_one_message_under_the_limit() -> None:
    """The joined trailing user messages of a session are held to max_message_chars."""
    body = {"messages": [{"role": "user", "content": "x" * 49}] * 2}
    assert len(parse_request(json.dumps(body).encode(), LIMITS).trailing_user_text()) == 100
    body = {"messages": [{"role": "user", "content": "x" * 50}] * 2}
    with pytest.raises(ApiError) as caught:
        parse_request(json.dumps(body).encode(), LIMITS).trailing_user_text()
    assert caught.value.code == "message_too_long"
