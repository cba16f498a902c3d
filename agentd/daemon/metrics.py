"""Prometheus metrics: one registry per daemon, filled through small hook methods.

Nothing is registered at import time. :class:`Metrics` owns its own ``CollectorRegistry`` (never
the library's global one), so two daemons (or two tests) in one process do not collide. The
parts of agentd report through hooks that are plain callables::

    Runtime(..., on_turn=metrics.on_turn)
    AgentLoop(metrics.timed(llm), tools, on_tool=metrics.on_tool)

and through the module functions :func:`cron_tick`, :func:`sidecar_restart` and
:func:`memory_degraded`, which report to the process's current metrics (:func:`current`).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Callable, Sequence
from contextlib import aclosing
from typing import TYPE_CHECKING, Any, cast

import anyio
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from agentd.messages import Message
from agentd.model.client import ChatResult, Completed, StreamEvent

if TYPE_CHECKING:
    from agentd.engine.loop import ChatModel

__all__ = [
    "CONTENT_TYPE",
    "Metrics",
    "TimedModel",
    "cron_tick",
    "current",
    "memory_degraded",
    "sidecar_restart",
    "use",
]

CONTENT_TYPE = CONTENT_TYPE_LATEST

# Turns wait for tools and model calls: seconds to minutes on a small local model.
TURN_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300)
LLM_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120)


class Metrics:
    """Every agentd metric, registered in this instance's own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.turns = Counter(
            "agentd_turns",
            "Turns finished, by channel and status.",
            ["channel", "status"],
            registry=r,
        )
        self.turn_seconds = Histogram(
            "agentd_turn_duration_seconds",
            "Time of one turn, from its session slot to its answer.",
            ["channel"],
            buckets=TURN_BUCKETS,
            registry=r,
        )
        self.llm_seconds = Histogram(
            "agentd_llm_request_duration_seconds",
            "Time of one model call (a whole stream when streaming), by mode and outcome.",
            ["mode", "outcome"],
            buckets=LLM_BUCKETS,
            registry=r,
        )
        self.tool_calls = Counter(
            "agentd_tool_calls", "Tool calls, by tool and outcome.", ["tool", "outcome"], registry=r
        )
        self.tool_seconds = Histogram(
            "agentd_tool_duration_seconds", "Time of one tool call.", ["tool"], registry=r
        )
        self.active_sessions = Gauge(
            "agentd_sessions_active", "Sessions held in memory.", registry=r
        )
        self.turns_in_flight = Gauge(
            "agentd_turns_in_flight", "Turns running or waiting for a slot.", registry=r
        )
        self.memory_degraded = Gauge(
            "agentd_memory_degraded", "1 while long-term memory is unavailable.", registry=r
        )
        self.cron_ticks = Counter(
            "agentd_cron_ticks",
            "Heartbeat ticks, by job and status.",
            ["job", "status"],
            registry=r,
        )
        self.sidecar_restarts = Counter(
            "agentd_sidecar_restarts", "Restarts of the local model server.", registry=r
        )
        self.http_requests = Counter(
            "agentd_http_requests",
            "HTTP API requests, by route and status code.",
            ["route", "code"],
            registry=r,
        )

    def on_turn(self, channel: str, status: str, seconds: float) -> None:
        """Runtime hook: one turn ended (status ok, error or cancelled)."""
        self.turns.labels(channel, status).inc()
        self.turn_seconds.labels(channel).observe(seconds)

    def on_tool(self, name: str, error: bool, seconds: float) -> None:
        """AgentLoop hook: one tool call ended."""
        self.tool_calls.labels(name, "error" if error else "ok").inc()
        self.tool_seconds.labels(name).observe(seconds)

    def on_llm(self, mode: str, outcome: str, seconds: float) -> None:
        self.llm_seconds.labels(mode, outcome).observe(seconds)

    def watch_runtime(self, runtime: Any) -> None:
        """Read sessions in memory and turns in flight from ``runtime`` at each scrape."""
        self.active_sessions.set_function(lambda: runtime.session_count)
        self.turns_in_flight.set_function(lambda: runtime.in_flight)

    def watch_memory(self, state: Callable[[], str]) -> None:
        """Report long-term memory as degraded while ``state()`` says ``degraded``."""
        self.memory_degraded.set_function(lambda: 1.0 if state() == "degraded" else 0.0)

    def timed(self, model: ChatModel) -> TimedModel:
        """``model`` with every call's latency recorded."""
        return TimedModel(model, self.on_llm)

    def exposition(self) -> bytes:
        """The registry in the Prometheus text format."""
        return generate_latest(self.registry)


class TimedModel:
    """A ChatModel that reports each call's duration and outcome; otherwise transparent."""

    def __init__(self, inner: ChatModel, observe: Callable[[str, str, float], None]) -> None:
        self.inner = inner
        self._observe = observe

    async def chat(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: frozenset[str] = frozenset(),
    ) -> ChatResult:
        started = anyio.current_time()
        outcome = "error"
        try:
            result = await self.inner.chat(messages, tools, tool_names)
            outcome = "ok"
            return result
        finally:
            self._observe("chat", outcome, anyio.current_time() - started)

    async def stream(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: frozenset[str] = frozenset(),
    ) -> AsyncIterator[StreamEvent]:
        started = anyio.current_time()
        outcome = "error"
        inner = cast(
            AsyncGenerator[StreamEvent, None], self.inner.stream(messages, tools, tool_names)
        )
        try:
            async with aclosing(inner):
                async for event in inner:
                    if isinstance(event, Completed):
                        outcome = "ok"
                    yield event
        except (GeneratorExit, anyio.get_cancelled_exc_class()):
            outcome = "cancelled"
            raise
        finally:
            self._observe("stream", outcome, anyio.current_time() - started)

    async def ping(self) -> bool:
        """The inner model's ping, or True when it has none."""
        ping = getattr(self.inner, "ping", None)
        return True if ping is None else bool(await ping())


_current: Metrics | None = None


def current() -> Metrics:
    """The process's metrics, created on first use."""
    global _current
    if _current is None:
        _current = Metrics()
    return _current


def use(metrics: Metrics | None) -> None:
    """Make ``metrics`` the process's current metrics (None: a fresh one on next use)."""
    global _current
    _current = metrics


def cron_tick(job: str, status: str) -> None:
    """A heartbeat tick was recorded with ``status`` (ok, error, missed, skipped)."""
    current().cron_ticks.labels(job, status).inc()


def sidecar_restart() -> None:
    """The local model server was restarted."""
    current().sidecar_restarts.inc()


def memory_degraded(degraded: bool) -> None:
    """Long-term memory became unavailable (True) or available again (False)."""
    current().memory_degraded.set(1 if degraded else 0)
