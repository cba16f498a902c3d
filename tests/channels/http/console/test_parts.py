"""The console's pieces without a browser: sign-ins, minute samples, SVG charts."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agentd import scope as scopes
from agentd.config import CronJob
from agentd.cron.tasks import TaskStore, parse_when
from agentd.cron.ticklog import TickLog
from agentd.mcp.servers import ServerInfo
from agentd.metrics import Metrics
from agentd.origin import Origin
from channels.http.console import ConfiguredJobs, ReadinessHealth
from channels.http.console.auth import IDLE, LIFETIME, SignIns
from channels.http.console.charts import Line, line_chart
from channels.http.console.samples import MinuteSamples, quantile
from channels.http.console.sources import AgentTasks, McpHealth
from channels.http.principals import Principal

ALICE = Principal("alice", "acme")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_sign_in_expires_when_idle_and_at_its_lifetime() -> None:
    """A sign-in lives while used, ends after IDLE unused, and always after LIFETIME."""
    clock = Clock()
    signins = SignIns(clock=clock)
    sid, signin = signins.create(ALICE)
    assert signins.get(sid) is signin
    clock.now += IDLE + 1
    assert signins.get(sid) is None
    sid, _ = signins.create(ALICE)
    for _ in range(int(LIFETIME // (IDLE / 2)) + 1):
        clock.now += IDLE / 2
        signins.get(sid)
    assert signins.get(sid) is None


def test_sign_ins_are_bounded_and_end_on_sign_out() -> None:
    """Past the limit the oldest sign-in goes; ending one forgets it; ids are unguessable."""
    signins = SignIns(limit=2)
    first, _ = signins.create(ALICE)
    second, _ = signins.create(ALICE)
    third, _ = signins.create(ALICE)
    assert signins.get(first) is None and len(signins) == 2
    signins.end(second)
    assert signins.get(second) is None and signins.get(third) is not None
    assert len(third) >= 40 and signins.get("") is None and signins.get(None) is None


@pytest.mark.parametrize(
    ("q", "buckets", "expected"),
    [
        pytest.param(0.5, ((1.0, 0.0), (2.0, 4.0), (float("inf"), 4.0)), 1.5, id="inside"),
        pytest.param(0.95, ((1.0, 10.0), (float("inf"), 20.0)), 1.0, id="past-last-bound"),
        pytest.param(0.5, ((1.0, 0.0), (float("inf"), 0.0)), None, id="empty"),
    ],
)
def test_quantile_interpolates_in_its_bucket(
    q: float, buckets: tuple[tuple[float, float], ...], expected: float | None
) -> None:
    """Percentiles come from bucket counts as Prometheus' histogram_quantile computes them."""
    assert quantile(q, buckets) == expected


def test_minute_samples_take_differences_of_the_counters() -> None:
    """Each minute holds what changed since the previous one; the live minute is last."""
    metrics = Metrics()
    clock = Clock()
    samples = MinuteSamples(metrics, clock=clock)
    metrics.on_turn("http", "ok", 0.3)
    metrics.on_turn("http", "ok", 0.4)
    metrics.tenant_usage("acme", 1, 100, 20, 0)
    first = samples.take()
    assert (first.turns, first.tokens) == (2, 120)
    assert first.p50 is not None and 0.25 <= first.p50 <= 0.5
    metrics.on_turn("http", "ok", 7.0)
    live = samples.series()
    assert [s.turns for s in live] == [2, 1]
    assert live[-1].p95 is not None and 5 <= live[-1].p95 <= 10


def test_charts_escape_labels_and_use_no_style_attributes() -> None:
    """The SVG carries presentation attributes only and escapes its title."""
    svg = line_chart("<b>turns</b>", [Line("x", [0, 2, None, 4]), Line("y", [1.0], "line-b")])
    assert "<b>" not in svg and "&lt;b&gt;" in svg
    assert "style=" not in svg
    assert svg.count("<polyline") == 1 and svg.count("<circle") == 1


@pytest.mark.anyio
async def test_configured_jobs_list_next_fires_ticks_and_run(tmp_path: Path) -> None:
    """Configured jobs show their next fire, the tick log's rows, and run by name only."""
    job = CronJob(name="nightly", schedule="every 1h", prompt="hi")
    ran: list[str] = []

    async def run(name: str) -> str | None:
        ran.append(name)
        return "ok"

    assert await ConfiguredJobs([job], None, "home", run).runs() == []  # cron off: no log
    async with TickLog.open(tmp_path / "ticks.db") as log:
        source = ConfiguredJobs([job], log, "home", run)
        assert await source.runs() == []
        [listed] = await source.scheduled()
        assert (listed.name, listed.tenant, listed.runnable) == ("nightly", "home", True)
        assert listed.next_fire is not None and listed.next_fire > dt.datetime.now(dt.UTC)
        await log.record("nightly", ["2026-01-01T00:00:00Z"], "missed", "the daemon was down")
        [tick] = await source.runs(job="nightly", status="missed")
        assert tick.error == "the daemon was down"
        assert await source.run_now("nightly") == "ok" and ran == ["nightly"]
        with pytest.raises(KeyError):
            await source.run_now("other")
        with pytest.raises(KeyError):
            await ConfiguredJobs([job], log, "home", None).run_now("nightly")


@pytest.mark.anyio
async def test_readiness_health_reports_each_component() -> None:
    """The model server, memory and every channel, with http always serving."""

    async def down() -> bool:
        return False

    health = ReadinessHealth(llm=down, memory=None, channels=lambda: {"cron": True})
    states = {(c.name, c.state, c.good) for c in await health.components()}
    assert states == {
        ("model server", "unreachable", False),
        ("long-term memory (Milvus)", "off", False),
        ("cron", "serving", True),
        ("http", "serving", True),
    }


@pytest.mark.anyio
async def test_agent_tasks_list_every_tenants_tasks_and_are_not_run_early(tmp_path: Path) -> None:
    """Agent tasks show with their tenant and next instant; the console cannot run them."""
    path = tmp_path / "ticks.db"
    async with TickLog.open(path) as log:
        store = TaskStore(log)
        for tenant, when in (("acme", parse_when(in_="1h", min_interval=60)),
                             ("globex", parse_when(every="2h", min_interval=60))):  # fmt: skip
            with scopes.use(scopes.Scope(tenant=tenant)):
                await store.add("stretch", when, Origin("telegram", "5"), name="s")
        source = AgentTasks(store)
        listed = {s.tenant: s for s in await source.scheduled()}
        assert set(listed) == {"acme", "globex"}
        soon = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
        fire = listed["acme"].next_fire
        assert fire is not None and abs((fire - soon).total_seconds()) < 60
        assert listed["acme"].kind == "agent task: s" and not listed["acme"].runnable
        await log.record(listed["acme"].name, ["2026-01-01T00:00:00Z"], "missed", "down")
        [tick] = await source.runs(job=listed["acme"].name)
        assert tick.status == "missed"
        with pytest.raises(KeyError):
            await source.run_now(listed["acme"].name)


@pytest.mark.anyio
async def test_mcp_health_reports_each_server() -> None:
    servers = [
        ServerInfo("files", "stdio", "up", ("files__read",), 0, None),
        ServerInfo("cal", "http", "down", (), 3, "connection refused"),
    ]
    found = {c.name: c for c in await McpHealth(lambda: servers).components()}
    assert found["files"].good and "1 tools" in found["files"].detail
    assert not found["cal"].good and found["cal"].state == "down"
    assert "connection refused" in found["cal"].detail and "3 reconnects" in found["cal"].detail
