"""Idle connections against a real `agentd run`: does the API still answer? (issue #15, 4)

Starts the stub model server and a daemon (HTTP channel on a free loopback port, a generated
token), opens ``--idle`` TCP connections that send nothing, holds them ``--hold`` seconds and,
once a second, sends ``GET /healthz`` and an authenticated chat completion on fresh
connections. Prints the status codes seen. ``--daemon-pythonpath`` runs the daemon from another
source tree (e.g. an older commit exported with ``git archive``), for before/after numbers.

    python -m bench.idle_flood [--idle 2000] [--hold 30]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import anyio
import httpx
from anyio.abc import SocketStream

from agentd.daemon.token_file import TOKEN_FILE, read_token
from agentd.model.sidecar import free_port
from bench._common import stub_server


async def _open_idle(port: int, count: int) -> list[SocketStream]:
    streams: list[SocketStream] = []
    limiter = anyio.CapacityLimiter(100)

    async def one() -> None:
        async with limiter:
            try:
                streams.append(await anyio.connect_tcp("127.0.0.1", port))
            except OSError:
                pass

    async with anyio.create_task_group() as tg:
        for _ in range(count):
            tg.start_soon(one)
    return streams


async def _flood(
    url: str, port: int, token: str, idle: int, hold: float
) -> dict[str, Counter[str]]:
    seen: dict[str, Counter[str]] = {"healthz": Counter(), "chat": Counter()}
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = {"messages": [{"role": "user", "content": "hi"}]}
    streams = await _open_idle(port, idle)
    print(f"idle connections opened by the client: {len(streams)}", flush=True)
    deadline = time.monotonic() + hold
    try:
        while time.monotonic() < deadline:
            # A fresh connection per sample, as a new client would make.
            async with httpx.AsyncClient(base_url=url, timeout=10) as http:
                for name, call in (
                    ("healthz", lambda: http.get("/healthz")),
                    ("chat", lambda: http.post("/v1/chat/completions", json=body, headers=headers)),
                ):
                    try:
                        seen[name][str((await call()).status_code)] += 1
                    except httpx.HTTPError as exc:
                        seen[name][type(exc).__name__] += 1
            await anyio.sleep(1.0)
    finally:
        for stream in streams:
            await stream.aclose()
    return seen


def _wait_ready(url: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"agentd exited with {proc.returncode}")
        try:
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError("agentd was not ready within 60 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--idle", type=int, default=2000)
    parser.add_argument("--hold", type=float, default=30.0)
    parser.add_argument("--daemon-pythonpath", help="run the daemon from this source tree")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, args.idle + 256)), hard))
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTD_")}
    if args.daemon_pythonpath:
        env["PYTHONPATH"] = args.daemon_pythonpath
    with tempfile.TemporaryDirectory() as tmp_name, stub_server() as llm_url:
        tmp = Path(tmp_name)
        port = free_port()
        config = {
            "workdir": str(tmp / "workdir"),
            "state_dir": str(tmp / "state"),
            "llm": {"base_url": llm_url, "max_retries": 0},
            "memory": {"embed": False},
            "log": {"level": "warning"},
            "channels": {"http": {"enabled": True, "port": port}},
        }
        (tmp / "workdir").mkdir()
        (tmp / "config.json").write_text(json.dumps(config))
        proc = subprocess.Popen(
            [sys.executable, "-m", "agentd", "--config", str(tmp / "config.json"), "run"],
            env=env,
            # Not this checkout: ``python -m`` puts the working directory first on sys.path.
            cwd=tmp,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_ready(url, proc)
            token = read_token(tmp / "state" / TOKEN_FILE) or ""
            seen = anyio.run(_flood, url, port, token, args.idle, args.hold)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print(f"idle_flood: {args.idle} idle connections held {args.hold:.0f} s, one sample a second")
    for name, counts in seen.items():
        print(f"  {name:8} {dict(sorted(counts.items()))}")


if __name__ == "__main__":
    main()
