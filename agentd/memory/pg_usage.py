"""What each tenant used per UTC day, on PostgreSQL: :mod:`agentd.memory.usage` beside the
history's tables (table ``usage`` of :mod:`agentd.memory.pg_history`), shared by every daemon."""

from __future__ import annotations

from agentd import scope as scopes
from agentd.memory.pg_history import PgHistory
from agentd.memory.usage import DayUsage, UsageCounts


class PgUsage:
    """:class:`~agentd.memory.usage.UsageStore` on PostgreSQL, plus the operator's report."""

    def __init__(self, history: PgHistory) -> None:
        self._pool = history.pool

    async def add(self, day: str, counts: UsageCounts) -> None:
        # One upsert: concurrent daemons add to the row, none overwrites another's count.
        await self._pool.execute(
            "INSERT INTO usage (tenant, day, turns, prompt_tokens, completion_tokens, tool_calls)"
            " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tenant, day) DO UPDATE SET"
            " turns = usage.turns + excluded.turns,"
            " prompt_tokens = usage.prompt_tokens + excluded.prompt_tokens,"
            " completion_tokens = usage.completion_tokens + excluded.completion_tokens,"
            " tool_calls = usage.tool_calls + excluded.tool_calls",
            scopes.current().tenant,
            day,
            counts.turns,
            counts.prompt_tokens,
            counts.completion_tokens,
            counts.tool_calls,
        )

    async def tokens_on(self, day: str) -> int:
        found = await self._pool.fetchval(
            "SELECT prompt_tokens + completion_tokens FROM usage WHERE tenant = $1 AND day = $2",
            scopes.current().tenant,
            day,
        )
        return int(found) if found is not None else 0

    async def report(self, *, since: str, tenant: str | None = None) -> list[DayUsage]:
        """Every tenant's (or ``tenant``'s) rows from day ``since`` on, by tenant then day."""
        rows = await self._pool.fetch(
            "SELECT tenant, day, turns, prompt_tokens, completion_tokens, tool_calls FROM usage"
            " WHERE day >= $1 AND ($2::text IS NULL OR tenant = $2) ORDER BY tenant, day",
            since,
            tenant,
        )
        return [DayUsage(r[0], r[1], UsageCounts(*(int(c) for c in r[2:]))) for r in rows]

    async def tenants(self) -> list[str]:
        """Tenants that have stored messages or usage, sorted."""
        rows = await self._pool.fetch(
            "SELECT tenant FROM messages UNION SELECT tenant FROM usage ORDER BY tenant"
        )
        return [str(r[0]) for r in rows]
