"""Prometheus metrics: one registry per daemon, filled through small hook methods.

A leaf: it imports nothing from agentd, so any layer (channels included) may take a
:class:`Metrics` without importing the daemon. Nothing is registered at import time and there is
no process-wide instance: :class:`Metrics` owns its own ``CollectorRegistry`` (never the library's
global one), the app creates one and hands it, or its bound hook methods, to what reports::

    Runtime(..., on_turn=metrics.on_turn)
    AgentLoop(TimedModel(llm, metrics.on_llm), tools, on_tool=metrics.on_tool)
    CronChannel(..., on_tick=metrics.cron_tick)
    open_sidecar(settings, on_restart=metrics.sidecar_restart)
    Quotas(..., on_usage=metrics.tenant_usage, on_refused=metrics.quota_refused)

so two daemons (or two tests) in one process never count into each other's numbers.

Tenants label the per-tenant counters. They come from the configuration and from chat senders,
so their number is capped (:class:`TenantLabels`): past :data:`MAX_TENANT_LABELS` distinct
tenants, the others count as ``_other`` (no tenant name can start with ``_``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = CONTENT_TYPE_LATEST

# Turns wait for tools and model calls: seconds to minutes on a small local model.
TURN_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300)
LLM_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120)
#: Distinct tenant label values before the rest fold into :data:`OTHER_TENANT`.
MAX_TENANT_LABELS = 1000
OTHER_TENANT = "_other"


class TenantLabels:
    """The label value of a tenant: itself for the first ``limit`` tenants seen, then
    :data:`OTHER_TENANT`, so a flood of senders cannot grow the exposition without bound."""

    __slots__ = ("_limit", "_seen")

    def __init__(self, limit: int = MAX_TENANT_LABELS) -> None:
        self._limit = limit
        self._seen: set[str] = set()

    def __call__(self, tenant: str) -> str:
        if tenant in self._seen:
            return tenant
        if len(self._seen) >= self._limit:
            return OTHER_TENANT
        self._seen.add(tenant)
        return tenant


class RuntimeLoad(Protocol):
    """What the gauges read of the runtime at each scrape."""

    @property
    def session_count(self) -> int: ...
    @property
    def in_flight(self) -> int: ...


class Metrics:
    """Every agentd metric, registered in this instance's own registry."""

    def __init__(self, *, max_tenant_labels: int = MAX_TENANT_LABELS) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.tenant_label = TenantLabels(max_tenant_labels)
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
        self.guard_verdicts = Counter(
            "agentd_turn_guard",
            "Turn rules that fired (default.guards), by rule and verdict.",
            ["guard", "verdict"],
            registry=r,
        )
        self.model_requests = Counter(
            "agentd_model_requests",
            "Model requests of turns (default.max_model_requests counts them), by kind: step, "
            "retry, route, intent, check, summary.",
            ["kind"],
            registry=r,
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
        self.mcp_up = Gauge(
            "agentd_mcp_server_up", "1 while an MCP server is connected.", ["server"], registry=r
        )
        self.mcp_reconnects = Counter(
            "agentd_mcp_reconnects", "Reconnections to an MCP server.", ["server"], registry=r
        )
        self.http_requests = Counter(
            "agentd_http_requests",
            "HTTP API requests, by route and status code.",
            ["route", "code"],
            registry=r,
        )

        self.tenant_turns = Counter(
            "agentd_tenant_turns", "Turns run, by tenant.", ["tenant"], registry=r
        )
        self.tenant_tokens = Counter(
            "agentd_tenant_tokens",
            "Model tokens as the model server reported them, by tenant and kind "
            "(prompt, completion).",
            ["tenant", "kind"],
            registry=r,
        )
        self.tenant_tool_calls = Counter(
            "agentd_tenant_tool_calls", "Tool calls, by tenant.", ["tenant"], registry=r
        )
        self.quota_refusals = Counter(
            "agentd_tenant_quota_refusals",
            "Turns refused by a tenant's quota, by tenant and limit.",
            ["tenant", "limit"],
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

    def on_guard(self, guard: str, verdict: str) -> None:
        """AgentLoop hook: a turn rule fired with ``verdict``."""
        self.guard_verdicts.labels(guard, verdict).inc()

    def on_request(self, kind: str) -> None:
        """AgentLoop hook: a turn made a model request of ``kind``."""
        self.model_requests.labels(kind).inc()

    def on_llm(self, mode: str, outcome: str, seconds: float) -> None:
        """TimedModel hook: one model call (``chat`` or ``stream``) ended with ``outcome``."""
        self.llm_seconds.labels(mode, outcome).observe(seconds)

    def tenant_usage(
        self, tenant: str, turns: int, prompt: int, completion: int, tool_calls: int
    ) -> None:
        """Quotas hook: a turn of ``tenant`` ended having used these."""
        label = self.tenant_label(tenant)
        self.tenant_turns.labels(label).inc(turns)
        self.tenant_tokens.labels(label, "prompt").inc(prompt)
        self.tenant_tokens.labels(label, "completion").inc(completion)
        self.tenant_tool_calls.labels(label).inc(tool_calls)

    def quota_refused(self, tenant: str, limit: str) -> None:
        """Quotas hook: a turn of ``tenant`` was refused by ``limit``."""
        self.quota_refusals.labels(self.tenant_label(tenant), limit).inc()

    def cron_tick(self, job: str, status: str) -> None:
        """Heartbeat hook: a tick of ``job`` was recorded (ok, error, missed, skipped)."""
        self.cron_ticks.labels(job, status).inc()

    def sidecar_restart(self) -> None:
        """Sidecar hook: the local model server was restarted."""
        self.sidecar_restarts.inc()

    def mcp_reconnect(self, server: str) -> None:
        """MCP hook: a connection to ``server`` is tried again after it failed or was lost."""
        self.mcp_reconnects.labels(server).inc()

    def watch_mcp(self, states: Callable[[], Mapping[str, str]]) -> None:
        """Report each MCP server as up (1) or not (0) from ``states()`` at each scrape."""

        def up(server: str) -> Callable[[], float]:
            return lambda: 1.0 if states().get(server) == "up" else 0.0

        for server in states():
            self.mcp_up.labels(server).set_function(up(server))

    def watch_runtime(self, runtime: RuntimeLoad) -> None:
        """Read sessions in memory and turns in flight from ``runtime`` at each scrape."""
        self.active_sessions.set_function(lambda: runtime.session_count)
        self.turns_in_flight.set_function(lambda: runtime.in_flight)

    def watch_memory(self, state: Callable[[], str]) -> None:
        """Report long-term memory as degraded while ``state()`` says ``degraded``."""
        self.memory_degraded.set_function(lambda: 1.0 if state() == "degraded" else 0.0)

    def exposition(self) -> bytes:
        """The registry in the Prometheus text format."""
        return generate_latest(self.registry)
