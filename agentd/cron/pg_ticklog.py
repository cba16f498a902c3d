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

from agentd.cron.schema import migrations
from agentd.store.pg import IDENTITY, changed_rows, dollar, migrate, open_pool, rows

if TYPE_CHECKING:
    import asyncpg

#: :data:`agentd.cron.ticklog.MIGRATIONS` with an identity column for the row id.
MIGRATIONS = migrations(IDENTITY)
SCHEMA_VERSION = len(MIGRATIONS)


class PgDatabase:
    """:class:`agentd.cron.ticklog.Database` on a PostgreSQL pool."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return rows(await self.pool.fetch(dollar(sql), *args))

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        return changed_rows(await self.pool.execute(dollar(sql), *args))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        # executemany() reports no counts: one statement per row in one transaction does.
        statement = dollar(sql)
        changed = 0
        async with self.pool.acquire() as conn, conn.transaction():
            for row in rows:
                changed += changed_rows(await conn.execute(statement, *row))
        return changed


@asynccontextmanager
async def open_database(url: str) -> AsyncIterator[PgDatabase]:
    """The tick log's database at ``url``, migrated; its pool closes on exit."""
    async with open_pool(url, max_size=2, what="tick log") as pool:
        await migrate(pool, "ticklog", MIGRATIONS, hint="cron.tick_log_url")
        yield PgDatabase(pool)
