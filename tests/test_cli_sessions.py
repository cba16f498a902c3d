"""``agentd sessions list|show|clear`` against a history file, per tenant.

The CLI runs as a subprocess: ``main()`` configures logging for the process, which a test must
not do to the test runner's own process.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import anyio
import pytest

from agentd import scope as scopes
from agentd.memory.history import SQLiteHistory
from agentd.messages import ToolCall, assistant, tool_result, user


def agentd(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agentd", "sessions", *args],
        env={**os.environ, "HISTORY_DB": str(db)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def history_db(tmp_path: Path) -> Path:
    path = tmp_path / "history.db"
    call = ToolCall("c1", "current_time", "{}")

    async def fill() -> None:
        async with SQLiteHistory.open(path) as store:
            with scopes.use(scopes.Scope()):
                await store.save_conversation("chat", [user("hi"), assistant("", [call])])
                await store.save_conversation("chat", [tool_result(call, "noon"), assistant("ok")])
                await store.save_conversation("other", [user("x")])
            with scopes.use(scopes.Scope(tenant="acme")):
                await store.save_conversation("acme-chat", [user("acme only")])

    anyio.run(fill)
    return path


def test_list_shows_the_default_tenants_sessions(history_db: Path) -> None:
    """list prints each session of the tenant with its message count, newest first."""
    proc = agentd(history_db, "list")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split()[:2] for line in lines] == [["other", "1"], ["chat", "4"]]


def test_tenant_flag_selects_another_tenant(history_db: Path) -> None:
    """--tenant shows that tenant's sessions and only those."""
    proc = agentd(history_db, "list", "--tenant", "acme")
    assert [line.split()[0] for line in proc.stdout.splitlines()] == ["acme-chat"]
    proc = agentd(history_db, "show", "chat", "--tenant", "acme")
    assert proc.returncode == 0 and "no messages" in proc.stdout


def test_show_prints_messages_and_limit(history_db: Path) -> None:
    """show prints roles, tool calls and results in order; --limit keeps the newest N."""
    assert agentd(history_db, "show", "chat").stdout.splitlines() == [
        "[user] hi",
        "[assistant -> current_time({})]",
        "[tool current_time] noon",
        "[assistant] ok",
    ]
    proc = agentd(history_db, "show", "chat", "--limit", "1")
    assert proc.stdout.splitlines() == ["[assistant] ok"]


def test_clear_deletes_one_session(history_db: Path) -> None:
    """clear removes the session's messages and leaves the others."""
    proc = agentd(history_db, "clear", "chat")
    assert proc.returncode == 0 and "4 messages" in proc.stdout
    assert [line.split()[0] for line in agentd(history_db, "list").stdout.splitlines()] == ["other"]


def test_corrupt_row_is_reported_without_content(history_db: Path) -> None:
    """show on a session with a corrupt row exits 1 naming the row, not printing it."""
    with closing(sqlite3.connect(history_db)) as db, db:
        db.execute("UPDATE messages SET body = 'secret-text{' WHERE session_id = 'other'")
    proc = agentd(history_db, "show", "other")
    assert proc.returncode == 1
    assert "stored row" in proc.stderr and "secret-text" not in proc.stderr + proc.stdout
