"""A real ``agentd run`` for the benchmarks that drive it over its HTTP API.

:func:`agentd_daemon` writes a config file (the caller's settings plus a temporary workdir and
state dir and the HTTP channel on a free loopback port), starts ``python -m agentd run`` with
``LLAMA_URL`` pointing at a model server the caller started, waits for ``/readyz`` and stops the
daemon on exit. The environment's agentd settings are dropped: they would override the file.
Clients authenticate the way a user does, with the token the daemon generated in its state dir
(:attr:`Daemon.headers`, :attr:`Daemon.token`); the per-token rate limit is off, so the
benchmarks measure the daemon, not the limiter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
from anyio.abc import Process

from agentd.config import ENV_PREFIX, FLAT_ENV
from agentd.daemon.token_file import TOKEN_FILE, read_token
from agentd.model.sidecar import free_port

READY_WITHIN = 120.0


@dataclass(slots=True)
class Daemon:
    """A running ``agentd run``: its API URL, state dir and JSON log (read as it grows)."""

    url: str
    log_path: Path
    workdir: Path
    state_dir: Path
    offset: int = 0
    budget: str = ""
    token: str = ""
    #: The ``agentd run`` process (for a benchmark that kills it).
    process: Process | None = None
    pid: int = 0

    @property
    def headers(self) -> dict[str, str]:
        """The ``Authorization`` header every request to the API needs."""
        return {"Authorization": f"Bearer {self.token}"}

    @property
    def history_path(self) -> Path:
        return self.state_dir / "history.db"

    def new_events(self, watched: Collection[str]) -> list[str]:
        """The ``watched`` events logged since the last call (``context.budget`` is kept aside)."""
        with self.log_path.open("rb") as fh:
            fh.seek(self.offset)
            data = fh.read()
        end = data.rfind(b"\n") + 1
        self.offset += end
        events = []
        for line in data[:end].splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if not isinstance(record, dict):
                continue
            event = record.get("event")
            if event == "context.budget":
                self.budget = f"context {record.get('context')}, reserve {record.get('reserve')}"
            elif event in watched:
                events.append(str(event))
        return events

    def log_tail(self) -> str:
        return self.log_path.read_text(errors="replace")[-2000:]


def child_env(llama_url: str, llama_key: str | None = None) -> dict[str, str]:
    """This environment without agentd settings (they would override the config file), with
    the model server's URL and the key it requires, if any."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(ENV_PREFIX) and k not in FLAT_ENV
    }
    return {**env, "LLAMA_URL": llama_url, **({"LLM_API_KEY": llama_key} if llama_key else {})}


@asynccontextmanager
async def agentd_daemon(
    llama_url: str, tmp: Path, config: dict[str, Any], llama_key: str | None = None
) -> AsyncIterator[Daemon]:
    """`agentd run` with ``config`` and the HTTP channel on a free loopback port; stopped on exit.

    ``llama_key`` is the key the model server at ``llama_url`` requires (a sidecar's ``api_key``).

    ``config`` is the daemon's settings without ``workdir`` and ``state_dir``, which live under
    ``tmp``; its ``channels`` (if any) are enabled beside the HTTP channel. Started again with
    the same ``tmp``, the daemon finds the state it left.
    """
    port = free_port()
    workdir, state_dir = tmp / "workdir", tmp / "state"
    full = {
        **config,
        "workdir": str(workdir),
        "state_dir": str(state_dir),
        "channels": {
            **config.get("channels", {}),
            "http": {"enabled": True, "port": port, "rate_limit": {"requests_per_minute": 0}},
        },
    }
    workdir.mkdir(parents=True, exist_ok=True)
    cfg = tmp / "config.json"
    cfg.write_text(json.dumps(full))
    log_path = tmp / "agentd.log"
    with log_path.open("ab") as sink:
        proc = await anyio.open_process(
            [sys.executable, "-m", "agentd", "--config", str(cfg), "run"],
            env=child_env(llama_url, llama_key),
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    daemon = Daemon(
        url=f"http://127.0.0.1:{port}",
        log_path=log_path,
        workdir=workdir,
        state_dir=state_dir,
        process=proc,
        pid=proc.pid,
    )
    try:
        await _wait_ready(proc, daemon)
        daemon.token = read_token(state_dir / TOKEN_FILE) or ""
        yield daemon
    finally:
        with anyio.CancelScope(shield=True):
            if proc.returncode is None:
                proc.terminate()
                with anyio.move_on_after(30):
                    await proc.wait()
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


async def _wait_ready(proc: Process, daemon: Daemon) -> None:
    async with httpx.AsyncClient(timeout=2) as http:
        deadline = time.monotonic() + READY_WITHIN
        while time.monotonic() < deadline:
            if proc.returncode is not None:
                raise RuntimeError(f"agentd exited with {proc.returncode}:\n{daemon.log_tail()}")
            try:
                if (await http.get(f"{daemon.url}/readyz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await anyio.sleep(0.2)
    raise RuntimeError(f"agentd was not ready within {READY_WITHIN:.0f} s:\n{daemon.log_tail()}")
