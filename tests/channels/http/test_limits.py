"""Limits on a whole request (#15, finding 5), in process through ``httpx.ASGITransport``."""

from __future__ import annotations

import pytest

from agentd.config import HttpChannelSettings
from agentd.engine.runtime import Runtime
from tests.support.http_channel import api_error, in_process
from tests.support.stub_llm import StubLLM

pytestmark = pytest.mark.anyio


def _users(count: int, chars: int) -> list[dict[str, str]]:
    return [{"role": "user", "content": "x" * chars} for _ in range(count)]


async def _stored_user_messages(runtime: Runtime, session: str) -> list[int]:
    return [len(m.content) for m in await runtime.history(session) if m.role == "user"]


async def test_reported_eleven_messages_of_90000_chars_are_refused(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """11 x 90,000 characters (each under max_message_chars) is over the request total: 400."""
    body = {"messages": _users(11, 90_000), "user": "bulk"}
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=body)
    error = api_error(reply, 400)
    assert error["code"] == "request_too_long"
    assert "max_request_chars" in error["message"]
    assert await _stored_user_messages(stub_runtime, "http:bulk") == []
    assert stub_llm.requests == []


async def test_merged_trailing_user_messages_respect_max_message_chars(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """Trailing user messages a session joins into one stored message obey the per-message limit."""
    settings = HttpChannelSettings(max_message_chars=100, max_request_chars=1000)
    async with in_process(stub_runtime, settings) as http:
        merged = {"messages": _users(3, 60), "user": "merge"}
        error = api_error(await http.post("/v1/chat/completions", json=merged), 400)
        assert error["code"] == "message_too_long"
        assert "max_message_chars" in error["message"]
        assert await _stored_user_messages(stub_runtime, "http:merge") == []
        # Stateless, the same messages stay separate messages and each fits.
        stateless = await http.post("/v1/chat/completions", json={"messages": _users(3, 60)})
        assert stateless.status_code == 200
        fits = {"messages": _users(2, 40), "user": "merge"}
        assert (await http.post("/v1/chat/completions", json=fits)).status_code == 200
    assert await _stored_user_messages(stub_runtime, "http:merge") == [82]


async def test_too_many_messages_are_refused(stub_runtime: Runtime, stub_llm: StubLLM) -> None:
    """More messages than max_messages is a 400 naming the limit; the limit itself passes."""
    settings = HttpChannelSettings(max_messages=5)
    async with in_process(stub_runtime, settings) as http:
        reply = await http.post("/v1/chat/completions", json={"messages": _users(6, 1)})
        error = api_error(reply, 400)
        assert (error["code"], error["param"]) == ("too_many_messages", "messages")
        assert "max_messages" in error["message"]
        assert stub_llm.requests == []
        assert (
            await http.post("/v1/chat/completions", json={"messages": _users(5, 1)})
        ).status_code == 200
