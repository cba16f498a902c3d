"""The orphan guard: a stdio server's whole tree dies with the server and with agentd."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

from agentd.daemon.app import open_app
from agentd.mcp.transport import GUARD
from tests.mcp.conftest import SERVER, app_settings
from tests.support.stub_llm import StubLLM

# The daemon's own argv for a stdio server (so a server started without the guard fails this).
PARENT = """
import subprocess, sys, time
from agentd.config.mcp import McpServerSettings
from agentd.mcp.transport import stdio_command
argv = stdio_command(McpServerSettings(command="sh", args=["-c", sys.argv[1]]))
child = subprocess.Popen(argv, start_new_session=True, stdin=subprocess.PIPE)
print(child.pid, flush=True)
time.sleep(60)
"""
#: A launcher as npx is one: a child in its group, a child that left it (setsid), then a wait.
LAUNCHER = "sleep 300 & echo $! > {pids}.1; setsid sleep 301 & echo $! > {pids}.2; wait"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead too (its parent has not reaped it yet).
    return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()


def _pids(base: Path, count: int) -> list[int]:
    deadline = time.monotonic() + 10
    files = [base.with_name(f"{base.name}.{n}") for n in range(1, count + 1)]
    while not all(f.exists() and f.read_text().strip() for f in files):
        assert time.monotonic() < deadline, "the launcher never started its children"
        time.sleep(0.02)
    return [int(f.read_text()) for f in files]


def _all_die(pids: list[int]) -> None:
    deadline = time.monotonic() + 10
    while any(map(_alive, pids)):
        assert time.monotonic() < deadline, [p for p in pids if _alive(p)]
        time.sleep(0.02)


def test_the_tree_dies_when_its_parent_is_killed(tmp_path: Path) -> None:
    """SIGKILL of agentd kills the server, its child and a child that left its group."""
    launcher = LAUNCHER.format(pids=tmp_path / "pid")
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, launcher], stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    guard = int(parent.stdout.readline())
    children = _pids(tmp_path / "pid", 2)
    parent.kill()
    parent.wait(timeout=10)
    parent.stdout.close()
    _all_die([guard, *children])


@pytest.mark.anyio
async def test_an_orderly_stop_leaves_no_grandchild(tmp_path: Path, stub_llm: StubLLM) -> None:
    """A stdio server that started children and exits on stop leaves none of them behind."""
    launcher = (
        LAUNCHER.format(pids=tmp_path / "pid").removesuffix("; wait")
        + f"; exec {sys.executable} {SERVER} stdio loc"
    )
    settings = app_settings(tmp_path, stub_llm, loc={"command": "sh", "args": ["-c", launcher]})
    async with open_app(settings) as app:
        assert app.mcp is not None and app.mcp.states() == {"loc": "up"}
        children = _pids(tmp_path / "pid", 2)
        assert all(map(_alive, children))
    await anyio.to_thread.run_sync(_all_die, children)


def test_the_guard_refuses_a_parent_already_gone_and_a_missing_command() -> None:
    """A parent pid that is not its parent exits 1; a command that cannot run exits 127."""
    guard = [sys.executable, "-I", "-S", str(GUARD)]
    wrong = subprocess.run([*guard, "1", "true"], capture_output=True, check=False, timeout=30)
    assert wrong.returncode == 1
    missing = subprocess.run(
        [*guard, str(os.getpid()), "/no/such/cmd"], capture_output=True, text=True, timeout=30
    )
    assert missing.returncode == 127
    assert "cannot run /no/such/cmd" in missing.stderr


def test_the_guard_passes_on_the_exit_status() -> None:
    """The command's exit status is the guard's."""
    guard = [sys.executable, "-I", "-S", str(GUARD), str(os.getpid())]
    done = subprocess.run([*guard, "sh", "-c", "exit 7"], capture_output=True, timeout=30)
    assert done.returncode == 7
