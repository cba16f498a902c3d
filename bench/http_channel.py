"""Benchmark of the HTTP channel: per-turn overhead and throughput against the stub LLM.

Run: ``.venv/bin/python bench/http_channel.py [--latency 0.05] [--turns 100] [--sessions 100]``.

Overhead: the same chat request sent straight to the stub LLM vs through agentd's API (which
itself calls the stub once), sequentially, non-streaming and streaming; the ratio is what
DESIGN.md section 11 targets (<= 1.05 on the stub's latency). Throughput: ``--sessions``
concurrent sessions, each running turns for ``--seconds``, instant stub.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import structlog

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentd.config import AgentDefaults, Settings
from agentd.engine.loop import AgentLoop
from agentd.engine.runtime import Runtime
from agentd.model.client import open_client
from agentd.tools.registry import ToolRegistry
from tests.support.http_channel import serving
from tests.support.stub_llm import running_stub

BODY = {"model": "stub", "messages": [{"role": "user", "content": "hello there"}]}


async def _one(http: httpx.AsyncClient, url: str, stream: bool, session: str | None) -> None:
    body: dict[str, Any] = {**BODY, "stream": stream}
    headers = {"X-Session-Id": session} if session else {}
    if stream:
        async with http.stream("POST", url, json=body, headers=headers) as response:
            async for _ in response.aiter_raw():
                pass
            assert response.status_code == 200
    else:
        response = await http.post(url, json=body, headers=headers)
        assert response.status_code == 200, response.text


async def _sequential(http: httpx.AsyncClient, url: str, stream: bool, turns: int) -> float:
    times = []
    for _ in range(turns):
        started = time.perf_counter()
        await _one(http, url, stream, None)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


async def _throughput(http: httpx.AsyncClient, url: str, sessions: int, seconds: float) -> float:
    done = 0
    deadline = time.perf_counter() + seconds

    async def session(i: int) -> None:
        nonlocal done
        while time.perf_counter() < deadline:
            await _one(http, url, i % 2 == 1, f"bench-{i}")
            done += 1

    started = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for i in range(sessions):
            tg.start_soon(session, i)
    return done / (time.perf_counter() - started)


async def main(args: argparse.Namespace) -> None:
    limits = httpx.Limits(max_connections=args.sessions + 8)
    rows: list[tuple[str, str, str, str]] = []
    with running_stub(latency=args.latency) as stub:
        settings = Settings(llm={"base_url": stub.url, "max_retries": 0})  # type: ignore[arg-type]
        async with open_client(settings) as llm:
            defaults = AgentDefaults(max_concurrent_turns=64)
            async with (
                Runtime(
                    AgentLoop(llm, ToolRegistry()), system_prompt="", defaults=defaults
                ) as runtime,
                serving(runtime) as channel,
                httpx.AsyncClient(limits=limits, timeout=60) as http,
            ):
                direct = f"{stub.url}/v1/chat/completions"
                agent = f"{channel.url}/v1/chat/completions"
                for stream in (False, True):
                    await _sequential(http, agent, stream, 5)  # warm-up
                    base = await _sequential(http, direct, stream, args.turns)
                    through = await _sequential(http, agent, stream, args.turns)
                    mode = "stream" if stream else "json"
                    rows.append(
                        (
                            f"sequential {mode}",
                            f"{base * 1000:.2f} ms",
                            f"{through * 1000:.2f} ms",
                            f"{through / base:.3f}x",
                        )
                    )
                stub.latency = 0.0
                rate = await _throughput(http, agent, args.sessions, args.seconds)
                rows.append(
                    (f"{args.sessions} sessions, instant stub", "", f"{rate:.0f} turns/s", "")
                )
    print(f"stub latency {args.latency * 1000:.0f} ms, median of {args.turns} turns")
    print(f"{'case':<32} {'stub direct':>12} {'via agentd':>14} {'ratio':>8}")
    for case, base_s, through_s, ratio in rows:
        print(f"{case:<32} {base_s:>12} {through_s:>14} {ratio:>8}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=5.0)
    logging.disable(logging.INFO)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    anyio.run(main, parser.parse_args())
