"""``agentd sessions list|show|clear`` against a history file, per tenant.

Commands run in this process through the real parser (logs captured); one test runs the whole
CLI as a subprocess, since ``main()`` configures logging for its process.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest
from structlog.testing import capture_logs

from agentd import scope as scopes
from agentd.cli.main import _parser
from agentd.cli.sessions import run_sessions
from agentd.config import Settings
from agentd.memory.history import SQLiteHistory
from agentd.messages import ToolCall, assistant, tool_result, user
from tests.support.stub_llm import StubLLM


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


Agentd = Callable[..., Result]


@pytest.fixture
def agentd(capsys: pytest.CaptureFixture[str]) -> Agentd:
    def run(db: Path, *args: str) -> Result:
        parsed = _parser().parse_args(["sessions", *args])
        settings = Settings(history={"path": db})
        with capture_logs():
            code = anyio.run(run_sessions, settings, parsed)
        out = capsys.readouterr()
        return Result(code, out.out, out.err)

    return run


def test_the_cli_runs_sessions_list(history_db: Path) -> None:
    """`agentd sessions list` works end to end with HISTORY_DB."""
    proc = subprocess.run(
        [sys.executable, "-m", "agentd", "sessions", "list"],
        env={**os.environ, "HISTORY_DB": str(history_db)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert [line.split()[0] for line in proc.stdout.splitlines()] == ["other", "chat"]


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


def test_list_shows_the_default_tenants_sessions(history_db: Path, agentd: Agentd) -> None:
    """list prints each session of the tenant with its message count, newest first."""
    proc = agentd(history_db, "list")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split()[:2] for line in lines] == [["other", "1"], ["chat", "4"]]


def test_tenant_flag_selects_another_tenant(history_db: Path, agentd: Agentd) -> None:
    """--tenant shows that tenant's sessions and only those."""
    proc = agentd(history_db, "list", "--tenant", "acme")
    assert [line.split()[0] for line in proc.stdout.splitlines()] == ["acme-chat"]
    proc = agentd(history_db, "show", "chat", "--tenant", "acme")
    assert proc.returncode == 0 and "no messages" in proc.stdout


def test_show_prints_messages_and_limit(history_db: Path, agentd: Agentd) -> None:
    """show prints roles, tool calls and results in order; --limit keeps the newest N."""
    assert agentd(history_db, "show", "chat").stdout.splitlines() == [
        "[user] hi",
        "[assistant -> current_time({})]",
        "[tool current_time] noon",
        "[assistant] ok",
    ]
    proc = agentd(history_db, "show", "chat", "--limit", "1")
    assert proc.stdout.splitlines() == ["[assistant] ok"]


def test_clear_deletes_one_session(history_db: Path, agentd: Agentd) -> None:
    """clear removes the session's messages and leaves the others."""
    proc = agentd(history_db, "clear", "chat")
    assert proc.returncode == 0 and "4 messages" in proc.stdout
    assert [line.split()[0] for line in agentd(history_db, "list").stdout.splitlines()] == ["other"]


def test_corrupt_row_is_reported_without_content(history_db: Path, agentd: Agentd) -> None:
    """show on a session with a corrupt row exits 1 naming the row, not printing it."""
    with closing(sqlite3.connect(history_db)) as db, db:
        db.execute("UPDATE messages SET body = 'secret-text{' WHERE session_id = 'other'")
    proc = agentd(history_db, "show", "other")
    assert proc.returncode == 1
    assert "stored row" in proc.stderr and "secret-text" not in proc.stderr + proc.stdout


def test_show_says_how_full_the_context_was(
    tmp_path: Path, stub_llm: StubLLM, agentd: Agentd
) -> None:
    """After a turn, `sessions show` ends with the prompt tokens of the last turn and the
    model's context, as the daemon counted them."""
    from agentd.daemon.app import open_app

    settings = Settings(
        workdir=tmp_path / "wd", state_dir=tmp_path / "state",
        llm={"base_url": stub_llm.url, "max_retries": 0}, memory={"embed": False},
    )  # fmt: skip
    settings.workdir.mkdir()

    async def turn() -> int:
        async with open_app(settings) as app:
            await app.runtime.ask("s", "hello")
            return app.runtime.status("s").context_tokens

    tokens = anyio.run(turn)
    assert tokens > 0
    lines = agentd(settings.history_path, "show", "s").stdout.splitlines()
    share = round(100 * tokens / 4096)
    assert lines[-1] == f"(context last turn: {tokens:,} of 4,096 tokens, {share}%)"


def test_bad_tenant_name_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """--tenant with a name outside the tenant pattern is a usage error (exit 2), naming it."""
    with pytest.raises(SystemExit) as exited:
        _parser().parse_args(["sessions", "list", "--tenant", "a b"])
    assert exited.value.code == 2 and "not a tenant name" in capsys.readouterr().err
