"""The tick log, on SQLite and on PostgreSQL: claims, missed rows, interrupted ticks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agentd.cron.ticklog import TickLog, owner_alive, owner_id

pytestmark = pytest.mark.anyio
T1, T2 = "2026-01-05T10:00:00Z", "2026-01-05T11:00:00Z"


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a tick log lives: a SQLite file, or a database of the session's PostgreSQL."""
    if request.param == "sqlite":
        return tmp_path / "t.db"
    return str(request.getfixturevalue("pg_url"))


async def test_a_tick_is_claimed_once_across_connections(target: Path | str) -> None:
    """Two tick logs on one file: only the first insert of (job, time) wins."""
    async with TickLog.connect(target) as a, TickLog.connect(target) as b:
        assert await a.claim("j", T1)
        assert not await b.claim("j", T1)
        assert await b.claim("j", T2)
        assert await a.last_scheduled("j") == T2


async def test_missed_rows_are_claimed_once(target: Path | str) -> None:
    """record() inserts missed rows once; claim_missed turns one into a catch-up run once."""
    async with TickLog.connect(target) as a, TickLog.connect(target) as b:
        assert await a.record("j", [T1, T2], "missed") == 2
        assert await b.record("j", [T1, T2], "missed") == 0
        assert await a.claim_missed("j", T2)
        assert not await b.claim_missed("j", T2)
        await a.finish("j", T2, "ok", output="fine")
        rows = await a.list(job="j")
    assert [(r.scheduled_for, r.status, r.kind) for r in rows] == [
        (T2, "ok", "catch_up"),
        (T1, "missed", "scheduled"),
    ]


async def test_running_rows_of_dead_processes_are_interrupted(target: Path | str) -> None:
    """A running row owned by a dead process becomes error 'interrupted'; a live one stays."""
    dead = subprocess.run(  # noqa: ASYNC221 - a short-lived child whose pid is then dead
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    async with TickLog.connect(target) as log:
        await log.claim("j", T1)
        log.owner = owner_id(int(dead.stdout))
        await log.claim("j", T2)
        assert len(await log.mark_interrupted()) == 1
        rows = {r.scheduled_for: r for r in await log.list()}
    assert rows[T2].status == "error" and rows[T2].error == "interrupted"
    assert rows[T1].status == "running"


def test_owner_liveness() -> None:
    """This process is alive; a garbled owner is not."""
    assert owner_alive(owner_id())
    assert not owner_alive("nonsense")


async def test_list_filters(target: Path | str) -> None:
    """list() filters by job and status and honours the limit."""
    async with TickLog.connect(target) as log:
        await log.record("a", [T1, T2], "missed")
        await log.record("b", [T1], "skipped", "outside active_hours")
        assert len(await log.list(job="a")) == 2
        assert [r.job for r in await log.list(status="skipped")] == ["b"]
        assert len(await log.list(limit=1)) == 1
