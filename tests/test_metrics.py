"""Metrics: a private registry per instance, filled through hook methods."""

from __future__ import annotations

import ast
from pathlib import Path

import prometheus_client

import agentd.metrics
from agentd.metrics import Metrics


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


def test_cron_and_sidecar_hooks_count() -> None:
    """cron_tick counts by job and status; sidecar_restart counts restarts."""
    m = Metrics()
    m.cron_tick("heartbeat", "missed")
    m.sidecar_restart()
    m.sidecar_restart()
    assert _value(m, "agentd_cron_ticks_total", job="heartbeat", status="missed") == 1.0
    assert _value(m, "agentd_sidecar_restarts_total") == 2.0


def test_watch_memory_reads_the_state_at_scrape_time() -> None:
    """The degraded gauge is 1 exactly while the state function says degraded."""
    state = "degraded"
    m = Metrics()
    m.watch_memory(lambda: state)
    assert _value(m, "agentd_memory_degraded") == 1.0
    state = "ok"
    assert _value(m, "agentd_memory_degraded") == 0.0


def test_metrics_is_a_leaf() -> None:
    """agentd.metrics imports nothing from agentd, so any layer may import it."""
    tree = ast.parse(Path(agentd.metrics.__file__).read_text())
    modules = [
        "." * node.level + (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    ]
    assert "prometheus_client" in modules
    ours = [m for m in modules if m.startswith(".") or m.split(".")[0] in {"agentd", "channels"}]
    assert ours == []


def test_watch_runtime_reads_gauges_at_scrape_time() -> None:
    """Active sessions and turns in flight are read from the runtime when scraped."""

    class FakeRuntime:
        session_count = 3
        in_flight = 2

    m = Metrics()
    m.watch_runtime(FakeRuntime())
    assert _value(m, "agentd_sessions_active") == 3.0
    assert _value(m, "agentd_turns_in_flight") == 2.0


def test_tenant_usage_counts_by_tenant_and_kind() -> None:
    """tenant_usage adds turns, prompt and completion tokens and tool calls under the tenant."""
    m = Metrics()
    m.tenant_usage("alice", 1, 120, 30, 2)
    m.tenant_usage("alice", 1, 80, 10, 0)
    m.quota_refused("alice", "turns_per_minute")
    assert _value(m, "agentd_tenant_turns_total", tenant="alice") == 2.0
    assert _value(m, "agentd_tenant_tokens_total", tenant="alice", kind="prompt") == 200.0
    assert _value(m, "agentd_tenant_tokens_total", tenant="alice", kind="completion") == 40.0
    assert _value(m, "agentd_tenant_tool_calls_total", tenant="alice") == 2.0
    assert (
        _value(m, "agentd_tenant_quota_refusals_total", tenant="alice", limit="turns_per_minute")
        == 1.0
    )


def test_tenant_labels_are_capped() -> None:
    """Past the cap, new tenants count under _other; tenants seen before keep their label."""
    m = Metrics(max_tenant_labels=2)
    for tenant in ("a", "b", "c", "d", "a"):
        m.tenant_usage(tenant, 1, 1, 1, 0)
    assert _value(m, "agentd_tenant_turns_total", tenant="a") == 2.0
    assert _value(m, "agentd_tenant_turns_total", tenant="b") == 1.0
    assert _value(m, "agentd_tenant_turns_total", tenant="c") is None
    assert _value(m, "agentd_tenant_turns_total", tenant="_other") == 2.0
    labels = {
        s.labels["tenant"]
        for family in m.registry.collect()
        if family.name == "agentd_tenant_turns"
        for s in family.samples
    }
    assert labels == {"a", "b", "_other"}


def test_the_default_cap_is_a_thousand_tenants() -> None:
    """A flood of distinct tenants (chat senders) yields at most 1,000 labels plus _other."""
    from agentd.metrics import MAX_TENANT_LABELS, TenantLabels

    labels = TenantLabels()
    assert MAX_TENANT_LABELS == 1000
    assert len({labels(f"sender{i}") for i in range(5000)}) == 1001
