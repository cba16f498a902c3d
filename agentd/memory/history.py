"""The durable conversation store: every message of every session, in SQLite.

No method takes a tenant. Each one reads :func:`agentd.scope.current` (and fails closed with
:class:`~agentd.errors.ScopeMissing` without a scope) and stores the scope's tenant and app on
every row it writes; every read, clear and overwrite is filtered by both, so a row written under
one scope is invisible to every other. That holds for working memory too: a run id is a bearer
capability, not an isolation boundary.

Rows are decoded strictly (:func:`~agentd.messages.decode_stored_message`): one malformed row
fails the whole read with an error that names the session and row id, never the content.

SQLite runs in WAL mode with one writer: writes are serialised by a lock and run in a worker
thread, each as one ``BEGIN IMMEDIATE`` transaction, so a group of messages is stored whole or
not at all. Reads use their own connection and do not wait for the writer. The schema version
lives in ``PRAGMA user_version``; :data:`MIGRATIONS` moves any older file forward on open.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Generic, Literal, Protocol, TypeVar

import anyio
import structlog

from agentd import scope as scopes
from agentd.errors import HistoryError
from agentd.memory import rows as shared
from agentd.memory import schema
from agentd.memory.rows import SessionInfo as SessionInfo
from agentd.memory.rows import StoredRequest as StoredRequest
from agentd.memory.rows import decode_row as decode_row
from agentd.memory.rows import session_key as _key
from agentd.memory.rows import stored_request as stored_request
from agentd.messages import Message
from agentd.private import private_dir, private_sqlite
from agentd.store.migrations import newer_schema, pending

log = structlog.get_logger("agentd.history")

T = TypeVar("T")
Synchronous = Literal["NORMAL", "FULL"]
BUSY_TIMEOUT_MS = 5000

#: ``MIGRATIONS[i]`` moves a file from schema version ``i`` to ``i + 1``. Append only.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        # AUTOINCREMENT: ids are never reused, so a summary's tail boundary (an id) stays valid.
        """CREATE TABLE messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            tenant TEXT NOT NULL,
            agent_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            body TEXT NOT NULL,
            created REAL NOT NULL
        )""",
        schema.MESSAGES_BY_SESSION,
        # tail_from: the id of the first message row that follows the summary.
        """CREATE TABLE summaries (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            tenant TEXT NOT NULL,
            agent_id TEXT NOT NULL,
            session_id TEXT NOT NULL,
            body TEXT NOT NULL,
            tail_from INTEGER NOT NULL,
            created REAL NOT NULL
        )""",
        schema.SUMMARIES_BY_SESSION,
        schema.working_table("REAL"),
    ),
    (
        # A boundary row is a compaction summary (kind 'summary', its body the summary) or a
        # window that a bounded session keeps (kind 'window', no body): either way, resuming the
        # session starts at the newest boundary's tail_from.
        "ALTER TABLE summaries ADD COLUMN kind TEXT NOT NULL DEFAULT 'summary'",
    ),
    (
        # A client's Idempotency-Key, on the user message its request stored: a retry finds
        # the message (and the answer after it) instead of storing it again. Unique per
        # session, so even a racing insert cannot store one request twice; keys go with the
        # session's rows (clear_conversation), no separate expiry.
        "ALTER TABLE messages ADD COLUMN request_key TEXT",
        schema.MESSAGES_BY_REQUEST_KEY,
    ),
    (
        # What each tenant used per UTC day (agentd.memory.usage): the daily token quota
        # counts from here, so it survives a restart.
        schema.usage_table("INTEGER"),
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


class HistoryStore(Protocol):
    """Persistence of conversations, working memory and summaries, scoped by context.

    The seed interface's ``agent_id`` argument is the scope's ``app``; its tenant is the
    scope's ``tenant``. Neither is ever a parameter.
    """

    async def save_conversation(
        self, session_id: str, messages: Sequence[Message], *, request_key: str | None = None
    ) -> None:
        """Append ``messages`` to the session, in order, all or nothing.

        ``request_key`` (a client's Idempotency-Key) is stored with the first message; a key
        already stored in the session fails the whole save with HistoryError.
        """

    async def find_request(self, session_id: str, request_key: str) -> StoredRequest | None:
        """The session's user message stored with ``request_key`` and its turn's answer."""

    async def load_conversation(self, session_id: str, limit: int = 0) -> list[Message]:
        """The session's newest ``limit`` messages (0 = all), oldest first."""

    async def clear_conversation(self, session_id: str) -> int:
        """Delete the session's messages and summaries; returns how many messages went."""

    async def save_working(self, run_id: str, key: str, value: Any) -> None:
        """Set a JSON-serialisable value of a run's working memory."""

    async def load_working(self, run_id: str, key: str) -> Any:
        """A value of a run's working memory, or None."""

    async def clear_working(self, run_id: str) -> None:
        """Forget a run's working memory."""

    async def save_summary(
        self,
        summary: str | Message,
        *,
        session_id: str | None = None,
        tail: Sequence[Message] = (),
    ) -> None:
        """Store a summary; for a session, it is followed by ``tail`` (its newest messages)."""

    async def save_window(self, session_id: str, keep: int) -> None:
        """Resume the session from its newest ``keep`` messages from now on (0: none).

        The older messages stay stored (``load_conversation`` returns them); only what a
        restart hands back to the model is bounded, as a heartbeat session in window mode needs.
        """

    async def load_summaries(self, session_id: str | None = None) -> list[str]:
        """Summary texts of the app (or of one session), oldest first."""

    async def resume(self, session_id: str, limit: int = 0) -> list[Message]:
        """What the session continues from: its latest summary, then the messages after it
        (the newest ``limit`` of them, 0 = all)."""

    async def list_sessions(self) -> list[SessionInfo]:
        """The scope's sessions, most recently active first."""


def _session_rows(
    conn: sqlite3.Connection, key: tuple[str, str, str], *, after: int = 0, limit: int = 0
) -> list[tuple[int, Any]]:
    rows = conn.execute(
        "SELECT id, body FROM messages WHERE tenant = ? AND agent_id = ? AND session_id = ? "
        "AND id >= ? ORDER BY id DESC LIMIT ?",
        (*key, after, limit if limit > 0 else -1),
    ).fetchall()
    rows.reverse()
    return rows


class SQLiteHistory:
    """:class:`HistoryStore` on one SQLite file. Open it with :meth:`open`."""

    def __init__(self, path: Path, writer: sqlite3.Connection, reader: sqlite3.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = anyio.Lock()
        self._read_lock = anyio.Lock()
        self._closed = False
        self._pending: list[_Write[Any]] = []

    @classmethod
    @asynccontextmanager
    async def open(
        cls, path: Path | str, *, synchronous: Synchronous = "NORMAL"
    ) -> AsyncIterator[SQLiteHistory]:
        """Open (creating and migrating as needed) the store at ``path``; close it on exit."""
        path = Path(path)
        writer, reader = await anyio.to_thread.run_sync(_connect_all, path, synchronous)
        store = cls(path, writer, reader)
        log.info("history.opened", path=str(path), schema=SCHEMA_VERSION, synchronous=synchronous)
        try:
            yield store
        finally:
            with anyio.CancelScope(shield=True):
                await store.aclose()

    async def aclose(self) -> None:
        """Close both connections once every call in progress has finished."""
        async with self._write_lock, self._read_lock:
            if self._closed:
                return
            self._closed = True
            await anyio.to_thread.run_sync(_close, self._writer, self._reader)

    async def _run(
        self, lock: anyio.Lock, conn: sqlite3.Connection, begin: str, fn: Callable[..., T]
    ) -> T:
        async with lock:
            if self._closed:
                raise HistoryError("the history store is closed")
            # Not cancellable: a transaction in the worker thread always finishes (or rolls
            # back) before the lock is released.
            return await anyio.to_thread.run_sync(_transaction, conn, begin, fn)

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` in a write transaction, committed together with the writes queued
        meanwhile (group commit: one thread hop and one commit for many concurrent turns).

        Each write runs under its own SAVEPOINT, so one that fails is rolled back alone and
        raises in its own caller; the others still commit.
        """
        write = _Write(fn)
        self._pending.append(write)
        try:
            async with self._write_lock:
                if not write.done:
                    if self._closed:
                        raise HistoryError("the history store is closed")
                    batch, self._pending = self._pending, []
                    await anyio.to_thread.run_sync(_write_batch, self._writer, batch)
        finally:
            if not write.done and write in self._pending:
                self._pending.remove(write)  # cancelled before any batch took it
        return write.result()

    async def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        return await self._run(self._read_lock, self._reader, "BEGIN", fn)

    async def write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` in a write transaction of this file (with group commit), for a store
        that shares the file and its schema (:mod:`agentd.memory.usage`)."""
        return await self._write(fn)

    async def read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` in a read transaction of this file, for a store that shares it."""
        return await self._read(fn)

    async def save_conversation(
        self, session_id: str, messages: Sequence[Message], *, request_key: str | None = None
    ) -> None:
        scopes.current()  # fails closed before anything else
        if not messages:
            return
        rows = shared.message_rows(session_id, messages, request_key)

        def insert(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "INSERT INTO messages (tenant, agent_id, session_id, body, created, request_key) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )

        await self._write(insert)

    async def find_request(self, session_id: str, request_key: str) -> StoredRequest | None:
        key = _key(session_id)

        def load(conn: sqlite3.Connection) -> list[tuple[int, Any]]:
            found = conn.execute(
                "SELECT id FROM messages WHERE tenant = ? AND agent_id = ? AND session_id = ? "
                "AND request_key = ?",
                (*key, request_key),
            ).fetchone()
            if found is None:
                return []
            return _session_rows(conn, key, after=found[0])

        return stored_request(session_id, await self._read(load))

    async def load_conversation(self, session_id: str, limit: int = 0) -> list[Message]:
        key = _key(session_id)

        def load(conn: sqlite3.Connection) -> list[tuple[int, Any]]:
            return _session_rows(conn, key, limit=limit)

        return shared.decode_messages(session_id, await self._read(load))

    async def clear_conversation(self, session_id: str) -> int:
        key = _key(session_id)

        def clear(conn: sqlite3.Connection) -> int:
            where = "WHERE tenant = ? AND agent_id = ? AND session_id = ?"
            conn.execute(f"DELETE FROM summaries {where}", key)
            return conn.execute(f"DELETE FROM messages {where}", key).rowcount

        return await self._write(clear)

    async def save_working(self, run_id: str, key: str, value: Any) -> None:
        scope = scopes.current()
        raw = shared.encode_working(key, value)
        row = (scope.tenant, scope.app, run_id, key, raw, time.time())

        def upsert(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO working (tenant, agent_id, run_id, key, value, updated) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, agent_id, run_id, key) "
                "DO UPDATE SET value = excluded.value, updated = excluded.updated",
                row,
            )

        await self._write(upsert)

    async def load_working(self, run_id: str, key: str) -> Any:
        scope = scopes.current()
        args = (scope.tenant, scope.app, run_id, key)

        def load(conn: sqlite3.Connection) -> Any:
            return conn.execute(
                "SELECT value FROM working WHERE tenant = ? AND agent_id = ? AND run_id = ? "
                "AND key = ?",
                args,
            ).fetchone()

        return shared.decode_working(run_id, key, await self._read(load))

    async def clear_working(self, run_id: str) -> None:
        scope = scopes.current()
        args = (scope.tenant, scope.app, run_id)

        def clear(conn: sqlite3.Connection) -> None:
            conn.execute(
                "DELETE FROM working WHERE tenant = ? AND agent_id = ? AND run_id = ?", args
            )

        await self._write(clear)

    async def save_summary(
        self,
        summary: str | Message,
        *,
        session_id: str | None = None,
        tail: Sequence[Message] = (),
    ) -> None:
        key = _key(session_id or "")
        body = shared.summary_body(summary)

        def insert(conn: sqlite3.Connection) -> None:
            if tail:
                rows = _session_rows(conn, key, limit=len(tail))
                tail_from = shared.tail_start(session_id, rows, tail)
            else:
                tail_from = _next_id(conn)
            _insert_boundary(conn, key, body, tail_from, "summary")

        await self._write(insert)

    async def save_window(self, session_id: str, keep: int) -> None:
        key = _key(session_id)

        def insert(conn: sqlite3.Connection) -> None:
            rows = _session_rows(conn, key, limit=keep) if keep > 0 else []
            tail_from = rows[0][0] if rows else _next_id(conn)
            _insert_boundary(conn, key, "", tail_from, "window")

        await self._write(insert)

    async def load_summaries(self, session_id: str | None = None) -> list[str]:
        scope = scopes.current()

        def load(conn: sqlite3.Connection) -> list[tuple[int, Any]]:
            sql = (
                "SELECT id, body FROM summaries WHERE kind = 'summary' AND tenant = ? "
                "AND agent_id = ?"
            )
            args: tuple[str, ...] = (scope.tenant, scope.app)
            if session_id is not None:
                sql += " AND session_id = ?"
                args += (session_id,)
            return conn.execute(sql + " ORDER BY id", args).fetchall()

        return shared.summary_texts(await self._read(load))

    async def resume(self, session_id: str, limit: int = 0) -> list[Message]:
        key = _key(session_id)

        def load(conn: sqlite3.Connection) -> tuple[Any, list[tuple[int, Any]]]:
            summary = conn.execute(
                "SELECT id, body, tail_from, kind FROM summaries WHERE tenant = ? "
                "AND agent_id = ? AND session_id = ? ORDER BY id DESC LIMIT 1",
                key,
            ).fetchone()
            after = shared.resume_from(summary)
            return summary, _session_rows(conn, key, after=after, limit=limit)

        summary, rows = await self._read(load)
        return shared.resumed(session_id, summary, rows)

    async def list_sessions(self) -> list[SessionInfo]:
        scope = scopes.current()

        def load(conn: sqlite3.Connection) -> list[tuple[str, int, float]]:
            return conn.execute(
                "SELECT session_id, COUNT(*), MAX(created) FROM messages "
                "WHERE tenant = ? AND agent_id = ? GROUP BY session_id ORDER BY MAX(id) DESC",
                (scope.tenant, scope.app),
            ).fetchall()

        return shared.session_infos(await self._read(load))


def _next_id(conn: sqlite3.Connection) -> int:
    """The id the next message row will get (a boundary with no message after it yet)."""
    (next_id,) = conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM messages").fetchone()
    return int(next_id)


def _insert_boundary(
    conn: sqlite3.Connection, key: tuple[str, str, str], body: str, tail_from: int, kind: str
) -> None:
    conn.execute(
        "INSERT INTO summaries (tenant, agent_id, session_id, body, tail_from, created, kind) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (*key, body, tail_from, time.time(), kind),
    )


def _transaction(conn: sqlite3.Connection, begin: str, fn: Callable[[sqlite3.Connection], T]) -> T:
    try:
        conn.execute(begin)
        try:
            result = fn(conn)
        except BaseException:
            if conn.in_transaction:  # SQLite may have rolled back already (e.g. SQLITE_FULL)
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        raise HistoryError(f"history store: {type(exc).__name__}: {exc}") from exc
    return result


class _Write(Generic[T]):
    """One queued write and, once its batch ran, its outcome."""

    __slots__ = ("done", "error", "fn", "value")

    def __init__(self, fn: Callable[[sqlite3.Connection], T]) -> None:
        self.fn = fn
        self.done = False
        self.value: T | None = None
        self.error: BaseException | None = None

    def result(self) -> T:
        if self.error is not None:
            raise self.error
        return self.value  # type: ignore[return-value]


def _write_batch(conn: sqlite3.Connection, batch: list[_Write[Any]]) -> None:
    try:
        conn.execute("BEGIN IMMEDIATE")
        for write in batch:
            conn.execute("SAVEPOINT one_write")
            try:
                write.value = write.fn(conn)
            except Exception as exc:
                conn.execute("ROLLBACK TO one_write")
                write.error = (
                    HistoryError(f"history store: {type(exc).__name__}: {exc}")
                    if isinstance(exc, sqlite3.Error)
                    else exc
                )
            conn.execute("RELEASE one_write")
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        error = HistoryError(f"history store: {type(exc).__name__}: {exc}")
        for write in batch:
            write.value, write.error = None, write.error or error
    finally:
        for write in batch:
            write.done = True


def _connect(path: Path, synchronous: Synchronous) -> sqlite3.Connection:
    # isolation_level=None: transactions are explicit (BEGIN IMMEDIATE for every write).
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    return conn


def _connect_all(path: Path, synchronous: Synchronous) -> tuple[sqlite3.Connection, ...]:
    path = path.expanduser()
    try:
        private_dir(path.parent)
        writer = _connect(path, synchronous)
        try:
            writer.execute("PRAGMA journal_mode = WAL")
            _migrate(writer, path)
            reader = _connect(path, synchronous)
            private_sqlite(path)
        except BaseException:
            writer.close()
            raise
    except (sqlite3.Error, OSError) as exc:
        raise HistoryError(
            f"cannot open the history store {path}: {exc}; check history.path (HISTORY_DB)"
        ) from exc
    return writer, reader


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    def newer(version: int, target: int) -> Exception:
        return HistoryError(newer_schema(f"{path} has", version, target, "history.path"))

    conn.execute("BEGIN IMMEDIATE")
    try:
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        for target, statements in pending(MIGRATIONS, version, newer):
            for statement in statements:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {int(target)}")
            log.info("history.migrated", path=str(path), version=target)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _close(*conns: sqlite3.Connection) -> None:
    for conn in conns:
        conn.close()
