"""Which durable stores the settings name: SQLite files (the default) or PostgreSQL.

``history.url`` (``postgresql://...``) puts the conversation history and the usage counters on
PostgreSQL; every command that reads them (the daemon, ``agentd sessions``, ``agentd tenants``,
``agentd mcp serve``) opens them here, so none of them reads a SQLite file the daemon no longer
writes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from agentd.config.settings import Settings
from agentd.memory.history import SQLiteHistory
from agentd.memory.pg_history import PgHistory
from agentd.memory.pg_usage import PgUsage
from agentd.memory.usage import SQLiteUsage

#: A durable history store of either engine.
History = SQLiteHistory | PgHistory


@asynccontextmanager
async def open_history(settings: Settings) -> AsyncIterator[History]:
    """The history store the settings name: ``history.url`` if set, else ``history.path``."""
    url = settings.history_url
    if url is not None:
        async with PgHistory.open(url) as pg:
            yield pg
    else:
        async with SQLiteHistory.open(
            settings.history_path, synchronous=settings.history.synchronous
        ) as sqlite:
            yield sqlite


def usage_of(history: History) -> SQLiteUsage | PgUsage:
    """The usage counters that live beside ``history``."""
    return PgUsage(history) if isinstance(history, PgHistory) else SQLiteUsage(history)
