"""Benchmark of the durable history store: appends per second and the load of a long session.

Run: ``.venv/bin/python bench/history.py [--messages 1000] [--appends 2000]``. Prints one table
per ``history.synchronous`` setting. Every number is a median of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import structlog

from agentd import scope as scopes
from agentd.memory.history import SQLiteHistory, Synchronous
from agentd.messages import Message, assistant, user

CONCURRENT_SESSIONS = 50


def _message(i: int) -> Message:
    text = f"message {i}: " + "some ordinary words of a chat turn " * 6
    return user(text) if i % 2 == 0 else assistant(text)


async def _timed(fn: Callable[[], Awaitable[object]]) -> float:
    started = time.perf_counter()
    await fn()
    return time.perf_counter() - started


async def _bench(
    path: Path, sync: Synchronous, n_messages: int, n_appends: int, repeat: int
) -> list[str]:
    rows: list[str] = []
    async with SQLiteHistory.open(path, synchronous=sync) as store:
        with scopes.use(scopes.Scope()):

            async def sequential() -> None:
                for i in range(n_appends):
                    await store.save_conversation("seq", [_message(i)])

            seconds = await _timed(sequential)
            rows.append(f"{'append, 1 message, sequential':<44} {n_appends / seconds:>10.0f} /s")

            per_session = max(1, n_appends // CONCURRENT_SESSIONS // 2)

            async def one_session(n: int) -> None:
                for i in range(per_session):
                    await store.save_conversation(f"c{n}", [_message(2 * i), _message(2 * i + 1)])

            async def concurrent() -> None:
                async with anyio.create_task_group() as tg:
                    for n in range(CONCURRENT_SESSIONS):
                        tg.start_soon(one_session, n)

            seconds = await _timed(concurrent)
            total = CONCURRENT_SESSIONS * per_session * 2
            label = f"append, 2-message turns, {CONCURRENT_SESSIONS} sessions at once"
            rows.append(f"{label:<44} {total / seconds:>10.0f} msg/s")

            batch = [_message(i) for i in range(n_messages)]
            for start in range(0, n_messages, 100):
                await store.save_conversation("long", batch[start : start + 100])
            for name, load in (
                ("load_conversation", lambda: store.load_conversation("long")),
                ("resume (hydrate)", lambda: store.resume("long")),
            ):
                times = [await _timed(load) for _ in range(repeat)]
                ms = statistics.median(times) * 1000
                rows.append(f"{f'{name}, {n_messages} messages':<44} {ms:>10.2f} ms")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    for sync in ("NORMAL", "FULL"):
        with tempfile.TemporaryDirectory() as tmp:
            rows = anyio.run(
                _bench, Path(tmp) / "h.db", sync, args.messages, args.appends, args.repeat
            )
        print(f"\nhistory.synchronous = {sync}")
        print(f"{'measure':<44} {'value':>10}")
        print("-" * 60)
        for row in rows:
            print(row)


if __name__ == "__main__":
    main()
