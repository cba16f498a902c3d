"""Startup: time from exec of ``agentd run`` to ``READY=1`` on the notify socket.

Each case starts the real daemon several times with a notify socket this script binds, and
reports the median and the best. Cases: without long-term memory, with Milvus Lite, and with the
llama-server sidecar (only when the local model is installed: ``agentd model fetch``).

    python -m bench.startup [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench._common import stub_server, table

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.0


def _once(config: dict[str, Any], tmp: Path, timeout: float) -> float:
    sock_path = tmp / "notify.sock"
    sock_path.unlink(missing_ok=True)
    cfg = tmp / "config.json"
    cfg.write_text(json.dumps(config))
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(sock_path))
        sock.settimeout(timeout)
        env = {**os.environ, "NOTIFY_SOCKET": str(sock_path)}
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "agentd", "--config", str(cfg), "run"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            while b"READY=1" not in sock.recv(4096).split(b"\n"):
                pass
            elapsed = time.perf_counter() - started
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
    return elapsed


def _cases(url: str, tmp: Path) -> list[tuple[str, dict[str, Any], float]]:
    base: dict[str, Any] = {
        "workdir": str(tmp / "workdir"),
        "state_dir": str(tmp / "state"),
        "llm": {"base_url": url},
        "cron": {"jobs": [{"name": "beat", "schedule": "1h", "prompt": "x"}]},
    }
    cases = [("no long-term memory", {**base, "memory": {"embed": False}}, 30.0)]
    cases.append(("Milvus Lite", {**base, "memory": {"embed": True}}, 120.0))
    try:
        from agentd.localmodel import model_installed  # type: ignore[attr-defined]

        if model_installed(tmp / "state"):
            sidecar = {**base, "llm": {"sidecar": {"enabled": True}}, "memory": {"embed": False}}
            cases.append(("llama-server sidecar", sidecar, 300.0))
    except ImportError:
        pass
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rows = []
    with stub_server(0) as url, tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        (tmp / "workdir").mkdir()
        for label, config, timeout in _cases(url, tmp):
            times = [_once(config, tmp, timeout) for _ in range(args.runs)]
            rows.append((label, statistics.median(times), min(times), max(times)))
    print("startup: exec of `agentd run` to READY=1 (seconds)")
    print(table(("case", "median s", "best s", "worst s"), rows))
    verdict = "meets" if rows[0][1] <= TARGET else "MISSES"
    print(f"without Milvus: median {rows[0][1]:.3f} s, {verdict} the {TARGET:.0f} s target")


if __name__ == "__main__":
    main()
