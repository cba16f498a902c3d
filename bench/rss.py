"""Memory: resident set size of the runtime as sessions and turns accumulate.

A child process builds the daemon's App (durable history on, LRU eviction of idle sessions on)
against the 0-ms stub and runs turns, ten per session (20 messages each: user + assistant),
reporting its RSS after 0, 1,000 and 10,000 sessions, then keeps going to 100,000 turns in
all. Flat numbers between the last checkpoints mean no leak.

    python -m bench.rss [--sessions 10000] [--concurrency 32]
"""

from __future__ import annotations

import argparse
import gc
import resource
import tempfile
import time
from pathlib import Path

import anyio

from agentd.config import Settings
from agentd.engine.runtime import Runtime
from bench._common import stub_server, table

TARGET_MB = 200.0
TURNS_PER_SESSION = 10


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        pages = int(fh.read().split()[1])
    return pages * resource.getpagesize() / 1e6


async def _turns(runtime: Runtime, ids: range, done: list[int]) -> None:
    for sid in ids:
        for turn in range(TURNS_PER_SESSION):
            text = f"message {turn} of session {sid}"
            async with runtime.turn(f"bench:{sid}", text) as stream:
                async for _ in stream:
                    pass
            done[0] += 1


async def run(url: str, sessions: int, concurrency: int, embed: bool) -> list[tuple[object, ...]]:
    from agentd.daemon.app import open_app

    rows: list[tuple[object, ...]] = []
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            workdir=Path(tmp) / "workdir",
            state_dir=Path(tmp) / "state",
            llm={"base_url": url},
            memory={"embed": embed},
        )
        async with open_app(settings) as app:
            gc.collect()
            rows.append((0, 0, len(app.runtime.sessions), rss_mb()))
            done = [0]
            started = time.perf_counter()
            checkpoints = sorted({min(1000, sessions), sessions})
            first = 0
            for point in checkpoints:
                per = max(1, (point - first) // concurrency)
                async with anyio.create_task_group() as tg:
                    for start in range(first, point, per):
                        tg.start_soon(
                            _turns, app.runtime, range(start, min(point, start + per)), done
                        )
                first = point
                gc.collect()
                rows.append((point, done[0], len(app.runtime.sessions), rss_mb()))
            elapsed = time.perf_counter() - started
    print(f"({done[0]} turns in {elapsed:.0f} s, {done[0] / elapsed:.0f} turns/s)")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--embed", action="store_true", help="long-term memory on (Milvus Lite)")
    args = parser.parse_args()
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    with stub_server(0) as url:
        rows = anyio.run(run, url, args.sessions, args.concurrency, args.embed)
    print("rss: resident memory of the runtime (history on, idle sessions evicted)")
    print(table(("sessions", "turns", "in memory", "RSS MB"), rows))
    growth = rows[-1][3] - rows[-2][3]  # type: ignore[operator]
    verdict = "meets" if rows[-1][3] <= TARGET_MB else "MISSES"  # type: ignore[operator]
    print(
        f"RSS after {rows[-1][0]} sessions: {rows[-1][3]:.0f} MB, {verdict} the "
        f"{TARGET_MB:.0f} MB target; growth over the last stretch: {growth:+.1f} MB"
    )


if __name__ == "__main__":
    main()
