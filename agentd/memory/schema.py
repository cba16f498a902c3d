"""The history's tables that both engines create alike, their column types aside.

SQLite reached its schema in four steps (:data:`agentd.memory.history.MIGRATIONS`: two columns
came by ``ALTER TABLE``); PostgreSQL creates the same schema in one
(:data:`agentd.memory.pg_history.MIGRATIONS`), so ``messages`` and ``summaries`` are spelled
twice. The indexes and the ``working`` and ``usage`` tables are one text here.
"""

from __future__ import annotations

MESSAGES_BY_SESSION = (
    "CREATE INDEX messages_by_session ON messages (tenant, agent_id, session_id, id)"
)
#: A request key (a client's Idempotency-Key) is unique per session, even for racing inserts.
MESSAGES_BY_REQUEST_KEY = (
    "CREATE UNIQUE INDEX messages_by_request_key "
    "ON messages (tenant, agent_id, session_id, request_key) WHERE request_key IS NOT NULL"
)
SUMMARIES_BY_SESSION = (
    "CREATE INDEX summaries_by_session ON summaries (tenant, agent_id, session_id, id)"
)


def working_table(real: str) -> str:
    """A run's working memory; ``real`` is the engine's float type."""
    return f"""CREATE TABLE working (
            tenant TEXT NOT NULL,
            agent_id TEXT NOT NULL,
            run_id TEXT NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            updated {real} NOT NULL,
            PRIMARY KEY (tenant, agent_id, run_id, key)
        )"""


def usage_table(integer: str) -> str:
    """What each tenant used per UTC day (:mod:`agentd.memory.usage`); ``integer`` is the
    engine's type for the counters."""
    return f"""CREATE TABLE usage (
            tenant TEXT NOT NULL,
            day TEXT NOT NULL,
            turns {integer} NOT NULL DEFAULT 0,
            prompt_tokens {integer} NOT NULL DEFAULT 0,
            completion_tokens {integer} NOT NULL DEFAULT 0,
            tool_calls {integer} NOT NULL DEFAULT 0,
            PRIMARY KEY (tenant, day)
        )"""
