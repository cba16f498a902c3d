"""The tick log and agent tasks on PostgreSQL: the same tables, one database for N daemons.

:class:`~agentd.cron.ticklog.TickLog` and :class:`~agentd.cron.tasks.TaskStore` run their SQL
through :class:`PgDatabase`. The claim is the same as on SQLite: ``UNIQUE (job,
scheduled_for)`` and ``INSERT ... ON CONFLICT DO NOTHING``, so every daemon that shares the
database may try a tick and exactly one runs it. Migrations are versioned in
``schema_versions`` (part ``ticklog``), as in the SQLite file.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from agentd.store.pg import dollar, migrate, open_pool, rows

if TYPE_CHECKING:
    import asyncpg

#: ``MIGRATIONS[i]`` moves the tables from schema version ``i`` to ``i + 1``. Append only;
#: the steps mirror :data:`agentd.cron.ticklog.MIGRATIONS`.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """
        CREATE TABLE IF NOT EXISTS cron_ticks (
            id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            job           TEXT NOT NULL,
            scheduled_for TEXT NOT NULL,
            started_at    TEXT,
            finished_at   TEXT,
            status        TEXT NOT NULL
                          CHECK (status IN ('running','ok','error','missed','skipped')),
            error         TEXT,
            output        TEXT,
            kind          TEXT NOT NULL DEFAULT 'scheduled',
            delivered     INTEGER NOT NULL DEFAULT 0,
            owner         TEXT,
            UNIQUE (job, scheduled_for)
        )
        """,
        "CREATE INDEX IF NOT EXISTS cron_ticks_status ON cron_ticks (status)",
    ),
    (
        """
        CREATE TABLE agent_tasks (
            id             TEXT PRIMARY KEY,
            tenant         TEXT NOT NULL,
            name           TEXT,
            prompt         TEXT NOT NULL,
            kind           TEXT NOT NULL CHECK (kind IN ('at','every','cron')),
            spec           TEXT NOT NULL,
            timezone       TEXT,
            catch_up       TEXT NOT NULL CHECK (catch_up IN ('coalesce','skip')),
            session_mode   TEXT NOT NULL CHECK (session_mode IN ('fresh','window')),
            origin_channel TEXT NOT NULL,
            origin_address TEXT,
            origin_session TEXT,
            status         TEXT NOT NULL CHECK (status IN ('active','done','cancelled')),
            created_at     TEXT NOT NULL,
            created_by     TEXT NOT NULL
        )
        """,
        "CREATE INDEX agent_tasks_by_tenant ON agent_tasks (tenant, status)",
        "CREATE INDEX agent_tasks_by_status ON agent_tasks (status)",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


def _changed(status: str) -> int:
    """The row count of a command tag (``INSERT 0 1``, ``UPDATE 2``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PgDatabase:
    """:class:`agentd.cron.ticklog.Database` on a PostgreSQL pool."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return rows(await self.pool.fetch(dollar(sql), *args))

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        return _changed(await self.pool.execute(dollar(sql), *args))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        # executemany() reports no counts: one statement per row in one transaction does.
        statement = dollar(sql)
        changed = 0
        async with self.pool.acquire() as conn, conn.transaction():
            for row in rows:
                changed += _changed(await conn.execute(statement, *row))
        return changed


@asynccontextmanager
async def open_database(url: str) -> AsyncIterator[PgDatabase]:
    """The tick log's database at ``url``, migrated; its pool closes on exit."""
    async with open_pool(url, max_size=2, what="tick log") as pool:
        await migrate(pool, "ticklog", MIGRATIONS, hint="cron.tick_log_url")
        yield PgDatabase(pool)
