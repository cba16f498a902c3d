"""Run a sidecar from settings given as JSON, print the server's pid, wait to be killed.

python -m tests.support.sidecar_helper '{"state_dir": "...", "llm": {...}}'
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import anyio

from agentd.config import Settings
from agentd.daemon.logging import configure
from agentd.model.sidecar import open_sidecar


async def _main(raw: str) -> None:
    configure(level="warning", fmt="console", stream=sys.stderr)
    settings = Settings(**json.loads(raw))
    async with open_sidecar(settings) as sidecar:
        sys.stdout.write(f"{sidecar.pid}\n")
        sys.stdout.flush()
        await anyio.sleep_forever()


def process_gone(pid: int) -> bool:
    """True when ``pid`` no longer runs (absent, or a zombie no one has reaped yet)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def wait_gone(pid: int, within: float) -> bool:
    """Poll until ``pid`` is gone; False if it still runs after ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if process_gone(pid):
            return True
        time.sleep(0.05)
    return process_gone(pid)


def assert_dies_with_owner(settings: Settings, within: float) -> None:
    """Start a sidecar in a child process, SIGKILL the child: llama-server must go too."""
    import subprocess

    server_pid = 0
    with subprocess.Popen(
        [sys.executable, "-m", "tests.support.sidecar_helper", settings.model_dump_json()],
        stdout=subprocess.PIPE,
        text=True,
    ) as owner:
        try:
            assert owner.stdout is not None
            server_pid = int(owner.stdout.readline())
            assert not process_gone(server_pid)
            owner.kill()
            owner.wait()
            assert wait_gone(server_pid, within), "llama-server outlived its owner"
        finally:
            owner.kill()
            if server_pid:
                kill_quietly(server_pid)


def kill_quietly(pid: int) -> None:
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass


if __name__ == "__main__":
    anyio.run(_main, sys.argv[1])
