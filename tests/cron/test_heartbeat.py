"""Heartbeat ticks in process: delivery rules, sessions, prompts, schedules, active hours."""

from __future__ import annotations

import datetime as dt
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from agentd.config import AgentDefaults, CronJob
from agentd.cron.heartbeat import Heartbeat, run_id
from agentd.cron.schedule import fire_times, in_active_hours, make_trigger
from agentd.cron.ticklog import TickLog, iso
from tests.support.runtime import stub_runtime
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio
WHEN = "2026-01-05T10:00:00Z"


class Sink:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    async def __call__(self, target: str, text: str) -> None:
        self.sent.append((target, text))


async def _tick(stub: StubLLM, tmp_path: Path, job: CronJob, sink: Sink) -> tuple[str | None, list]:
    async with stub_runtime(stub.url) as runtime, TickLog.open(tmp_path / "t.db") as log:
        beat = Heartbeat(runtime, log, workdir=tmp_path, deliver=sink)
        status = await beat.tick(job, WHEN)
        return status, await log.list()


async def test_heartbeat_ok_is_recorded_not_delivered(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A reply of exactly HEARTBEAT_OK is an ok tick that is not delivered."""
    stub_llm.add(Reply(text="HEARTBEAT_OK"))
    sink = Sink()
    job = CronJob(name="b", schedule="1h", prompt="check", deliver_to="telegram:42")
    status, rows = await _tick(stub_llm, tmp_path, job, sink)
    assert status == "ok"
    assert sink.sent == []
    assert (rows[0].status, rows[0].output, rows[0].delivered) == ("ok", "HEARTBEAT_OK", False)


async def test_other_replies_are_delivered(stub_llm: StubLLM, tmp_path: Path) -> None:
    """Any other reply goes to deliver_to and the row says it was sent."""
    stub_llm.add(Reply(text="Your backup failed."))
    sink = Sink()
    job = CronJob(name="b", schedule="1h", prompt="check", deliver_to="telegram:42")
    status, rows = await _tick(stub_llm, tmp_path, job, sink)
    assert status == "ok"
    assert sink.sent == [("telegram:42", "Your backup failed.")]
    assert rows[0].delivered


async def test_failed_delivery_is_an_error_tick(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A delivery that raises makes the tick an error with the reason."""

    async def broken(target: str, text: str) -> None:
        raise RuntimeError("telegram is down")

    job = CronJob(name="b", schedule="1h", prompt="check", deliver_to="telegram:42")
    async with stub_runtime(stub_llm.url) as runtime, TickLog.open(tmp_path / "t.db") as log:
        status = await Heartbeat(runtime, log, workdir=tmp_path, deliver=broken).tick(job, WHEN)
        rows = await log.list()
    assert status == "error"
    assert "telegram is down" in (rows[0].error or "")


async def test_prompt_file_defaults_to_heartbeat_md(stub_llm: StubLLM, tmp_path: Path) -> None:
    """Without prompt or prompt_file the tick sends workdir/HEARTBEAT.md."""
    (tmp_path / "HEARTBEAT.md").write_text("Look at the todo list.")
    job = CronJob(name="b", schedule="1h")
    status, _ = await _tick(stub_llm, tmp_path, job, Sink())
    assert status == "ok"
    assert stub_llm.requests[0]["messages"][-1]["content"] == "Look at the todo list."


async def test_missing_prompt_file_is_an_error(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A missing HEARTBEAT.md is recorded as an error tick, not a crash."""
    status, rows = await _tick(stub_llm, tmp_path, CronJob(name="b", schedule="1h"), Sink())
    assert status == "error"
    assert "HEARTBEAT.md" in (rows[0].error or "")


@pytest.mark.parametrize(
    ("break_it", "needle"),
    [
        pytest.param(lambda p: p.mkdir(), "is a directory", id="directory"),
        pytest.param(lambda p: p.write_bytes(b"check \xff"), "not UTF-8", id="not-utf8"),
        pytest.param(
            lambda p: p.symlink_to(p.parents[1] / "outside.md"), "symlink", id="symlink-out"
        ),
    ],
)
async def test_unreadable_prompt_file_is_an_error_tick(
    stub_llm: StubLLM, tmp_path: Path, break_it: Callable[[Path], None], needle: str
) -> None:
    """A HEARTBEAT.md that cannot be read (or is a symlink) is an error tick with no model call."""
    workdir = tmp_path / "workdir"
    workdir.mkdir()
    (tmp_path / "outside.md").write_text("injected")
    break_it(workdir / "HEARTBEAT.md")
    async with stub_runtime(stub_llm.url) as runtime, TickLog.open(tmp_path / "t.db") as log:
        beat = Heartbeat(runtime, log, workdir=workdir)
        status = await beat.tick(CronJob(name="b", schedule="1h"), WHEN)
        rows = await log.list()
    assert status == "error"
    assert "HEARTBEAT.md" in (rows[0].error or "") and needle in (rows[0].error or ""), rows
    assert stub_llm.requests == []


async def test_prompt_file_outside_the_workdir_is_the_operators(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """An absolute prompt_file outside the workdir is read as configured (symlinks allowed)."""
    (tmp_path / "real.md").write_text("Look outside.")
    (tmp_path / "beat.md").symlink_to(tmp_path / "real.md")
    workdir = tmp_path / "workdir"
    workdir.mkdir()
    stub_llm.add(Reply(text="HEARTBEAT_OK"))
    job = CronJob(name="b", schedule="1h", prompt_file=tmp_path / "beat.md")
    async with stub_runtime(stub_llm.url) as runtime, TickLog.open(tmp_path / "t.db") as log:
        assert await Heartbeat(runtime, log, workdir=workdir).tick(job, WHEN) == "ok"
    assert stub_llm.requests[0]["messages"][-1]["content"] == "Look outside."


async def test_claimed_tick_is_not_run_twice(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A second tick() of the same job and time returns None and calls no model."""
    job = CronJob(name="b", schedule="1h", prompt="check")
    async with stub_runtime(stub_llm.url) as runtime, TickLog.open(tmp_path / "t.db") as log:
        beat = Heartbeat(runtime, log, workdir=tmp_path)
        assert await beat.tick(job, WHEN) == "ok"
        assert await beat.tick(job, WHEN) is None
    assert len(stub_llm.requests) == 1


@pytest.mark.parametrize(
    ("mode", "expected_max"),
    [pytest.param("fresh", 3, id="fresh"), pytest.param("window", 6, id="window")],
)
async def test_heartbeat_sessions_stay_bounded(
    stub_llm: StubLLM, tmp_path: Path, mode: str, expected_max: int
) -> None:
    """Token use per tick does not grow: the request size stays bounded over many ticks."""
    job = CronJob(name="b", schedule="1h", prompt="check", session_mode=mode, window=4)
    async with stub_runtime(stub_llm.url) as runtime, TickLog.open(tmp_path / "t.db") as log:
        beat = Heartbeat(runtime, log, workdir=tmp_path)
        start = dt.datetime(2026, 1, 5, tzinfo=dt.UTC)
        for hour in range(12):
            await beat.tick(job, iso(start + dt.timedelta(hours=hour)))
        sizes = [len(r["messages"]) for r in stub_llm.requests]
        if mode == "fresh":
            assert len(runtime.sessions) == 0
    assert max(sizes) <= expected_max
    assert sizes[-1] == sizes[-2]


def test_interval_triggers_align_to_the_epoch() -> None:
    """Two daemons compute the same fire instants for an interval job."""
    job = CronJob(name="b", schedule="15m")
    a = make_trigger(job).get_next_fire_time(None, dt.datetime(2026, 1, 5, 10, 7, tzinfo=dt.UTC))
    b = make_trigger(job).get_next_fire_time(None, dt.datetime(2026, 1, 5, 10, 3, tzinfo=dt.UTC))
    assert a == b == dt.datetime(2026, 1, 5, 10, 15, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    "schedule",
    [
        pytest.param("*/5 * * * *", id="5-field"),
        pytest.param("0 */5 * * * *", id="6-field"),
        pytest.param("every 5m", id="every"),
    ],
)
def test_schedules_fire_every_five_minutes(schedule: str) -> None:
    """Cron lines (5 or 6 fields) and intervals give the expected fire times."""
    job = CronJob(name="b", schedule=schedule, timezone="UTC")
    start = dt.datetime(2026, 1, 5, 10, 0, tzinfo=dt.UTC)
    times = fire_times(make_trigger(job), start, start + dt.timedelta(minutes=20))
    assert [t.minute for t in times] == [5, 10, 15, 20]


@pytest.mark.parametrize(
    ("hours", "hour", "inside"),
    [
        pytest.param("08:00-22:00", 12, True, id="day-inside"),
        pytest.param("08:00-22:00", 23, False, id="day-outside"),
        pytest.param("22:00-06:00", 2, True, id="night-wraps"),
        pytest.param("22:00-06:00", 12, False, id="night-outside"),
    ],
)
def test_active_hours(hours: str, hour: int, inside: bool) -> None:
    """active_hours is a local-time window, which may wrap past midnight."""
    job = CronJob(name="b", schedule="1h", active_hours=hours, timezone="Europe/Berlin")
    when = dt.datetime(2026, 1, 5, hour, 30, tzinfo=dt.UTC) - dt.timedelta(hours=1)
    assert in_active_hours(job, when) is inside


async def test_outside_active_hours_is_skipped(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A tick outside active_hours is recorded as skipped and calls no model."""
    job = CronJob(name="b", schedule="1h", prompt="x", active_hours="00:00-01:00", timezone="UTC")
    status, rows = await _tick(stub_llm, tmp_path, job, Sink())
    assert status == "skipped"
    assert rows[0].error == "outside active_hours"
    assert stub_llm.requests == []


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param({"schedule": "every blue moon"}, id="schedule"),
        pytest.param({"schedule": "1h", "timezone": "Mars/Base"}, id="timezone"),
        pytest.param({"schedule": "1h", "active_hours": "9-5"}, id="hours"),
    ],
)
def test_bad_jobs_are_rejected(bad: dict[str, str]) -> None:
    """Invalid schedules, zones and hours fail validation with a reason."""
    with pytest.raises(ValueError):
        CronJob(name="b", **bad)


async def test_fresh_heartbeat_sessions_leave_no_stored_history(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """Fresh-mode ticks are forgotten after they ran: history.db does not grow per tick."""
    from agentd import scope as scopes
    from agentd.config import Settings
    from agentd.daemon.app import open_app

    settings = Settings(
        workdir=tmp_path, state_dir=tmp_path / "state", llm={"base_url": stub_llm.url},
        memory={"embed": False},
    )  # fmt: skip
    job = CronJob(name="b", schedule="1h", prompt="check")
    async with open_app(settings) as app, TickLog.open(tmp_path / "t.db") as log:
        beat = Heartbeat(app.runtime, log, workdir=tmp_path)
        assert await beat.tick(job, WHEN) == "ok"
        assert app.history is not None
        with scopes.use(app.runtime.default_scope):
            assert await app.history.list_sessions() == []
        assert len(app.runtime.sessions) == 0
    assert len(stub_llm.requests) == 1


async def test_killed_tick_is_delivered_once_at_the_next_start(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A daemon killed after the answer but before its delivery: the next start delivers it
    from the tick's progress in working memory, once, and the tick ends ok."""
    import sqlite3

    import anyio

    from agentd.engine.loop import AgentLoop
    from agentd.engine.policy import SessionPolicy
    from agentd.engine.runtime import Runtime
    from agentd.memory.history import SQLiteHistory
    from agentd.tools.registry import ToolRegistry
    from channels.cron import CronChannel
    from tests.support.fake_model import FakeModel

    job = CronJob(name="b", schedule="1h", prompt="check", deliver_to="telegram:7", catch_up="skip")
    sink = Sink()
    async with (
        SQLiteHistory.open(tmp_path / "h.db") as history,
        Runtime(
            AgentLoop(FakeModel(), ToolRegistry()),
            system_prompt="SYS",
            defaults=AgentDefaults(),
            sessions=SessionPolicy(history=history),
        ) as runtime,
    ):
        # What the killed process left: a running row and the answer it had.
        async with TickLog.open(tmp_path / "t.db") as log:
            assert await log.claim("b", WHEN)
        with sqlite3.connect(tmp_path / "t.db") as db:
            db.execute("UPDATE cron_ticks SET owner = ?", (f"{socket.gethostname()}:1:0",))
        await runtime.save_progress(run_id(job, WHEN), {"answer": "the roof leaks"})

        channel = CronChannel([job], ticks_path=tmp_path / "t.db", workdir=tmp_path, deliver=sink)
        async with channel, anyio.create_task_group() as tg:
            await tg.start(channel.serve, runtime)
            with anyio.fail_after(10):
                while await runtime.load_progress(run_id(job, WHEN)) is not None:  # noqa: ASYNC110
                    await anyio.sleep(0.01)  # the channel recovers it in its own task
            tg.cancel_scope.cancel()
    assert sink.sent == [("telegram:7", "the roof leaks")]
    async with TickLog.open(tmp_path / "t.db") as log:
        (tick,) = [t for t in await log.list(status="ok") if t.scheduled_for == WHEN]
    assert (tick.status, tick.delivered, tick.output) == ("ok", True, "the roof leaks")


async def test_a_tick_over_its_tenants_quota_is_an_error_tick(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A heartbeat refused by its tenant's quota is recorded as an error naming the limit; the
    model is not called and nothing is delivered."""
    from agentd.config import Settings
    from agentd.engine.quotas import Quotas
    from agentd.memory.usage import UsageCounts

    class SpentToday:
        async def add(self, day: str, counts: UsageCounts) -> None:
            pass

        async def tokens_on(self, day: str) -> int:
            return 500

    limits = Settings(default={"tenant_limits": {"tokens_per_day": 500}})  # type: ignore[arg-type]
    sink = Sink()
    job = CronJob(name="b", schedule="1h", prompt="check", deliver_to="telegram:42")
    async with (
        stub_runtime(stub_llm.url, quotas=Quotas(limits.limits_for, SpentToday())) as runtime,
        TickLog.open(tmp_path / "t.db") as log,
    ):
        status = await Heartbeat(runtime, log, workdir=tmp_path, deliver=sink).tick(job, WHEN)
        rows = await log.list()
    assert status == "error"
    assert (rows[0].error or "").startswith("QuotaExceeded: tenant 'default' has used its 500")
    assert stub_llm.requests == []
    assert sink.sent == []
