"""Request parsing: whole-request limits (#15, finding 5)."""

from __future__ import annotations

import json

import pytest

from channels.http.wire import ApiError, RequestLimits, parse_request

LIMITS = RequestLimits(message_chars=100, request_chars=250, messages=10)


USER = {"role": "user", "content": "hi"}


def _parse(messages: list[dict[str, str]], limits: RequestLimits = LIMITS) -> None:
    parse_request(json.dumps({"messages": messages}).encode(), limits)


def _refusal(messages: list[dict[str, str]], limits: RequestLimits = LIMITS) -> ApiError:
    with pytest.raises(ApiError) as caught:
        _parse(messages, limits)
    assert caught.value.status == 400
    return caught.value


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
