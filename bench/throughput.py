"""Throughput: many concurrent sessions against an instant (0 ms) stub model.

Each session runs several turns one after another through ``Runtime.turn`` (the path every
channel takes); all sessions run at once. Prints turns/s, per-turn latency p50/p99 and the CPU
seconds agentd spent per turn (the stub runs in its own process and is not counted).

    python -m bench.throughput [--turns 20] [--sessions 1,16,64,256]
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import anyio

from agentd.cli.run import event_loop_options
from agentd.config import Settings
from agentd.engine.runtime import Runtime
from bench._common import pct, stub_server, table


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _session(runtime: Runtime, sid: str, turns: int, latencies: list[float]) -> None:
    for i in range(turns):
        started = time.perf_counter()
        async with runtime.turn(sid, f"message {i}", stream=False) as events:
            async for _ in events:
                pass
        latencies.append(time.perf_counter() - started)


async def measure(url: str, sessions: int, turns: int) -> tuple[float, float, float, float]:
    from agentd.daemon.app import open_app

    settings = Settings(
        llm={"base_url": url, "max_retries": 0},
        memory={"embed": False},
        default={"max_concurrent_turns": max(64, sessions), "max_messages": 20},
        workdir=Path("/nonexistent-bench-workdir"),
    )
    latencies: list[float] = []
    async with open_app(settings) as app:
        # Warm-up: connections and caches.
        await _session(app.runtime, "warm", 3, [])
        cpu0, t0 = _cpu(), time.perf_counter()
        async with anyio.create_task_group() as tg:
            for s in range(sessions):
                tg.start_soon(_session, app.runtime, f"bench:{s}", turns, latencies)
        elapsed, cpu = time.perf_counter() - t0, _cpu() - cpu0
    total = sessions * turns
    return total / elapsed, pct(latencies, 50) * 1000, pct(latencies, 99) * 1000, cpu / total * 1000


async def direct(url: str, sessions: int, turns: int) -> float:
    """The same number of chat requests sent straight to the stub: turns/s."""
    import httpx

    from agentd.model.transport import ShardedTransport

    body = {"model": "local", "messages": [{"role": "user", "content": "message"}]}
    async with httpx.AsyncClient(
        transport=ShardedTransport(shards=8, connections_per_shard=32)
    ) as http:

        async def one() -> None:
            for _ in range(turns):
                (await http.post(f"{url}/v1/chat/completions", json=body)).json()

        t0 = time.perf_counter()
        async with anyio.create_task_group() as tg:
            for _ in range(sessions):
                tg.start_soon(one)
        return sessions * turns / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--sessions", default="1,16,64,256")
    args = parser.parse_args()
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    rows = []
    with stub_server(0) as url:
        for n in (int(x) for x in args.sessions.split(",")):
            opts = event_loop_options()
            rate, p50, p99, cpu = anyio.run(measure, url, n, args.turns, backend_options=opts)
            base = anyio.run(direct, url, n, args.turns, backend_options=opts)
            rows.append((n, n * args.turns, rate, base, rate / base, p50, p99, cpu))
    print("throughput: Runtime.turn against the 0-ms stub (stub in its own process)")
    header = (
        "sessions",
        "turns",
        "turns/s",
        "direct req/s",
        "ratio",
        "p50 ms",
        "p99 ms",
        "cpu ms/turn",
    )
    print(table(header, rows))
    print("direct: the same requests straight to the stub with httpx, no agentd (the ceiling)")


if __name__ == "__main__":
    main()
