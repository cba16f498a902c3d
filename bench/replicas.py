"""Benchmark of replicas: turns/s with 1, 2 and 3 daemons on one PostgreSQL, and the history's
write rate on PostgreSQL vs SQLite.

Run: ``.venv/bin/python -m bench.replicas [--turns 300] [--clients 12] [--url postgresql://...]``.
Without ``--url`` a throwaway PostgreSQL is started (Debian's ``postgresql`` package, as the
tests do) with ``synchronous_commit=off``: like SQLite's ``synchronous=NORMAL`` in WAL mode, a
commit does not wait for its fsync (a crash of agentd loses nothing; a power loss may lose the
last commits). The model is the stub server (no latency): the numbers are agentd's and PostgreSQL's
own cost per turn. CPU is the whole machine's (``/proc/stat``) while the turns run: on a small
machine the daemons, PostgreSQL, the stub and this client share the cores, so more daemons
cannot go faster than the cores allow.
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import anyio
import httpx
import structlog

from agentd import scope as scopes
from agentd.memory.history import SQLiteHistory
from agentd.memory.pg_history import PgHistory
from agentd.messages import Message, assistant, user
from bench._common import stub_server, table
from bench._daemon import Daemon, agentd_daemon

SESSIONS = 24
CONCURRENT_SESSIONS = 50


def _cpu() -> tuple[int, int]:
    """(busy, total) jiffies of all cores."""
    with open("/proc/stat", encoding="ascii") as fh:
        fields = [int(x) for x in fh.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


@asynccontextmanager
async def _database(url: str | None) -> AsyncIterator[Callable[[], str]]:
    """A factory of fresh database URLs: on ``url``'s server, or a throwaway PostgreSQL."""
    if url is not None:
        import asyncpg

        async def create() -> str:
            name = f"bench_{os.urandom(4).hex()}"
            conn = await asyncpg.connect(url)
            try:
                await conn.execute(f'CREATE DATABASE "{name}"')
            finally:
                await conn.close()
            return url.rsplit("/", 1)[0] + "/" + name

        names: list[str] = []

        def sync_create() -> str:
            import asyncio

            names.append(asyncio.run(create()))
            return names[-1]

        yield sync_create
        return
    from tests.support.postgres import PostgresServer, server_bindir

    bindir = server_bindir()
    if bindir is None:
        raise SystemExit("PostgreSQL is not installed (apt-get install postgresql) and no --url")
    server = PostgresServer(bindir, durable=True)
    server.start()
    try:
        yield server.create_database
    finally:
        server.stop()


async def _turns(daemons: list[Daemon], turns: int, clients: int) -> tuple[float, float]:
    """Send ``turns`` turns from ``clients`` at once, round robin over daemons and sessions;
    returns (turns per second, CPU busy %)."""
    next_turn = 0

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal next_turn
        while next_turn < turns:
            n = next_turn
            next_turn += 1
            daemon = daemons[n % len(daemons)]
            answer = await http.post(
                f"{daemon.url}/v1/chat/completions",
                json={"model": "agentd", "messages": [{"role": "user", "content": f"m{n}"}]},
                headers={**daemon.headers, "X-Session-Id": f"s{n % SESSIONS}"},
            )
            answer.raise_for_status()

    busy0, total0 = _cpu()
    started = time.perf_counter()
    limits = httpx.Limits(max_connections=clients * 2)
    async with (
        httpx.AsyncClient(timeout=60, limits=limits) as http,
        anyio.create_task_group() as tg,
    ):
        for _ in range(clients):
            tg.start_soon(client, http)
    seconds = time.perf_counter() - started
    busy1, total1 = _cpu()
    return turns / seconds, 100 * (busy1 - busy0) / max(1, total1 - total0)


async def _replicas(
    new_db: Callable[[], str], llm: str, tmp: Path, turns: int, clients: int
) -> list[list[object]]:
    rows: list[list[object]] = []
    for n in (1, 2, 3):
        url = new_db()
        config = {
            "history": {"url": url},
            "memory": {"embed": False},
            "cron": {"enabled": False},
            "log": {"format": "json"},
        }
        async with AsyncExitStack() as stack:
            daemons = [
                await stack.enter_async_context(agentd_daemon(llm, tmp / f"n{n}-d{i}", config))
                for i in range(n)
            ]
            await _turns(daemons, min(30, turns), clients)  # warm up
            rate, cpu = await _turns(daemons, turns, clients)
        rows.append([f"{n} daemon{'s' if n > 1 else ''}", f"{rate:.1f}", f"{cpu:.0f}%"])
    return rows


def _message(i: int) -> Message:
    text = f"message {i}: " + "some ordinary words of a chat turn " * 6
    return user(text) if i % 2 == 0 else assistant(text)


async def _timed(fn: Callable[[], Awaitable[object]]) -> float:
    started = time.perf_counter()
    await fn()
    return time.perf_counter() - started


async def _writes(store: SQLiteHistory | PgHistory, appends: int) -> tuple[float, float]:
    """(sequential appends/s, messages/s of 50 sessions appending pairs at once)."""
    with scopes.use(scopes.Scope()):

        async def sequential() -> None:
            for i in range(appends):
                await store.save_conversation("seq", [_message(i)])

        seq = appends / await _timed(sequential)
        per_session = max(1, appends // CONCURRENT_SESSIONS // 2)

        async def one(n: int) -> None:
            for i in range(per_session):
                await store.save_conversation(f"c{n}", [_message(2 * i), _message(2 * i + 1)])

        async def concurrent() -> None:
            async with anyio.create_task_group() as tg:
                for n in range(CONCURRENT_SESSIONS):
                    tg.start_soon(one, n)

        conc = CONCURRENT_SESSIONS * per_session * 2 / await _timed(concurrent)
    return seq, conc


async def _history(new_db: Callable[[], str], tmp: Path, appends: int) -> list[list[object]]:
    rows: list[list[object]] = []
    async with SQLiteHistory.open(tmp / "history.db") as sqlite:
        seq, conc = await _writes(sqlite, appends)
    rows.append(["SQLite (WAL, NORMAL)", f"{seq:.0f}", f"{conc:.0f}"])
    async with PgHistory.open(new_db()) as pg:
        seq, conc = await _writes(pg, appends)
    rows.append(["PostgreSQL (loopback)", f"{seq:.0f}", f"{conc:.0f}"])
    return rows


async def main(args: argparse.Namespace) -> None:
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    with tempfile.TemporaryDirectory() as tmp, stub_server() as llm:
        async with _database(args.url) as new_db:
            rows = await _replicas(new_db, llm, Path(tmp), args.turns, args.clients)
            print(f"turns/s on one PostgreSQL, stub model, {args.clients} clients, "
                  f"{SESSIONS} sessions, {os.cpu_count()} cores")  # fmt: skip
            print(table(["replicas", "turns/s", "CPU (all cores)"], rows))
            print()
            rows = await _history(new_db, Path(tmp), args.appends)
            print("history writes (messages/s)")
            print(table(["store", "sequential", f"{CONCURRENT_SESSIONS} sessions"], rows))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--clients", type=int, default=12)
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--url", help="a PostgreSQL server URL (a database is created per run)")
    anyio.run(main, parser.parse_args())
