"""What each tenant used per UTC day: turns, model tokens and tool calls, in SQLite.

The rows live in the history file (table ``usage``, schema version 4 of
:data:`agentd.memory.history.MIGRATIONS`), written through the history store's own writer, so
one file has one writer and one schema version. :meth:`SQLiteUsage.add` and
:meth:`SQLiteUsage.tokens_on` read the tenant from :func:`agentd.scope.current` (fail closed),
as every store does. :meth:`SQLiteUsage.report` and :meth:`SQLiteUsage.tenants` are the
operator's view across tenants (``agentd tenants``) and take the tenant as a filter.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from agentd import scope as scopes
from agentd.memory.history import SQLiteHistory


def utc_day(timestamp: float) -> str:
    """The UTC day of a Unix time, as ``YYYY-MM-DD`` (how the table keys days)."""
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).date().isoformat()


@dataclass(frozen=True, slots=True)
class UsageCounts:
    """What turns used: how many turns, prompt and completion tokens, tool calls."""

    turns: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tool_calls: int = 0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True, slots=True)
class DayUsage:
    """One row of the report: a tenant's use on one UTC day."""

    tenant: str
    day: str
    counts: UsageCounts


#: The SQL both engines run (``?`` placeholders; :func:`agentd.store.pg.dollar` numbers them
#: for PostgreSQL). One upsert: concurrent writers add to the row, none overwrites another's
#: count (``usage.turns`` is the stored row in SQLite and PostgreSQL alike).
ADD = (
    "INSERT INTO usage (tenant, day, turns, prompt_tokens, completion_tokens, tool_calls)"
    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, day) DO UPDATE SET"
    " turns = usage.turns + excluded.turns,"
    " prompt_tokens = usage.prompt_tokens + excluded.prompt_tokens,"
    " completion_tokens = usage.completion_tokens + excluded.completion_tokens,"
    " tool_calls = usage.tool_calls + excluded.tool_calls"
)
TOKENS_ON = "SELECT prompt_tokens + completion_tokens FROM usage WHERE tenant = ? AND day = ?"
TENANTS = "SELECT tenant FROM messages UNION SELECT tenant FROM usage ORDER BY tenant"


def add_args(day: str, counts: UsageCounts) -> tuple[str | int, ...]:
    """The parameters of :data:`ADD`: the current scope's tenant (fails closed), ``day`` and
    ``counts``."""
    return (
        scopes.current().tenant,
        day,
        counts.turns,
        counts.prompt_tokens,
        counts.completion_tokens,
        counts.tool_calls,
    )


def report_query(since: str, tenant: str | None) -> tuple[str, tuple[str, ...]]:
    """The report's query and parameters: rows from day ``since`` on (of ``tenant`` only, if
    given), by tenant then day."""
    sql = (
        "SELECT tenant, day, turns, prompt_tokens, completion_tokens, tool_calls FROM usage"
        " WHERE day >= ?"
    )
    args: tuple[str, ...] = (since,)
    if tenant is not None:
        sql += " AND tenant = ?"
        args += (tenant,)
    return sql + " ORDER BY tenant, day", args


def day_usage(rows: Iterable[Sequence[Any]]) -> list[DayUsage]:
    """Rows of the report query as :class:`DayUsage`."""
    return [DayUsage(str(r[0]), str(r[1]), UsageCounts(*(int(c) for c in r[2:6]))) for r in rows]


class UsageStore(Protocol):
    """Usage per tenant (the current scope's) and UTC day."""

    async def add(self, day: str, counts: UsageCounts) -> None:
        """Add ``counts`` to the scope's tenant on ``day``."""

    async def tokens_on(self, day: str) -> int:
        """The model tokens the scope's tenant used on ``day``."""


class SQLiteUsage:
    """:class:`UsageStore` on the history file, plus the operator's report."""

    def __init__(self, history: SQLiteHistory) -> None:
        self._history = history

    async def add(self, day: str, counts: UsageCounts) -> None:
        args = add_args(day, counts)

        def upsert(conn: sqlite3.Connection) -> None:
            conn.execute(ADD, args)

        await self._history.write(upsert)

    async def tokens_on(self, day: str) -> int:
        key = (scopes.current().tenant, day)

        def load(conn: sqlite3.Connection) -> int:
            found = conn.execute(TOKENS_ON, key).fetchone()
            return int(found[0]) if found is not None else 0

        return await self._history.read(load)

    async def report(self, *, since: str, tenant: str | None = None) -> list[DayUsage]:
        """Every tenant's (or ``tenant``'s) rows from day ``since`` on, by tenant then day."""
        sql, args = report_query(since, tenant)

        def load(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
            return conn.execute(sql, args).fetchall()

        return day_usage(await self._history.read(load))

    async def tenants(self) -> list[str]:
        """Tenants that have stored messages or usage, sorted."""

        def load(conn: sqlite3.Connection) -> list[str]:
            return [str(r[0]) for r in conn.execute(TENANTS).fetchall()]

        return await self._history.read(load)


class TenantReport(UsageStore, Protocol):
    """A usage store with the operator's view across tenants (SQLite or PostgreSQL)."""

    async def report(self, *, since: str, tenant: str | None = None) -> list[DayUsage]:
        """Every tenant's (or ``tenant``'s) rows from day ``since`` on, by tenant then day."""

    async def tenants(self) -> list[str]:
        """Tenants that have stored messages or usage, sorted."""


async def known_tenants(usage: TenantReport, configured: Iterable[str]) -> list[str]:
    """The ``configured`` tenants and those with stored messages or usage, sorted."""
    return sorted({*configured, *await usage.tenants()})
