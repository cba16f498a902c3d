"""What each tenant used per UTC day, on PostgreSQL: :mod:`agentd.memory.usage` beside the
history's tables (table ``usage`` of :mod:`agentd.memory.pg_history`), shared by every daemon.

The SQL and the rows are :mod:`agentd.memory.usage`'s; it runs through the history store, so a
failure is a :class:`~agentd.errors.HistoryError` as on SQLite (the quota counter logs it and
goes on).
"""

from __future__ import annotations

from agentd import scope as scopes
from agentd.memory.pg_history import PgHistory
from agentd.memory.usage import (
    ADD,
    TENANTS,
    TOKENS_ON,
    DayUsage,
    UsageCounts,
    add_args,
    day_usage,
    report_query,
)
from agentd.store.pg import dollar


class PgUsage:
    """:class:`~agentd.memory.usage.UsageStore` on PostgreSQL, plus the operator's report."""

    def __init__(self, history: PgHistory) -> None:
        self._history = history

    async def add(self, day: str, counts: UsageCounts) -> None:
        await self._history.execute(dollar(ADD), *add_args(day, counts))

    async def tokens_on(self, day: str) -> int:
        found = await self._history.fetch(dollar(TOKENS_ON), scopes.current().tenant, day)
        return int(found[0][0]) if found else 0

    async def report(self, *, since: str, tenant: str | None = None) -> list[DayUsage]:
        """Every tenant's (or ``tenant``'s) rows from day ``since`` on, by tenant then day."""
        sql, args = report_query(since, tenant)
        return day_usage(await self._history.fetch(dollar(sql), *args))

    async def tenants(self) -> list[str]:
        """Tenants that have stored messages or usage, sorted."""
        return [str(r[0]) for r in await self._history.fetch(TENANTS)]
