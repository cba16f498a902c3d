"""The usage table (SQLite and PostgreSQL): per tenant and UTC day, scoped like every store, kept
across reopening."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, closing
from pathlib import Path

import pytest

from agentd import scope as scopes
from agentd.errors import HistoryError, ScopeMissing
from agentd.memory.history import SQLiteHistory
from agentd.memory.pg_history import PgHistory
from agentd.memory.stores import usage_of
from agentd.memory.usage import DayUsage, SQLiteUsage, UsageCounts, utc_day

pytestmark = pytest.mark.anyio
Opener = Callable[[], AbstractAsyncContextManager[SQLiteHistory | PgHistory]]

ALICE = scopes.Scope(tenant="alice")
BOB = scopes.Scope(tenant="bob")


@pytest.fixture(params=["sqlite", "postgres"])
def open_history(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    """Opens the history (and so the usage table) of one SQLite file or PostgreSQL database."""
    if request.param == "sqlite":
        return lambda: SQLiteHistory.open(tmp_path / "h.db")
    url = str(request.getfixturevalue("pg_url"))
    return lambda: PgHistory.open(url)


def test_utc_day_is_the_utc_date() -> None:
    """Days are UTC dates, whatever the local zone: one second before midnight is the old day."""
    assert utc_day(1_767_225_599) == "2025-12-31"
    assert utc_day(1_767_225_600) == "2026-01-01"


async def test_counts_add_up_per_tenant_and_day(open_history: Opener) -> None:
    """Adds to one tenant and day sum; another tenant or day is its own row."""
    async with open_history() as history:
        usage = usage_of(history)
        with scopes.use(ALICE):
            await usage.add("2026-01-01", UsageCounts(1, 10, 2, 1))
            await usage.add("2026-01-01", UsageCounts(1, 5, 3, 0))
            await usage.add("2026-01-02", UsageCounts(1, 7, 1, 0))
            assert await usage.tokens_on("2026-01-01") == 20
            assert await usage.tokens_on("2026-01-03") == 0
        with scopes.use(BOB):
            assert await usage.tokens_on("2026-01-01") == 0
            await usage.add("2026-01-01", UsageCounts(1, 1, 1, 4))
        assert await usage.report(since="2026-01-01") == [
            DayUsage("alice", "2026-01-01", UsageCounts(2, 15, 5, 1)),
            DayUsage("alice", "2026-01-02", UsageCounts(1, 7, 1, 0)),
            DayUsage("bob", "2026-01-01", UsageCounts(1, 1, 1, 4)),
        ]
        assert await usage.report(since="2026-01-02") == [
            DayUsage("alice", "2026-01-02", UsageCounts(1, 7, 1, 0))
        ]
        assert [r.tenant for r in await usage.report(since="2026-01-01", tenant="bob")] == ["bob"]


async def test_counts_survive_reopening_the_file(open_history: Opener) -> None:
    """A day's tokens are read back after the store (the daemon) is closed and opened again."""
    async with open_history() as history:
        with scopes.use(ALICE):
            await usage_of(history).add("2026-01-01", UsageCounts(1, 100, 20, 0))
    async with open_history() as history:
        with scopes.use(ALICE):
            assert await usage_of(history).tokens_on("2026-01-01") == 120


async def test_no_scope_no_access(open_history: Opener) -> None:
    """Adding or reading a tenant's count without a scope fails closed."""
    async with open_history() as history:
        usage = usage_of(history)
        with pytest.raises(ScopeMissing):
            await usage.add("2026-01-01", UsageCounts(1))
        with pytest.raises(ScopeMissing):
            await usage.tokens_on("2026-01-01")


async def test_tenants_are_those_with_messages_or_usage(open_history: Opener) -> None:
    """tenants() lists every tenant with stored messages or usage rows, once, sorted."""
    from agentd.messages import user

    async with open_history() as history:
        usage = usage_of(history)
        with scopes.use(BOB):
            await history.save_conversation("s", [user("hi")])
            await usage.add("2026-01-01", UsageCounts(1))
        with scopes.use(ALICE):
            await usage.add("2026-01-01", UsageCounts(1))
        assert await usage.tenants() == ["alice", "bob"]


async def test_a_version_3_file_gets_the_usage_table(tmp_path: Path) -> None:
    """A file from before usage counting is migrated; its messages stay."""
    from agentd.memory.history import MIGRATIONS, SCHEMA_VERSION
    from agentd.messages import user

    path = tmp_path / "h.db"
    with closing(sqlite3.connect(path)) as db:
        for statement in (*MIGRATIONS[0], *MIGRATIONS[1], *MIGRATIONS[2]):
            db.execute(statement)
        db.execute("PRAGMA user_version = 3")
        db.execute(
            "INSERT INTO messages (tenant, agent_id, session_id, body, created) "
            "VALUES ('alice', 'agentd', 's', ?, 0)",
            (user("old").to_stored(),),
        )
        db.commit()
    async with SQLiteHistory.open(path) as history:
        with scopes.use(ALICE):
            await SQLiteUsage(history).add("2026-01-01", UsageCounts(1, 3, 4, 0))
            assert await SQLiteUsage(history).tokens_on("2026-01-01") == 7
            assert [m.content for m in await history.resume("s")] == ["old"]
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


async def test_a_failing_store_is_a_history_error(open_history: Opener) -> None:
    """Usage counters whose database fails raise HistoryError on both engines: the quota
    counter logs that and goes on, and ``agentd tenants`` prints it (a driver's own error, as
    PostgreSQL's were, escaped both and failed the turn)."""
    async with open_history() as history:
        usage = usage_of(history)
        await history.aclose()
        with scopes.use(ALICE):
            with pytest.raises(HistoryError):
                await usage.add("2026-01-01", UsageCounts(1, 1, 1, 0))
            with pytest.raises(HistoryError):
                await usage.tokens_on("2026-01-01")
        with pytest.raises(HistoryError):
            await usage.report(since="2026-01-01")
        with pytest.raises(HistoryError):
            await usage.tenants()
