"""What PostgreSQL adds for replicas: migrations once, session versions and locks, no password
in errors or logs."""

from __future__ import annotations

import itertools
from typing import Any

import anyio
import asyncpg
import pytest
from structlog.testing import capture_logs

from agentd import scope as scopes
from agentd.cron.ticklog import TickLog
from agentd.errors import HistoryError
from agentd.memory.pg_history import SCHEMA_VERSION, PgHistory
from agentd.memory.pg_usage import PgUsage
from agentd.memory.usage import UsageCounts
from agentd.messages import user
from agentd.store.pg import MIGRATION_LOCK, redacted
from tests.support.postgres import PASSWORD

pytestmark = pytest.mark.anyio

ALICE = scopes.Scope(tenant="alice")


async def test_schema_is_versioned_and_migrated_once(pg_url: str) -> None:
    """Two stores opening one database together migrate it once; a newer schema is refused."""
    async with PgHistory.open(pg_url) as a, PgHistory.open(pg_url) as b:
        with scopes.use(ALICE):
            await a.save_conversation("s", [user("kept")])
            assert [m.content for m in await b.load_conversation("s")] == ["kept"]
        version = await a.pool.fetchval("SELECT version FROM schema_versions WHERE part='history'")
        assert version == SCHEMA_VERSION
        await a.pool.execute("UPDATE schema_versions SET version = 99 WHERE part = 'history'")
    with pytest.raises(HistoryError, match="newer than this agentd knows"):
        async with PgHistory.open(pg_url):
            pass


async def test_a_wrong_password_is_an_error_without_it(pg_url: str) -> None:
    """A refused login names the database with its password masked, in the error and the log."""
    bad = pg_url.replace(PASSWORD, "not-the-" + PASSWORD)
    with capture_logs() as logs, pytest.raises(HistoryError) as caught:
        async with PgHistory.open(bad):
            pass
    assert "not-the-" not in str(caught.value) and PASSWORD not in str(caught.value)
    assert ":***@127.0.0.1" in str(caught.value)
    assert PASSWORD not in repr(logs)


async def test_session_version_changes_with_every_write(pg_url: str) -> None:
    """Messages, boundaries and a clear all change the version another daemon compares."""
    async with PgHistory.open(pg_url) as store:
        with scopes.use(ALICE):
            seen = [await store.session_version("s")]
            await store.save_conversation("s", [user("a")])
            seen.append(await store.session_version("s"))
            await store.save_window("s", 1)
            seen.append(await store.session_version("s"))
            await store.clear_conversation("s")
            seen.append(await store.session_version("s"))
            await store.save_conversation("s", [user("b")])
            seen.append(await store.session_version("s"))
    # Each write moves it; a clear goes back to the empty session's (0, 0), which an empty
    # copy in memory matches, and the ids of new rows are never reused.
    assert all(x != y for x, y in itertools.pairwise(seen))
    assert seen[3] == (0, 0) and seen[4] not in seen[:4]


async def test_a_session_lock_serialises_and_dies_with_its_connection(pg_url: str) -> None:
    """A second holder waits for the first; a holder whose connection dies frees the lock."""
    key = ("alice", "agentd", "s")
    async with PgHistory.open(pg_url) as a, PgHistory.open(pg_url) as b:
        order: list[str] = []

        async def hold(store: PgHistory, name: str) -> None:
            async with store.session_lock(key):
                order.append(f"{name}+")
                await anyio.sleep(0.2)
                order.append(f"{name}-")

        async with anyio.create_task_group() as tg:
            tg.start_soon(hold, a, "a")
            await anyio.sleep(0.05)
            tg.start_soon(hold, b, "b")
        assert order == ["a+", "a-", "b+", "b-"]

        # A crashed daemon: its backend is terminated while it holds the lock.
        async with a.session_lock(key):
            pid = await a.pool.fetchval(
                "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
            )
            admin = await asyncpg.connect(pg_url)
            try:
                assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
            finally:
                await admin.close()
            with anyio.fail_after(5):
                async with b.session_lock(key):
                    pass


async def test_usage_adds_up_across_stores(pg_url: str) -> None:
    """Two daemons' usage counters add to one row per tenant and day."""
    async with PgHistory.open(pg_url) as a, PgHistory.open(pg_url) as b:
        with scopes.use(ALICE):
            await PgUsage(a).add("2026-01-01", UsageCounts(1, 10, 2, 1))
            await PgUsage(b).add("2026-01-01", UsageCounts(1, 5, 3, 0))
            assert await PgUsage(a).tokens_on("2026-01-01") == 20
        report = await PgUsage(b).report(since="2026-01-01")
        assert [(r.tenant, r.counts) for r in report] == [("alice", UsageCounts(2, 15, 5, 1))]
        assert await PgUsage(a).tenants() == ["alice"]


async def test_a_password_in_the_query_string_is_masked(pg_url: str) -> None:
    """libpq and asyncpg take ``?password=`` too: it is masked like userinfo's, in the opened
    log line and in an error."""
    assert redacted("postgresql://u@h/db?sslmode=require&password=pw1&x=1") == (
        "postgresql://***@h/db?sslmode=require&password=***&x=1"
    )
    assert redacted("postgres://h/db?PassWord=pw1") == "postgres://h/db?PassWord=***"
    bare = pg_url.replace(f":{PASSWORD}@", "@")
    with capture_logs() as logs:
        async with PgHistory.open(f"{bare}?password={PASSWORD}"):
            pass
    assert logs and PASSWORD not in repr(logs)
    with capture_logs() as logs, pytest.raises(HistoryError) as caught:
        async with PgHistory.open(f"{bare}?password=not-the-{PASSWORD}"):
            pass
    assert PASSWORD not in str(caught.value) and PASSWORD not in repr(logs)


async def test_an_up_to_date_database_opens_without_the_migration_lock(pg_url: str) -> None:
    """Opening a database already at this schema reads its version and goes on: it neither
    waits for another daemon's migration lock nor runs DDL (every CLI command opens the store)."""
    async with PgHistory.open(pg_url), TickLog.connect(pg_url):
        pass
    admin = await asyncpg.connect(pg_url)
    try:
        await admin.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
        with anyio.fail_after(5):
            async with PgHistory.open(pg_url) as store, TickLog.connect(pg_url):
                with scopes.use(ALICE):
                    assert await store.load_conversation("nobody") == []
    finally:
        await admin.close()


async def test_resume_and_find_request_read_one_snapshot(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A resume (boundary, then messages) and a request lookup (its message, then the rows
    after it) are read in one snapshot, as SQLite's one read transaction does: another daemon's
    clear between the two reads gives neither a cleared session's summary without its messages
    nor a lookup that found the request and then lost it."""
    admin = await asyncpg.connect(pg_url)
    connection = asyncpg.connection.Connection
    fetch = connection.fetch

    async def clear_after_first_read(self: Any, query: str, *args: Any, **kw: Any) -> Any:
        found = await fetch(self, query, *args, **kw)
        if query.startswith(("SELECT id, body, tail_from", "SELECT id FROM messages")):
            await admin.execute("DELETE FROM messages WHERE session_id = 'snap'")
            await admin.execute("DELETE FROM summaries WHERE session_id = 'snap'")
        return found

    try:
        async with PgHistory.open(pg_url) as store:
            with scopes.use(ALICE):
                for mode in ("resume", "find_request"):
                    await store.save_conversation("snap", [user("q")], request_key="k")
                    await store.save_conversation("snap", [user("a"), user("b")])
                    await store.save_summary("sum", session_id="snap", tail=[user("b")])
                    with monkeypatch.context() as patch:
                        patch.setattr(
                            asyncpg.connection.Connection, "fetch", clear_after_first_read
                        )
                        if mode == "resume":
                            got = [m.content for m in await store.resume("snap")]
                            assert got == ["sum", "b"]
                        else:
                            request = await store.find_request("snap", "k")
                            assert request is not None and request.message.content == "q"
    finally:
        await admin.close()
