"""The heartbeat tick log: one row per scheduled tick, claimed by inserting it.

``UNIQUE(job, scheduled_for)`` makes the insert the claim: daemons sharing the log (a SQLite
file, or PostgreSQL through :mod:`agentd.cron.pg_ticklog` for replicas) never run one tick
twice. Each running row names its owner (host, pid, process start time), so a tick left
``running`` by a process that died is found on the next start and marked interrupted.

The SQL goes through a small :class:`Database` seam (``?`` placeholders, one transaction per
call), so both engines run the same statements. The SQLite file's schema version lives in its
own ``schema_versions`` row (part ``ticklog``), not in ``PRAGMA user_version``: the tick log may
share its file with other stores (``memory.path``), and one pragma cannot version two of them.
:data:`MIGRATIONS` moves any older file forward on open; a file from before versioning is
version 0 (its tables exist: the first step only creates what is missing).
"""

from __future__ import annotations

import datetime as dt
import os
import socket
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

import anyio

from agentd.cron.schema import migrations
from agentd.private import private_dir, private_sqlite
from agentd.store.migrations import GET_VERSION, SET_VERSION, VERSIONS_TABLE, newer_schema, pending
from agentd.store.pg import is_postgres

T = TypeVar("T")
Status = Literal["running", "ok", "error", "missed", "skipped"]
Kind = Literal["scheduled", "catch_up", "manual"]
STATUSES: tuple[str, ...] = ("running", "ok", "error", "missed", "skipped")
#: A run that answered but whose answer could not be delivered: status ``ok``, not delivered,
#: the delivery's failure in ``error`` and the answer kept in ``output``. A filter of
#: :meth:`TickLog.list`, not a stored status.
UNDELIVERED = "undelivered"
#: What :meth:`TickLog.list` filters by: the statuses and :data:`UNDELIVERED`.
FILTERS: tuple[str, ...] = (*STATUSES, UNDELIVERED)
#: The SQL condition of an undelivered run (an ``ok`` run has an error only then).
UNDELIVERED_SQL = "status='ok' AND error IS NOT NULL"
MAX_OUTPUT = 4000

#: ``MIGRATIONS[i]`` moves a file from schema version ``i`` to ``i + 1``. Append only.
MIGRATIONS = migrations("INTEGER PRIMARY KEY")
SCHEMA_VERSION = len(MIGRATIONS)
_PART = "ticklog"
_HINT = "cron.tick_log"


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    def newer(version: int, target: int) -> Exception:
        return RuntimeError(newer_schema(f"the tick log {path} has", version, target, _HINT))

    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(VERSIONS_TABLE)
        row = conn.execute(GET_VERSION, (_PART,)).fetchone()
        for target, statements in pending(MIGRATIONS, int(row[0]) if row else 0, newer):
            for statement in statements:
                conn.execute(statement)
            conn.execute(SET_VERSION, (_PART, target))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def iso(when: dt.datetime) -> str:
    """UTC, whole seconds, ``Z``: one spelling per instant, so the UNIQUE claim works."""
    return when.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str) -> dt.datetime:
    return dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC)


def _now() -> str:
    return iso(dt.datetime.now(dt.UTC))


def _process_start(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def owner_id(pid: int | None = None) -> str:
    pid = os.getpid() if pid is None else pid
    return f"{socket.gethostname()}:{pid}:{_process_start(pid) or '?'}"


def owner_alive(owner: str) -> bool:
    """Whether the process that wrote ``owner`` still runs (unknown hosts count as alive)."""
    try:
        host, pid_text, started = owner.rsplit(":", 2)
        pid = int(pid_text)
    except ValueError:
        return False
    if host != socket.gethostname():
        return True
    current = _process_start(pid)
    return current is not None and (started == "?" or current == started)


@dataclass(frozen=True, slots=True)
class Tick:
    id: int
    job: str
    scheduled_for: str
    started_at: str | None
    finished_at: str | None
    status: str
    error: str | None
    output: str | None
    kind: str
    delivered: bool

    @property
    def undelivered(self) -> bool:
        """The run answered but its answer could not be delivered (kept in ``output``)."""
        return self.status == "ok" and self.error is not None

    @property
    def state(self) -> str:
        """The status for people: :data:`UNDELIVERED` for an undelivered run."""
        return UNDELIVERED if self.undelivered else self.status


class Database(Protocol):
    """Where the tick log's rows live: SQLite here, PostgreSQL in :mod:`agentd.cron.pg_ticklog`.

    SQL uses ``?`` placeholders; each call is one transaction.
    """

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of a query."""

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run a statement; how many rows it changed."""

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        """Run a statement once per row, in one transaction; how many rows changed."""


class SQLiteDatabase:
    """:class:`Database` on one SQLite connection; one writer at a time, in a worker thread."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._lock = threading.Lock()

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        def locked() -> T:
            with self._lock, self.conn:
                return fn(self.conn)

        # Shielded: a write that started is waited for, so a shutdown never leaves a tick
        # half-recorded (each statement is short).
        with anyio.CancelScope(shield=True):
            result = await anyio.to_thread.run_sync(locked)
        return result

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return await self.run(lambda conn: [tuple(r) for r in conn.execute(sql, args)])

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        return await self.run(lambda conn: conn.execute(sql, args).rowcount)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        def many(conn: sqlite3.Connection) -> int:
            before = conn.total_changes
            conn.executemany(sql, rows)
            return conn.total_changes - before

        return await self.run(many)


class TickLog:
    """Async access to the ``cron_ticks`` table (and, for :mod:`agentd.cron.tasks`, its
    database). Open it with :meth:`open` (a SQLite file) or :meth:`connect` (a URL)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.owner = owner_id()

    @classmethod
    @asynccontextmanager
    async def open(cls, path: Path) -> AsyncIterator[TickLog]:
        def connect() -> sqlite3.Connection:
            private_dir(path.parent)
            conn = sqlite3.connect(
                path, timeout=10.0, check_same_thread=False, isolation_level=None
            )
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute("PRAGMA busy_timeout=10000")
                _migrate(conn, path)
                private_sqlite(path)
            except BaseException:
                conn.close()
                raise
            conn.isolation_level = "DEFERRED"  # implicit transactions again, for the writes
            return conn

        conn = await anyio.to_thread.run_sync(connect)
        try:
            yield cls(SQLiteDatabase(conn))
        finally:
            conn.close()

    @classmethod
    @asynccontextmanager
    async def connect(cls, target: Path | str) -> AsyncIterator[TickLog]:
        """The tick log at ``target``: a ``postgresql://`` URL, else a SQLite file path."""
        if isinstance(target, str) and is_postgres(target):
            from agentd.cron.pg_ticklog import open_database

            async with open_database(target) as db:
                yield cls(db)
        else:
            async with cls.open(Path(target)) as log:
                yield log

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` on the SQLite connection in a worker thread, as one transaction (tests
        and tools that need SQLite itself; PostgreSQL has no such door)."""
        if not isinstance(self.db, SQLiteDatabase):
            raise TypeError("TickLog.run needs the SQLite tick log")
        return await self.db.run(fn)

    async def claim(self, job: str, scheduled_for: str, kind: Kind = "scheduled") -> bool:
        """Insert a running row; False when the tick is already claimed (by anyone)."""
        changed = await self.db.execute(
            "INSERT INTO cron_ticks (job, scheduled_for, started_at, status, kind, owner)"
            " VALUES (?, ?, ?, 'running', ?, ?) ON CONFLICT (job, scheduled_for) DO NOTHING",
            (job, scheduled_for, _now(), kind, self.owner),
        )
        return changed == 1

    async def claim_missed(self, job: str, scheduled_for: str) -> bool:
        """Turn a ``missed`` row into a running catch-up run; False if someone else did."""
        changed = await self.db.execute(
            "UPDATE cron_ticks SET status='running', kind='catch_up', started_at=?, owner=?"
            " WHERE job=? AND scheduled_for=? AND status='missed'",
            (_now(), self.owner, job, scheduled_for),
        )
        return changed == 1

    async def claim_retry(self, job: str, scheduled_for: str) -> bool:
        """Run again, once and late, a tick that was interrupted on its first run; False when
        it was not interrupted, was a retry already, or someone else took it."""
        changed = await self.db.execute(
            "UPDATE cron_ticks SET status='running', kind='catch_up', started_at=?, owner=?,"
            " error=NULL, finished_at=NULL WHERE job=? AND scheduled_for=? AND status='error'"
            " AND error='interrupted' AND kind != 'catch_up'",
            (_now(), self.owner, job, scheduled_for),
        )
        return changed == 1

    async def get(self, job: str, scheduled_for: str) -> Tick | None:
        """The row of one tick, or None."""
        found = await self.db.fetch(
            f"SELECT {_TICK_COLUMNS} FROM cron_ticks WHERE job=? AND scheduled_for=?",
            (job, scheduled_for),
        )
        return _tick(found[0]) if found else None

    async def finish(
        self,
        job: str,
        scheduled_for: str,
        status: Status,
        *,
        error: str | None = None,
        output: str | None = None,
        delivered: bool = False,
    ) -> None:
        await self.db.execute(
            "UPDATE cron_ticks SET status=?, error=?, output=?, delivered=?, finished_at=?"
            " WHERE job=? AND scheduled_for=?",
            (
                status,
                error,
                output[:MAX_OUTPUT] if output else output,
                int(delivered),
                _now(),
                job,
                scheduled_for,
            ),
        )

    async def record(
        self, job: str, times: Iterable[str], status: Status, error: str | None = None
    ) -> int:
        """Record ticks that did not run (missed, skipped); returns how many were new."""
        rows = [(job, t, status, error, _now()) for t in times]
        return await self.db.executemany(
            "INSERT INTO cron_ticks (job, scheduled_for, status, error, finished_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (job, scheduled_for) DO NOTHING",
            rows,
        )

    async def last_scheduled(self, job: str) -> str | None:
        found = await self.db.fetch(
            "SELECT max(scheduled_for) FROM cron_ticks WHERE job=? AND kind != 'manual'", (job,)
        )
        return found[0][0] if found else None

    async def mark_interrupted(self, job_prefix: str = "") -> list[tuple[str, str]]:
        """Mark running rows (of jobs named ``job_prefix...``) whose owner process is gone as
        ``error: interrupted``; returns their (job, scheduled_for)."""
        pattern = job_prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        running = await self.db.fetch(
            "SELECT id, owner, job, scheduled_for FROM cron_ticks WHERE status='running'"
            " AND job LIKE ? ESCAPE '\\'",
            (pattern,),
        )
        dead = [row for row in running if not owner_alive(row[1] or "")]
        marked = []
        # One row at a time, each still 'running': another daemon may reap the same row.
        for rid, _, job, scheduled_for in dead:
            if await self.db.execute(
                "UPDATE cron_ticks SET status='error', error='interrupted', finished_at=?"
                " WHERE id=? AND status='running'",
                (_now(), rid),
            ):
                marked.append((job, scheduled_for))
        return marked

    async def list(
        self, *, job: str | None = None, status: str | None = None, limit: int = 50
    ) -> list[Tick]:
        where, args = [], []
        if job:
            where.append("job=?")
            args.append(job)
        if status == UNDELIVERED:
            where.append(UNDELIVERED_SQL)
        elif status:
            where.append("status=?")
            args.append(status)
        sql = f"SELECT {_TICK_COLUMNS} FROM cron_ticks"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY scheduled_for DESC, id DESC LIMIT ?"
        params: Sequence[Any] = (*args, limit)
        return [_tick(row) for row in await self.db.fetch(sql, params)]


_TICK_COLUMNS = (
    "id, job, scheduled_for, started_at, finished_at, status, error, output, kind, delivered"
)


def _tick(row: Sequence[Any]) -> Tick:
    return Tick(
        id=row[0],
        job=row[1],
        scheduled_for=row[2],
        started_at=row[3],
        finished_at=row[4],
        status=row[5],
        error=row[6],
        output=row[7],
        kind=row[8],
        delivered=bool(row[9]),
    )
