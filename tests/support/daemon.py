"""Run the real daemon as a subprocess, with a notify socket the test owns."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


class NotifySocket:
    """A bound unix datagram socket standing in for systemd's notify socket."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.messages: list[str] = []

    def wait_for(self, line: str, timeout: float = 20.0) -> list[str]:
        """Read datagrams until one contains ``line``; returns everything read so far."""
        deadline = time.monotonic() + timeout
        while not any(line in m.splitlines() for m in self.messages):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {line!r} on the notify socket; got {self.messages}")
            self.sock.settimeout(left)
            try:
                self.messages.append(self.sock.recv(4096).decode())
            except TimeoutError:
                continue
        return self.messages

    def close(self) -> None:
        self.sock.close()


def write_config(path: Path, tmp: Path, llm_url: str, **extra: Any) -> Path:
    config: dict[str, Any] = {
        "workdir": str(tmp / "workdir"),
        "state_dir": str(tmp / "state"),
        "llm": {"base_url": llm_url, "max_retries": 0},
        "memory": {"embed": False},
        "log": {"format": "json"},
    }
    config.update(extra)
    (tmp / "workdir").mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config))
    return path


def http_token(tmp: Path) -> str:
    """The bearer token a daemon configured by :func:`write_config` generated on its start."""
    return (tmp / "state" / "http.token").read_text().strip()


def auth(tmp: Path) -> dict[str, str]:
    """The ``Authorization`` header for that daemon's HTTP API."""
    return {"Authorization": f"Bearer {http_token(tmp)}"}


@contextmanager
def daemon(
    config: Path, notify: NotifySocket | None = None, env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[str]]:
    environ = {**os.environ, **(env or {})}
    environ.pop("NOTIFY_SOCKET", None)
    if notify is not None:
        environ["NOTIFY_SOCKET"] = str(notify.path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "agentd", "--config", str(config), "run"],
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()


@contextmanager
def ready_daemon(
    config: Path, notify_path: Path, *, timeout: float = 90.0, env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[str]]:
    """A :func:`daemon` that has said ``READY=1`` on a notify socket at ``notify_path``; when
    it does not within ``timeout``, the tail of its output goes to stderr and TimeoutError."""
    notify = NotifySocket(notify_path)
    try:
        with daemon(config, notify, env) as proc:
            try:
                notify.wait_for("READY=1", timeout=timeout)
            except TimeoutError:
                proc.kill()
                assert proc.stdout is not None
                sys.stderr.write(proc.stdout.read()[-4000:])
                raise
            yield proc
    finally:
        notify.close()


def run_cli(config: Path, *args: str, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    """``agentd --config CONFIG ARGS...`` in a subprocess, without an ``$AGENTD_TOKEN``."""
    env = {k: v for k, v in os.environ.items() if k != "AGENTD_TOKEN"}
    return subprocess.run(
        [sys.executable, "-m", "agentd", "--config", str(config), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def stop(proc: subprocess.Popen[str], timeout: float = 30.0) -> None:
    """SIGTERM the daemon and wait until it has exited (its state lock is free then)."""
    proc.terminate()
    proc.wait(timeout=timeout)
