"""A turn answered over ASGI: clients that leave or stop reading cancel it, history stays whole."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from agentd.engine.runtime import Runtime
from agentd.metrics import Metrics
from channels.http.turn import TurnResponse
from channels.http.wire import Reply as WireReply
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio


def _cancelled(metrics: Metrics) -> float | None:
    return metrics.registry.get_sample_value(
        "agentd_turns_total", {"channel": "http", "status": "cancelled"}
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

    events = stub_runtime.handle("http:erin", "hello", channel="http", stream=False)
    response = TurnResponse(
        events, WireReply("agentd"), stream=False, include_usage=False, send_timeout=5
    )
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            tg.start_soon(response, {"type": "http"}, receive, send)
            while not stub_llm.requests:  # noqa: ASYNC110 - the stub answers from a thread
                await anyio.sleep(0.01)
            gone.set()
    assert sent == []
    assert response.disconnected
    assert _cancelled(metrics) == 1.0
    history = await stub_runtime.history("http:erin")
    assert [m.role for m in history] == ["system", "user"]


async def test_client_that_stops_reading_is_dropped(
    stub_runtime: Runtime, stub_llm: StubLLM, metrics: Metrics
) -> None:
    """A streaming client whose socket stops taking data for send_timeout cancels the turn."""
    stub_llm.add(Reply(text="one two three four five"))
    bodies = 0
    stalled = anyio.Event()

    async def receive() -> dict[str, Any]:
        await anyio.sleep_forever()
        raise AssertionError  # pragma: no cover

    async def send(message: Any) -> None:
        nonlocal bodies
        if message["type"] == "http.response.body":
            bodies += 1
            if bodies == 2:
                stalled.set()
                await anyio.sleep_forever()

    events = stub_runtime.handle("http:finn", "hello", channel="http", stream=True)
    response = TurnResponse(
        events, WireReply("agentd"), stream=True, include_usage=False, send_timeout=0.2
    )
    with anyio.fail_after(10):
        await response({"type": "http"}, receive, send)
    assert stalled.is_set()
    assert response.disconnected
    assert _cancelled(metrics) == 1.0
    assert stub_runtime.in_flight == 0
    history = await stub_runtime.history("http:finn")
    assert [m.role for m in history] == ["system", "user"]
