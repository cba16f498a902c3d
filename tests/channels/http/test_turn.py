"""A turn answered over ASGI: a client that leaves cancels it, one that stalls holds nothing."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentd.config import CronJob
from agentd.cron.heartbeat import Heartbeat
from agentd.cron.ticklog import TickLog
from agentd.engine.loop import TurnDone, TurnResult
from agentd.engine.runtime import Runtime
from agentd.engine.turn import Item, Turn
from agentd.messages import assistant
from agentd.metrics import Metrics
from agentd.model.client import TextDelta
from channels.http.turn import TurnResponse
from channels.http.wire import Reply as WireReply
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio


def _turns(metrics: Metrics, status: str) -> float | None:
    return metrics.registry.get_sample_value(
        "agentd_turns_total", {"channel": "http", "status": status}
    )


async def test_disconnect_during_a_json_turn_cancels_it(
    stub_runtime: Runtime, stub_llm: StubLLM, metrics: Metrics
) -> None:
    """A non-streaming client that goes away cancels the turn; nothing is sent."""
    stub_llm.add(Reply(text="too late", delay=1.0))
    gone = anyio.Event()
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    response = TurnResponse(
        lambda: stub_runtime.turn("http:erin", "hello", channel="http", stream=False),
        WireReply("agentd"),
        stream=False,
        include_usage=False,
        send_timeout=5,
    )
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            tg.start_soon(response, {"type": "http"}, receive, send)
            while not stub_llm.requests:  # noqa: ASYNC110 - the stub answers from a thread
                await anyio.sleep(0.01)
            gone.set()
    assert sent == []
    assert response.disconnected
    with anyio.fail_after(5):
        await stub_runtime.wait_idle()
    assert _turns(metrics, "cancelled") == 1.0
    history = await stub_runtime.history("http:erin")
    assert [m.role for m in history] == ["system", "user"]


async def test_client_that_stops_reading_is_dropped(
    stub_runtime: Runtime, stub_llm: StubLLM, metrics: Metrics
) -> None:
    """A streaming client that stops taking data for send_timeout is dropped; the answer the
    model finished meanwhile is kept."""
    stub_llm.add(Reply(text="one two three four five"))
    stalled = anyio.Event()

    response = TurnResponse(
        lambda: stub_runtime.turn("http:finn", "hello", channel="http", stream=True),
        WireReply("agentd"),
        stream=True,
        include_usage=False,
        send_timeout=0.2,
    )
    with anyio.fail_after(10):
        await response({"type": "http"}, _never_disconnects, _stalls_after(1, stalled))
        await stub_runtime.wait_idle()
    assert stalled.is_set()
    assert response.disconnected
    assert _turns(metrics, "ok") == 1.0
    history = await stub_runtime.history("http:finn")
    assert [m.role for m in history] == ["system", "user", "assistant"]


async def test_stalled_streaming_clients_hold_no_turn_slot(
    stub_runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """32 stalled streaming clients (as many as turn slots): a turn of another session and a
    cron tick still complete at once.

    Regression: the global limiter stayed borrowed while a channel wrote to a slow client, so
    16 stalled clients stopped every channel for send_timeout (60 s).
    """
    stub_llm.fallback = lambda body: Reply(text="one two three four five six")
    assert stub_runtime.limiter.total_tokens == 32
    stalled = [anyio.Event() for _ in range(32)]
    async with anyio.create_task_group() as tg:
        for i, event in enumerate(stalled):
            response = TurnResponse(
                partial(stub_runtime.turn, f"http:slow{i}", "hi", channel="http", stream=True),
                WireReply("agentd"),
                stream=True,
                include_usage=False,
                send_timeout=60,
            )
            tg.start_soon(response, {"type": "http"}, _never_disconnects, _stalls_after(1, event))
        with anyio.fail_after(10):
            for event in stalled:
                await event.wait()
        job = CronJob(name="beat", schedule="1h", prompt="check")
        with anyio.fail_after(10):
            result = await stub_runtime.ask("http:other", "are you there?")
            async with TickLog.open(tmp_path / "ticks.db") as log:
                status = await Heartbeat(stub_runtime, log, workdir=tmp_path).tick(
                    job, "2026-01-05T10:00:00Z"
                )
        assert result.message.content == "one two three four five six"
        assert status == "ok"
        assert stub_runtime.limiter.borrowed_tokens == 0
        tg.cancel_scope.cancel()


async def _never_disconnects() -> dict[str, Any]:
    await anyio.sleep_forever()
    raise AssertionError  # pragma: no cover


def _stalls_after(bodies: int, stalled: anyio.Event) -> Callable[[Any], Awaitable[None]]:
    """An ASGI send that takes ``bodies`` body messages, then never returns (a full socket)."""
    seen = 0

    async def send(message: Any) -> None:
        nonlocal seen
        if message["type"] == "http.response.body":
            seen += 1
            if seen > bodies:
                stalled.set()
                await anyio.sleep_forever()

    return send


async def test_a_streamed_answer_that_is_ready_goes_out_in_one_write() -> None:
    """Deltas already waiting and the end behind them go out in one body write: the role
    chunk, the text joined, the finish and [DONE]; nothing is lost."""
    done = TurnDone(TurnResult(assistant("Hello there")))

    @asynccontextmanager
    async def ready_turn() -> AsyncIterator[Turn]:
        send, receive = anyio.create_memory_object_stream[Item](8)
        with send, receive:
            for item in (TextDelta("Hel"), TextDelta("lo"), TextDelta(" there"), done):
                send.send_nowait(item)
            yield Turn(receive)

    sent: list[dict[str, Any]] = []

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        await anyio.sleep_forever()
        raise AssertionError

    response = TurnResponse(
        ready_turn, WireReply("agentd"), stream=True, include_usage=False, send_timeout=5
    )
    with anyio.fail_after(5):
        await response({"type": "http"}, receive, send)
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[1]["more_body"] is False
    events = [e.removeprefix("data: ") for e in sent[1]["body"].decode().split("\n\n") if e]
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e)["choices"][0] for e in events[:-1]]
    assert chunks[0]["delta"]["role"] == "assistant"
    assert "".join(c["delta"].get("content") or "" for c in chunks) == "Hello there"
    assert chunks[-1]["finish_reason"] == "stop"
