"""Agent tasks: parsing when a task runs, the tenant-scoped store, the tools' error results."""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
from pathlib import Path

import pytest

from agentd import origin as origins
from agentd import scope as scopes
from agentd.cron.tasks import TaskRefused, TaskStore, parse_duration, parse_when
from agentd.cron.ticklog import SCHEMA_VERSION, TickLog
from agentd.errors import ScopeMissing, StoredRowError
from agentd.messages import ToolCall
from agentd.origin import Origin
from agentd.tools.registry import ToolRegistry
from agentd.tools.tasks import register_task_tools

pytestmark = pytest.mark.anyio

NOW = dt.datetime(2026, 5, 1, 6, 0, 0, 250000, tzinfo=dt.UTC)
A = scopes.Scope(tenant="alice")
B = scopes.Scope(tenant="bob")


class Limits:
    min_interval = 60.0
    max_per_tenant = 3


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        pytest.param("10s", 10, id="seconds"),
        pytest.param("2h30m", 9000, id="compound"),
        pytest.param("2h0m", 7200, id="whole-hours-with-minutes"),
        pytest.param("1h05m", 3900, id="minutes-with-a-zero"),
        pytest.param("1 day", 86400, id="words"),
        pytest.param("90 minutes", 5400, id="minutes"),
        pytest.param("2.5h", 9000, id="fraction"),
        pytest.param("0.5 hours", 1800, id="half-an-hour"),
        pytest.param("1,5h", 5400, id="decimal-comma"),
        pytest.param("0.1h", 360, id="exact-fraction"),
        pytest.param("1.25 s", 2, id="fraction-of-a-second-rounded-up"),
    ],
)
def test_durations(text: str, seconds: int) -> None:
    """Delays and intervals are read in the forms a model writes them."""
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["99999999999999999999h", "9999999999.5h", "36501d"])
def test_a_delay_past_a_hundred_years_is_refused(text: str) -> None:
    """A number the model made up too large is an error it can read, not an overflow."""
    with pytest.raises(TaskRefused, match="too long"):
        parse_when(in_=text, min_interval=60, now=NOW)
    with pytest.raises(TaskRefused, match="too long"):
        parse_when(every=text, min_interval=60, now=NOW)


def test_in_rounds_up_to_a_whole_second() -> None:
    """A delay is stored as the instant, never earlier than asked (ticks are whole seconds)."""
    when = parse_when(in_="2s", min_interval=60, now=NOW)
    assert (when.kind, when.spec) == ("at", "2026-05-01T06:00:03Z")


def test_at_with_a_timezone() -> None:
    """A naive ISO time is read in the given timezone and stored in UTC."""
    when = parse_when(at="2026-05-01T09:00:00", timezone="Europe/Berlin", min_interval=60, now=NOW)
    assert when.spec == "2026-05-01T07:00:00Z"


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        pytest.param({"at": "2026-05-01T05:00:00Z"}, "in the past", id="past"),
        pytest.param({"at": "tomorrow at 7"}, "ISO date-time", id="unreadable-time"),
        pytest.param({"in_": "soon"}, "cannot read the duration", id="unreadable-delay"),
        pytest.param({"cron": "0 9 * * MON", "timezone": "Mars/Base"}, "unknown timezone", id="tz"),
        pytest.param({"every": "10s"}, "shortest interval allowed is 60s", id="every-too-short"),
        pytest.param({"cron": "* * * * * *"}, "shortest interval allowed", id="cron-too-short"),
        pytest.param({"cron": "61 * * * *"}, "cannot read the cron line", id="bad-cron"),
        pytest.param({"at": "2026-05-01T07:00:00Z", "in_": "2h"}, "exactly one", id="two"),
        pytest.param({}, "exactly one", id="none"),
    ],
)
def test_refused_schedules(kwargs: dict[str, str], says: str) -> None:
    """Past times, unknown zones, short intervals and unreadable input say what is wrong."""
    with pytest.raises(TaskRefused, match=says):
        parse_when(min_interval=60, now=NOW, **kwargs)  # type: ignore[arg-type]


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where the tick log and tasks live: a SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "t.db"
    return str(request.getfixturevalue("pg_url"))


async def test_store_is_per_tenant(target: Path | str) -> None:
    """A tenant lists and cancels only its own tasks; another's id is an unknown id."""
    async with TickLog.connect(target) as ticklog:
        store = TaskStore(ticklog)
        when = parse_when(in_="1h", min_interval=60)
        with scopes.use(A):
            task = await store.add("call mum", when, Origin("telegram", "1"))
        with scopes.use(B):
            assert await store.of_tenant() == []
            assert await store.get(task.id) is None
            with pytest.raises(TaskRefused, match="no active task"):
                await store.cancel(task.id)
        with scopes.use(A):
            assert [t.id for t in await store.of_tenant()] == [task.id]
            assert (await store.cancel(task.id)).status == "cancelled"
        with pytest.raises(ScopeMissing):
            await store.of_tenant()


@pytest.mark.parametrize(
    ("column", "value"),
    [
        pytest.param("kind", "weekly", id="kind"),
        pytest.param("spec", "every tuesday-ish", id="schedule"),
        pytest.param("timezone", "Nowhere/City", id="zone"),
        pytest.param("prompt", b"\xff secret", id="blob-prompt"),
    ],
)
async def test_a_malformed_row_fails_the_read_without_its_content(
    tmp_path: Path, column: str, value: object
) -> None:
    """A malformed row fails the whole read; the error names the id, not the prompt."""
    path = tmp_path / "t.db"
    async with TickLog.open(path) as ticklog:
        store = TaskStore(ticklog)
        with scopes.use(A):
            when = parse_when(every="1h", min_interval=60)
            task = await store.add("secret plan", when, Origin("x"))
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute(f"UPDATE agent_tasks SET {column}=? WHERE id=?", (value, task.id))
    async with TickLog.open(path) as ticklog:
        with pytest.raises(StoredRowError) as caught:
            await TaskStore(ticklog).active()
    assert task.id in str(caught.value)
    assert "secret" not in str(caught.value)


@pytest.mark.parametrize(
    ("column", "value"),
    [
        pytest.param("spec", "every tuesday-ish", id="schedule"),
        pytest.param("timezone", "Nowhere/City", id="zone"),
    ],
)
async def test_a_malformed_row_fails_the_read_on_postgres(
    pg_url: str, column: str, value: object
) -> None:
    """On PostgreSQL too (its CHECKs refuse a bad kind or a blob, so only these can be stored)."""
    async with TickLog.connect(pg_url) as ticklog:
        store = TaskStore(ticklog)
        with scopes.use(A):
            task = await store.add(
                "secret plan", parse_when(every="1h", min_interval=60), Origin("x")
            )
        await ticklog.db.execute(f"UPDATE agent_tasks SET {column}=? WHERE id=?", (value, task.id))
        with pytest.raises(StoredRowError) as caught:
            await store.active()
    assert task.id in str(caught.value)
    assert "secret" not in str(caught.value)


async def test_an_unversioned_tick_log_is_migrated(tmp_path: Path) -> None:
    """A tick log from before versioning keeps its ticks and gains the tasks table."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE cron_ticks (id INTEGER PRIMARY KEY, job TEXT NOT NULL, scheduled_for"
            " TEXT NOT NULL, started_at TEXT, finished_at TEXT, status TEXT NOT NULL, error TEXT,"
            " output TEXT, kind TEXT NOT NULL DEFAULT 'scheduled', delivered INTEGER NOT NULL"
            " DEFAULT 0, owner TEXT, UNIQUE (job, scheduled_for))"
        )
        conn.execute(
            "INSERT INTO cron_ticks (job, scheduled_for, status)"
            " VALUES ('beat', '2026-01-01T00:00:00Z', 'ok')"
        )
    async with TickLog.open(path) as ticklog:
        assert [t.job for t in await ticklog.list()] == ["beat"]
        with scopes.use(A):
            assert await TaskStore(ticklog).of_tenant() == []
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version FROM schema_versions").fetchone() == (SCHEMA_VERSION,)
        assert conn.execute("PRAGMA user_version").fetchone() == (0,)


async def _call(registry: ToolRegistry, name: str, **args: object) -> tuple[str, bool]:
    outcome = await registry.call(ToolCall(id="c1", name=name, arguments=json.dumps(args)))
    return outcome.content, outcome.error


async def test_tools_answer_errors_and_keep_tenants_apart(target: Path | str) -> None:
    """Bad inputs and too many tasks are error results; tenants see only their own tasks."""
    async with TickLog.connect(target) as ticklog:
        registry = ToolRegistry()
        register_task_tools(registry, TaskStore(ticklog), Limits())
        schema = next(s for s in registry.schemas() if s["function"]["name"] == "schedule_task")
        assert "in" in schema["function"]["parameters"]["properties"]
        with scopes.use(A), origins.use(Origin.of_session("telegram", "telegram:7#2")):
            text, error = await _call(registry, "schedule_task", prompt="stretch", **{"in": "5m"})
            assert not error, text
            # When it runs and how far off (a wrong "in" shows), no word of cancelling (the
            # model told the user a task it had just made was cancelled).
            assert re.fullmatch(r"scheduled task t-\w+ \(runs once at \S+Z, 5m from now\)", text)
            task_id = text.split()[2]
            for args, says in [
                ({"at": "2001-01-01T00:00:00Z"}, "in the past"),
                ({"every": "5s"}, "shortest interval"),
                ({"cron": "0 9 * * *", "timezone": "Nowhere/City"}, "unknown timezone"),
            ]:
                text, error = await _call(registry, "schedule_task", prompt="x", **args)
                assert error and says in text, text
            # Two ways at once: the error shows each call that gives one (told only "give
            # exactly one", the model sent the same two again).
            two = {"at": "2026-12-02T13:00:00", "every": "2h", "timezone": "UTC"}
            text, error = await _call(registry, "schedule_task", prompt="Call the dentist", **two)
            assert error and "exactly one of at, in, every or cron, not at and every" in text
            assert text.endswith(
                '{"prompt": "Call the dentist", "at": "2026-12-02T13:00:00", "timezone": "UTC"}'
                ' or {"prompt": "Call the dentist", "every": "2h"}'
            ), text
            # A delay written where a time goes ("at": "14m") is that delay, said so.
            text, error = await _call(registry, "schedule_task", prompt="trash", at="2 hours")
            assert not error and "2h from now; at='2 hours' is a delay, read as in" in text, text
            await _call(registry, "cancel_task", id=text.split()[2])
            # A delay and a time: the delay counts (the model makes the time up), and the
            # answer says the time was left out.
            both = {"at": "2026-12-02T20:00:00+00:00", "in": "2h"}
            text, error = await _call(registry, "schedule_task", prompt="pay the rent", **both)
            assert not error, text
            assert re.fullmatch(
                r"scheduled task t-\w+ \(runs once at \S+Z, 2h from now; "
                r"at='2026-12-02T20:00:00\+00:00' was left out, in counts\)",
                text,
            ), text
            await _call(registry, "cancel_task", id=text.split()[2])
            text, error = await _call(registry, "schedule_task", prompt="x", every="1h")
            assert not error and text.endswith(" (runs every 3600s)"), text
            assert not (await _call(registry, "schedule_task", prompt="x", every="1h"))[1]
            text, error = await _call(registry, "schedule_task", prompt="x", every="1h")
            assert error and "3 active tasks" in text
            listed, _ = await _call(registry, "list_tasks")
            assert task_id in listed and "to telegram:7" in listed
        with scopes.use(B), origins.use(Origin("http", None, "s1")):
            assert (await _call(registry, "list_tasks"))[0] == "no open tasks"
            text, error = await _call(registry, "cancel_task", id=task_id)
            assert error and "no active task" in text
        with scopes.use(A):
            text, error = await _call(registry, "cancel_task", id=task_id)
            assert not error and task_id in text
            text, error = await _call(registry, "schedule_task", prompt="x", every="1h")
            assert error and "no session" in text


async def test_reaping_marks_only_task_runs_of_dead_processes(target: Path | str) -> None:
    """mark_interrupted(job_prefix='task:') leaves configured jobs' rows to their own daemon."""
    import socket

    dead = f"{socket.gethostname()}:999999999:1"
    async with TickLog.connect(target) as ticklog:
        await ticklog.db.executemany(
            "INSERT INTO cron_ticks (job, scheduled_for, status, owner)"
            " VALUES (?, '2026-01-01T00:00:00Z', 'running', ?)",
            [("task:t-1", dead), ("beat", dead), ("task_x", dead)],
        )
        assert await ticklog.mark_interrupted(job_prefix="task:") == [
            ("task:t-1", "2026-01-01T00:00:00Z")
        ]
        assert sorted(job for job, _ in await ticklog.mark_interrupted()) == ["beat", "task_x"]
