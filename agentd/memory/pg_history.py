"""The durable conversation store on PostgreSQL: one database for several daemons.

The same :class:`~agentd.memory.history.HistoryStore` as the SQLite store, with the same rules:
the scope (tenant and app) comes from :func:`agentd.scope.current` and is on every row and in
every filter; rows are decoded strictly (one malformed row fails the whole read, never echoing
content); a group of messages is stored in one transaction; a request key is unique per session
(a partial unique index, so two daemons racing with one Idempotency-Key store it once). The
schema is versioned in ``schema_versions`` (part ``history``).

For replicas it adds :meth:`PgHistory.session_version` (what a daemon compares before a turn to
know whether another daemon wrote the session) and :meth:`PgHistory.session_lock` (an advisory
lock that serialises a session's turns across daemons: PostgreSQL drops it with the connection
when a daemon dies, so a crash never leaves a session locked).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import structlog

from agentd import scope as scopes
from agentd.errors import HistoryError
from agentd.memory import rows as shared
from agentd.memory import schema
from agentd.memory.rows import SessionInfo, StoredRequest
from agentd.memory.rows import session_key as _key
from agentd.messages import Message
from agentd.store.pg import (
    IDENTITY,
    PgError,
    advisory_key,
    changed_rows,
    migrate,
    open_pool,
    redacted,
)

if TYPE_CHECKING:
    import asyncpg

log = structlog.get_logger("agentd.history")
T = TypeVar("T")

#: ``MIGRATIONS[i]`` moves the tables from schema version ``i`` to ``i + 1``. Append only.
#: One step holds what SQLite's four steps built (PostgreSQL support starts there).
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        f"""CREATE TABLE messages (
            id {IDENTITY},
            tenant TEXT NOT NULL,
            agent_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            body TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            request_key TEXT
        )""",
        schema.MESSAGES_BY_SESSION,
        schema.MESSAGES_BY_REQUEST_KEY,
        f"""CREATE TABLE summaries (
            id {IDENTITY},
            tenant TEXT NOT NULL,
            agent_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            body TEXT NOT NULL,
            tail_from BIGINT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            kind TEXT NOT NULL DEFAULT 'summary'
        )""",
        schema.SUMMARIES_BY_SESSION,
        schema.working_table("DOUBLE PRECISION"),
        schema.usage_table("BIGINT"),
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)
_WHERE = "tenant = $1 AND agent_id = $2 AND session_id = $3"
_ROWS = (
    f"SELECT id, body FROM messages WHERE {_WHERE} AND id >= $4 ORDER BY id DESC"
    " LIMIT $5"  # NULL: no limit
)


async def _session_rows(
    conn: asyncpg.Connection, key: tuple[str, str, str], *, after: int = 0, limit: int = 0
) -> list[shared.Row]:
    return _oldest_first(await conn.fetch(_ROWS, *key, after, limit if limit > 0 else None))


def _oldest_first(found: Sequence[Any]) -> list[shared.Row]:
    """Rows of :data:`_ROWS` (newest first) as (id, body), oldest first."""
    return [(int(r[0]), r[1]) for r in reversed(found)]


def _failed(exc: Exception) -> HistoryError:
    return HistoryError(f"history store: {type(exc).__name__}: {exc}")


@contextmanager
def _failures() -> Iterator[None]:
    """The driver's errors (of the server, the pool, the network) as HistoryError."""
    import asyncpg

    try:
        yield
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
        raise _failed(exc) from exc


class PgHistory:
    """:class:`~agentd.memory.history.HistoryStore` on PostgreSQL. Open it with :meth:`open`."""

    def __init__(self, pool: asyncpg.Pool, locks: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self._locks = locks
        self.where = redacted(url)

    @classmethod
    @asynccontextmanager
    async def open(
        cls, url: str, *, pool_size: int = 8, lock_pool_size: int = 32
    ) -> AsyncIterator[PgHistory]:
        """Open (migrating as needed) the store at ``url``; close its pools on exit.

        Session locks hold a connection each for a whole turn, so they have a pool of their
        own (``lock_pool_size``: sessions whose turns run or wait at once in this daemon):
        waiting turns never starve the reads and writes of running ones.
        """
        try:
            async with (
                open_pool(url, max_size=pool_size, what="history store") as pool,
                open_pool(url, min_size=0, max_size=lock_pool_size, what="session locks") as locks,
            ):
                await migrate(pool, "history", MIGRATIONS, hint="history.url")
                log.info("history.opened", url=redacted(url), schema=SCHEMA_VERSION)
                yield cls(pool, locks, url)
        except PgError as exc:
            raise HistoryError(str(exc)) from None

    async def aclose(self) -> None:
        """Close the pools (the context manager of :meth:`open` does it too)."""
        await self.pool.close()
        await self._locks.close()

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        """The rows of a query (``$n`` placeholders); a failure is HistoryError. Also for a
        store that shares the database (:mod:`agentd.memory.pg_usage`)."""
        with _failures():
            return list(await self.pool.fetch(sql, *args))

    async def execute(self, sql: str, *args: Any) -> str:
        """Run a statement (``$n`` placeholders), its command tag; a failure is HistoryError."""
        with _failures():
            return str(await self.pool.execute(sql, *args))

    async def save_conversation(
        self, session_id: str, messages: Sequence[Message], *, request_key: str | None = None
    ) -> None:
        scopes.current()  # fails closed before anything else
        if not messages:
            return
        rows = shared.message_rows(session_id, messages, request_key)
        with _failures():
            async with self.pool.acquire() as conn, conn.transaction():
                await conn.executemany(
                    "INSERT INTO messages (tenant, agent_id, session_id, body, created,"
                    " request_key) VALUES ($1, $2, $3, $4, $5, $6)",
                    rows,
                )

    async def find_request(self, session_id: str, request_key: str) -> StoredRequest | None:
        key = _key(session_id)

        async def load(conn: asyncpg.Connection) -> list[shared.Row]:
            found = await conn.fetch(
                f"SELECT id FROM messages WHERE {_WHERE} AND request_key = $4", *key, request_key
            )
            if not found:
                return []
            return _oldest_first(await conn.fetch(_ROWS, *key, int(found[0][0]), None))

        return shared.stored_request(session_id, await self._snapshot(load))

    async def load_conversation(self, session_id: str, limit: int = 0) -> list[Message]:
        rows = await self.fetch(_ROWS, *_key(session_id), 0, limit if limit > 0 else None)
        return shared.decode_messages(session_id, _oldest_first(rows))

    async def clear_conversation(self, session_id: str) -> int:
        key = _key(session_id)
        with _failures():
            async with self.pool.acquire() as conn, conn.transaction():
                await conn.execute(f"DELETE FROM summaries WHERE {_WHERE}", *key)
                status = await conn.execute(f"DELETE FROM messages WHERE {_WHERE}", *key)
        return changed_rows(str(status))

    async def save_working(self, run_id: str, key: str, value: Any) -> None:
        scope = scopes.current()
        raw = shared.encode_working(key, value)
        await self.execute(
            "INSERT INTO working (tenant, agent_id, run_id, key, value, updated) "
            "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tenant, agent_id, run_id, key) "
            "DO UPDATE SET value = excluded.value, updated = excluded.updated",
            scope.tenant,
            scope.app,
            run_id,
            key,
            raw,
            time.time(),
        )

    async def load_working(self, run_id: str, key: str) -> Any:
        scope = scopes.current()
        rows = await self.fetch(
            "SELECT value FROM working WHERE tenant = $1 AND agent_id = $2 AND run_id = $3 "
            "AND key = $4",
            scope.tenant,
            scope.app,
            run_id,
            key,
        )
        return shared.decode_working(run_id, key, rows[0] if rows else None)

    async def clear_working(self, run_id: str) -> None:
        scope = scopes.current()
        await self.execute(
            "DELETE FROM working WHERE tenant = $1 AND agent_id = $2 AND run_id = $3",
            scope.tenant,
            scope.app,
            run_id,
        )

    async def save_summary(
        self,
        summary: str | Message,
        *,
        session_id: str | None = None,
        tail: Sequence[Message] = (),
    ) -> None:
        key = _key(session_id or "")
        body = shared.summary_body(summary)

        async def insert(conn: asyncpg.Connection) -> None:
            if tail:
                rows = await _session_rows(conn, key, limit=len(tail))
                tail_from = shared.tail_start(session_id, rows, tail)
            else:
                tail_from = await _next_id(conn)
            await _insert_boundary(conn, key, body, tail_from, "summary")

        await self._transaction(insert)

    async def save_window(self, session_id: str, keep: int) -> None:
        key = _key(session_id)

        async def insert(conn: asyncpg.Connection) -> None:
            rows = await _session_rows(conn, key, limit=keep) if keep > 0 else []
            tail_from = rows[0][0] if rows else await _next_id(conn)
            await _insert_boundary(conn, key, "", tail_from, "window")

        await self._transaction(insert)

    async def _transaction(self, fn: Callable[[asyncpg.Connection], Awaitable[None]]) -> None:
        with _failures():
            async with self.pool.acquire() as conn, conn.transaction():
                await fn(conn)

    async def _snapshot(self, fn: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """``fn``'s reads in one snapshot (a read-only REPEATABLE READ transaction), as SQLite's
        read transaction: a write committed between two of them is seen by neither."""
        with _failures():
            async with (
                self.pool.acquire() as conn,
                conn.transaction(isolation="repeatable_read", readonly=True),
            ):
                return await fn(conn)

    async def load_summaries(self, session_id: str | None = None) -> list[str]:
        scope = scopes.current()
        sql = (
            "SELECT id, body FROM summaries WHERE kind = 'summary' AND tenant = $1"
            " AND agent_id = $2"
        )
        args: tuple[str, ...] = (scope.tenant, scope.app)
        if session_id is not None:
            sql += " AND session_id = $3"
            args += (session_id,)
        rows = await self.fetch(sql + " ORDER BY id", *args)
        return shared.summary_texts([(int(r[0]), r[1]) for r in rows])

    async def resume(self, session_id: str, limit: int = 0) -> list[Message]:
        key = _key(session_id)

        async def load(conn: asyncpg.Connection) -> tuple[Any, list[shared.Row]]:
            found = await conn.fetch(
                f"SELECT id, body, tail_from, kind FROM summaries WHERE {_WHERE} "
                "ORDER BY id DESC LIMIT 1",
                *key,
            )
            summary = found[0] if found else None
            after = shared.resume_from(summary)
            return summary, await _session_rows(conn, key, after=after, limit=limit)

        summary, rows = await self._snapshot(load)
        return shared.resumed(session_id, summary, rows)

    async def list_sessions(self) -> list[SessionInfo]:
        scope = scopes.current()
        rows = await self.fetch(
            "SELECT session_id, COUNT(*), MAX(created) FROM messages "
            "WHERE tenant = $1 AND agent_id = $2 GROUP BY session_id ORDER BY MAX(id) DESC",
            scope.tenant,
            scope.app,
        )
        return shared.session_infos(rows)

    async def session_version(self, session_id: str) -> tuple[int, int]:
        """The session's newest message and boundary ids: what changes when anyone writes it
        (ids are never reused, so a clear and new messages change it too)."""
        rows = await self.fetch(
            f"SELECT (SELECT COALESCE(MAX(id), 0) FROM messages WHERE {_WHERE}),"
            f" (SELECT COALESCE(MAX(id), 0) FROM summaries WHERE {_WHERE})",
            *_key(session_id),
        )
        return (int(rows[0][0]), int(rows[0][1]))

    @asynccontextmanager
    async def session_lock(self, key: tuple[str, str, str]) -> AsyncIterator[None]:
        """Hold the session's advisory lock (waiting for another daemon's turn to end).

        The lock is the connection's: a daemon that dies drops its connections and with them
        its locks, so the other daemons go on.
        """
        lock = advisory_key(*key)
        async with self._locks.acquire() as conn:
            with _failures():
                await conn.execute("SELECT pg_advisory_lock($1)", lock)
            try:
                yield
            finally:
                # Shielded and bounded. Should it fail anyway, or a cancellation land just as
                # the lock was granted, asyncpg's reset of a connection going back to the pool
                # (pg_advisory_unlock_all) or its close releases the lock.
                with anyio.move_on_after(10, shield=True):
                    try:
                        await conn.execute("SELECT pg_advisory_unlock($1)", lock)
                    except Exception as exc:  # asyncpg's errors of a dead connection vary
                        # The connection died with the lock on it: nothing is left to unlock.
                        log.warning("session.lock_lost", error=type(exc).__name__)


async def _next_id(conn: asyncpg.Connection) -> int:
    """The id the next message row will get at least (a boundary with nothing after it yet)."""
    return int(await conn.fetchval("SELECT COALESCE(MAX(id), 0) + 1 FROM messages"))


async def _insert_boundary(
    conn: asyncpg.Connection, key: tuple[str, str, str], body: str, tail_from: int, kind: str
) -> None:
    await conn.execute(
        "INSERT INTO summaries (tenant, agent_id, session_id, body, tail_from, created, kind) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7)",
        *key,
        body,
        tail_from,
        time.time(),
        kind,
    )
