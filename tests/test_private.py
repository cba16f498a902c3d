"""State is private whatever the umask: folders 0700, SQLite's files and context.json 0600."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentd.cron.ticklog import TickLog
from agentd.engine.budget import ContextBudget
from agentd.engine.calibration import save
from agentd.memory.history import SQLiteHistory

pytestmark = pytest.mark.anyio


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The umask of a shell outside systemd: 022."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


async def test_history_files_are_private(tmp_path: Path, open_umask: None) -> None:
    """history.db (made 0644 by an older start), its -wal and -shm end up 0600."""
    path = tmp_path / "state" / "history.db"
    path.parent.mkdir()
    path.touch(mode=0o644)
    async with SQLiteHistory.open(path):
        for suffix in ("", "-wal", "-shm"):
            assert mode(path.with_name(path.name + suffix)) == 0o600, suffix


async def test_a_new_state_folder_is_private(tmp_path: Path, open_umask: None) -> None:
    """The folders made for the tick log are 0700, its files 0600."""
    path = tmp_path / "new" / "state" / "memory.db"
    async with TickLog.open(path):
        pass
    assert mode(path.parent) == mode(path.parent.parent) == 0o700
    assert {mode(p) for p in path.parent.iterdir()} == {0o600}


def test_context_json_is_private(tmp_path: Path, open_umask: None) -> None:
    """The saved context calibration is 0600."""
    path = tmp_path / "context.json"
    save(ContextBudget(context=8192, reserve=512), path, "http://127.0.0.1:1")
    assert path.exists() and mode(path) == 0o600


def test_the_cli_sets_a_private_umask(tmp_path: Path) -> None:
    """Started under umask 022, agentd makes state that only its user can read."""
    state = tmp_path / "state"
    script = (
        "import os, sys; os.umask(0o022); from agentd.cli.main import main; "
        "main(sys.argv[1:]); print(oct(os.umask(0)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "sessions", "list"],
        env={**os.environ, "HOME": str(tmp_path), "AGENTD_STATE_DIR": str(state)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout.strip().endswith("0o77"), done.stdout + done.stderr
    made = [state, *state.rglob("*")]
    assert made and all(mode(p) & 0o077 == 0 for p in made), [(p, oct(mode(p))) for p in made]
