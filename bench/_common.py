"""Shared pieces of the benchmarks: a stub server process, percentiles, a table printer, a stop
on SIGINT/SIGTERM."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import anyio

HERE = Path(__file__).resolve().parent


class SignalStop:
    """Cancels a scope on SIGINT or SIGTERM and remembers that it did (the bench then prints
    what it has instead of losing the run)."""

    def __init__(self) -> None:
        self.stopped = False

    async def watch(self, scope: anyio.CancelScope) -> None:
        with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for _ in signals:
                self.stopped = True
                scope.cancel()
                return


@contextmanager
def stub_server(latency_ms: float = 0.0) -> Iterator[str]:
    """Start bench/stubserver.py in its own process; yields its base URL."""
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "stubserver.py"), "--latency-ms", str(latency_ms)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().split()
        if not line or line[0] != "PORT":
            raise RuntimeError("the stub server did not start")
        yield f"http://127.0.0.1:{line[1]}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def pct(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) of values, nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [[str(c) for c in header]] + [[_fmt(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = [
        "  ".join(
            c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 100 else f"{value:,.0f}"
    return str(value)
