"""The tick log's tables, one text for both engines (they differ in the row id's type only).

``migrations(identity)`` is :data:`agentd.cron.ticklog.MIGRATIONS` with ``identity`` as the
``cron_ticks`` id column's type: SQLite's ``INTEGER PRIMARY KEY`` or PostgreSQL's identity.
Append only.
"""

from __future__ import annotations


def migrations(identity: str) -> tuple[tuple[str, ...], ...]:
    """``MIGRATIONS[i]`` moves the tables from schema version ``i`` to ``i + 1``."""
    return (
        (
            f"""
        CREATE TABLE IF NOT EXISTS cron_ticks (
            id            {identity},
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
            # Tasks the agent (or the operator) scheduled: agentd.cron.tasks. Their runs are
            # ticks of the job 'task:<id>' in cron_ticks.
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
        (
            # The history store a task's answer belongs in (agentd.cron.tasks.history_home);
            # NULL for tasks made before it was recorded.
            "ALTER TABLE agent_tasks ADD COLUMN home TEXT",
        ),
    )
