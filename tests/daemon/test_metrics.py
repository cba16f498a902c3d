"""Metrics: a private registry per instance, hooks that record, a timed model wrapper."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import aclosing
from typing import Any

import prometheus_client
import pytest

from agentd.daemon import metrics
from agentd.daemon.metrics import Metrics
from agentd.errors import LLMUnavailable
from agentd.messages import Message, assistant, user
from agentd.model.client import ChatResult, Completed, StreamEvent, TextDelta


@pytest.fixture
def fresh() -> Iterator[Metrics]:
    """A fresh process-wide Metrics, restored afterwards."""
    mine = Metrics()
    metrics.use(mine)
    yield mine
    metrics.use(None)


def _value(m: Metrics, name: str, **labels: str) -> float | None:
    return m.registry.get_sample_value(name, labels)


def test_instances_do_not_share_or_touch_the_global_registry() -> None:
    """Two Metrics count separately and register nothing in prometheus' global registry."""
    before = set(prometheus_client.REGISTRY._names_to_collectors)
    a, b = Metrics(), Metrics()
    a.on_turn("http", "ok", 0.2)
    assert _value(a, "agentd_turns_total", channel="http", status="ok") == 1.0
    assert _value(b, "agentd_turns_total", channel="http", status="ok") is None
    assert set(prometheus_client.REGISTRY._names_to_collectors) == before


def test_hooks_show_in_the_exposition() -> None:
    """Turn, tool and LLM hooks land in the text exposition with their labels."""
    m = Metrics()
    m.on_turn("telegram", "error", 1.5)
    m.on_tool("read_file", True, 0.01)
    m.on_tool("read_file", False, 0.01)
    m.on_llm("chat", "ok", 0.3)
    text = m.exposition().decode()
    assert 'agentd_turns_total{channel="telegram",status="error"} 1.0' in text
    assert 'agentd_turn_duration_seconds_bucket{channel="telegram",le="2.5"} 1.0' in text
    assert 'agentd_tool_calls_total{outcome="error",tool="read_file"} 1.0' in text
    assert 'agentd_tool_calls_total{outcome="ok",tool="read_file"} 1.0' in text
    assert 'agentd_llm_request_duration_seconds_count{mode="chat",outcome="ok"} 1.0' in text


def test_module_functions_report_to_the_current_metrics(fresh: Metrics) -> None:
    """cron_tick, sidecar_restart and memory_degraded report to metrics.current()."""
    metrics.cron_tick("heartbeat", "missed")
    metrics.sidecar_restart()
    metrics.sidecar_restart()
    metrics.memory_degraded(True)
    assert metrics.current() is fresh
    assert _value(fresh, "agentd_cron_ticks_total", job="heartbeat", status="missed") == 1.0
    assert _value(fresh, "agentd_sidecar_restarts_total") == 2.0
    assert _value(fresh, "agentd_memory_degraded") == 1.0
    metrics.memory_degraded(False)
    assert _value(fresh, "agentd_memory_degraded") == 0.0


def test_watch_runtime_reads_gauges_at_scrape_time() -> None:
    """Active sessions and turns in flight are read from the runtime when scraped."""

    class FakeRuntime:
        sessions = (1, 2, 3)
        in_flight = 2

    m = Metrics()
    m.watch_runtime(FakeRuntime())
    assert _value(m, "agentd_sessions_active") == 3.0
    assert _value(m, "agentd_turns_in_flight") == 2.0


class _Model:
    def __init__(self, fail: bool = False) -> None:
        self.fail = fail

    async def chat(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: frozenset[str] = frozenset(),
    ) -> ChatResult:
        if self.fail:
            raise LLMUnavailable("down")
        return ChatResult(assistant("hi"))

    async def stream(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: frozenset[str] = frozenset(),
    ) -> AsyncIterator[StreamEvent]:
        yield TextDelta("h")
        yield TextDelta("i")
        yield Completed(ChatResult(assistant("hi")))


@pytest.mark.anyio
async def test_timed_model_records_outcomes() -> None:
    """The wrapper passes calls through and records ok, error and cancelled (closed early)."""
    m = Metrics()
    ok = m.timed(_Model())
    assert (await ok.chat([user("x")])).message.content == "hi"
    with pytest.raises(LLMUnavailable):
        await m.timed(_Model(fail=True)).chat([user("x")])
    events = [e async for e in ok.stream([user("x")])]
    assert isinstance(events[-1], Completed)
    async with aclosing(ok.stream([user("x")])) as stream:  # type: ignore[type-var]
        async for _ in stream:
            break
    assert await ok.ping() is True
    count = "agentd_llm_request_duration_seconds_count"
    assert _value(m, count, mode="chat", outcome="ok") == 1.0
    assert _value(m, count, mode="chat", outcome="error") == 1.0
    assert _value(m, count, mode="stream", outcome="ok") == 1.0
    assert _value(m, count, mode="stream", outcome="cancelled") == 1.0
