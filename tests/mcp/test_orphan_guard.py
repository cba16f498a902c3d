"""The orphan guard: a command it starts dies with the process that started it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from agentd.mcp.transport import GUARD

# The daemon's own argv for a stdio server (so a server started without the guard fails this).
PARENT = """
import subprocess, time
from agentd.config.mcp import McpServerSettings
from agentd.mcp.transport import stdio_command
argv = stdio_command(McpServerSettings(command="sleep", args=["60"]))
child = subprocess.Popen(argv, start_new_session=True)
print(child.pid, flush=True)
time.sleep(60)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def test_the_command_dies_when_its_parent_is_killed() -> None:
    """SIGKILL of the parent kills the stdio server it started, even one that ignores its
    stdin closing (sleep), as the daemon starts it."""
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    pid = int(parent.stdout.readline())
    deadline = time.monotonic() + 10
    while not _cmdline(pid).startswith(b"sleep"):  # the guard has exec'd the command
        assert time.monotonic() < deadline, "the guard never ran the command"
        time.sleep(0.02)
    parent.kill()
    parent.wait(timeout=10)
    parent.stdout.close()
    deadline = time.monotonic() + 10
    while _alive(pid):
        assert time.monotonic() < deadline, "the guarded command outlived its parent"
        time.sleep(0.02)


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
