"""Three real `agentd run` daemons on one PostgreSQL: one set of sessions, served by all three.

A load generator sends numbered messages to overlapping sessions through every daemon at once
(two writers per session, each through a different daemon for every message). The stub model
answers ``re <message> after <n>`` where ``n`` counts the user messages it was sent: a daemon that
answered from a stale copy of a session would send fewer than the history holds. Then one daemon
is killed with SIGKILL in the middle of a turn: its session lock goes with its connection and the
session goes on through another daemon. Every daemon runs the same cron job on the shared tick
log: each tick runs once.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from agentd.model.sidecar import free_port
from tests.support.daemon import NotifySocket, auth, daemon, write_config
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.timeout(150)

DAEMONS = 3
SESSIONS = 6
WRITERS = 2  # per session, each through another daemon for every message
PER_WRITER = 8


def _answer(body: dict[str, Any]) -> Reply:
    users = [m["content"] for m in body["messages"] if m["role"] == "user"]
    last = users[-1] if users else ""
    if last == "BEAT":
        return Reply(text="HEARTBEAT_OK")
    delay = 30.0 if last.endswith("slow") else 0.01
    return Reply(text=f"re {last} after {len(users)}", delay=delay)


def _history(url: str) -> dict[str, list[tuple[str, str]]]:
    """Every HTTP session's stored (role, content), in order, read from PostgreSQL directly."""
    import asyncpg

    async def read() -> list[Any]:
        conn = await asyncpg.connect(url)
        try:
            return list(await conn.fetch("SELECT session_id, body FROM messages ORDER BY id"))
        finally:
            await conn.close()

    out: dict[str, list[tuple[str, str]]] = {}
    for session, body in asyncio.run(read()):
        if not session.startswith("http:"):
            continue  # the cron job's sessions
        session = session.removeprefix("http:")
        row = json.loads(body)
        out.setdefault(session, []).append((row["role"], row["content"]))
    return out


def _ticks(url: str) -> list[tuple[str, str]]:
    import asyncpg

    async def read() -> list[Any]:
        conn = await asyncpg.connect(url)
        try:
            return list(
                await conn.fetch("SELECT scheduled_for, status FROM cron_ticks WHERE job = 'beat'")
            )
        finally:
            await conn.close()

    return [(r[0], r[1]) for r in asyncio.run(read())]


class Replica:
    def __init__(self, root: Path, llm_url: str, pg_url: str) -> None:
        self.root = root
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.config = write_config(
            root / "config.json",
            root,
            llm_url,
            channels={
                "http": {
                    "enabled": True,
                    "port": self.port,
                    "rate_limit": {"requests_per_minute": 0},  # the load generator is one token
                }
            },
            history={"url": pg_url},
            cron={"jobs": [{"name": "beat", "schedule": "1s", "prompt": "BEAT"}]},
        )
        self.notify = NotifySocket(root / "notify.sock")

    def headers(self) -> dict[str, str]:
        return auth(self.root)

    def chat(self, session: str, text: str, **headers: str) -> str:
        answer = httpx.post(
            f"{self.url}/v1/chat/completions",
            json={"model": "agentd", "messages": [{"role": "user", "content": text}]},
            headers={**self.headers(), "X-Session-Id": session, **headers},
            timeout=60,
        )
        answer.raise_for_status()
        content: str = answer.json()["choices"][0]["message"]["content"]
        return content


def test_three_daemons_serve_one_set_of_sessions(
    stub_llm: StubLLM, tmp_path: Path, pg_url: str
) -> None:
    """No message lost or doubled, each reply after its own message from a fresh context; a
    SIGKILLed daemon's session goes on elsewhere; an Idempotency-Key holds across daemons;
    each cron tick runs once."""
    stub_llm.fallback = _answer
    replicas = [Replica(tmp_path / f"d{i}", stub_llm.url, pg_url) for i in range(DAEMONS)]
    with ExitStack() as stack:
        procs = [stack.enter_context(daemon(r.config, r.notify)) for r in replicas]
        for replica in replicas:
            replica.notify.wait_for("READY=1", timeout=60)
            stack.callback(replica.notify.close)

        def writer(session: int, writer: int) -> list[str]:
            replies = []
            for n in range(PER_WRITER):
                replica = replicas[(session + writer + n) % DAEMONS]
                replies.append(replica.chat(f"s{session}", f"s{session}-w{writer}-m{n}"))
            return replies

        started = time.monotonic()
        with ThreadPoolExecutor(SESSIONS * WRITERS) as pool:
            jobs = [pool.submit(writer, s, w) for s in range(SESSIONS) for w in range(WRITERS)]
            replies = [job.result() for job in jobs]
        seconds = time.monotonic() - started

        sent = SESSIONS * WRITERS * PER_WRITER
        history = _history(pg_url)
        stored = Counter(c for rows in history.values() for role, c in rows if role == "user")
        expected = {f"s{s}-w{w}-m{n}" for s in range(SESSIONS) for w in range(WRITERS)
                    for n in range(PER_WRITER)}  # fmt: skip
        lost = expected - set(stored)
        doubled = {m for m, count in stored.items() if count > 1}
        print(  # noqa: T201 - the numbers the report quotes
            f"\nreplicas: {DAEMONS} daemons, {SESSIONS} sessions, {sent} messages in "
            f"{seconds:.1f} s ({sent / seconds:.1f} turns/s), lost {len(lost)}, "
            f"doubled {len(doubled)}"
        )
        assert not lost and not doubled
        for session, rows in history.items():
            users = 0
            for i, (role, content) in enumerate(rows):
                if role == "user":
                    users += 1
                    # Its own answer follows at once, from a context with every earlier message.
                    assert rows[i + 1] == ("assistant", f"re {content} after {users}"), session
            # Each writer's messages stay in the order it sent them.
            for w in range(WRITERS):
                mine = [c for r, c in rows if r == "user" and f"-w{w}-" in c]
                assert mine == [f"{session}-w{w}-m{n}" for n in range(PER_WRITER)]
        assert all(r.startswith("re ") for batch in replies for r in batch)

        # An Idempotency-Key sent to two daemons: one stored message, the same answer.
        first = replicas[0].chat("idem", "pay once", **{"Idempotency-Key": "k-1"})
        again = replicas[1].chat("idem", "pay once", **{"Idempotency-Key": "k-1"})
        assert first == again == "re pay once after 1"
        assert [c for r, c in _history(pg_url)["idem"] if r == "user"] == ["pay once"]

        # SIGKILL a daemon in the middle of a turn: its lock goes, the session goes on.
        victim, other = replicas[2], replicas[0]
        with ThreadPoolExecutor(1) as pool:
            pending = pool.submit(victim.chat, "s0", "s0-slow")
            deadline = time.monotonic() + 20
            while not any(
                m["content"] == "s0-slow" for r in list(stub_llm.requests)
                for m in r["messages"][-1:]
            ):  # fmt: skip
                assert time.monotonic() < deadline, "the slow turn never reached the model"
                time.sleep(0.05)
            os.kill(procs[2].pid, signal.SIGKILL)
            procs[2].wait(timeout=10)
            with pytest.raises(httpx.HTTPError):
                pending.result(timeout=30)
        killed = time.monotonic()
        after = other.chat("s0", "s0-after-kill")
        waited = time.monotonic() - killed
        print(f"after SIGKILL: the session answered again in {waited:.2f} s")  # noqa: T201
        rows = _history(pg_url)["s0"]
        assert ("user", "s0-slow") in rows  # stored before the model call; never answered
        assert rows[-2:] == [("user", "s0-after-kill"), ("assistant", after)]
        assert after.startswith("re s0-after-kill after ")
        assert waited < 10

        # Every daemon ran the 1 s cron job on the shared tick log: each tick ran once.
        ticks = _ticks(pg_url)
        beats = sum(
            1 for r in stub_llm.requests
            if [m["content"] for m in r["messages"] if m["role"] == "user"][-1:] == ["BEAT"]
        )  # fmt: skip
        ran = [t for t in ticks if t[1] in ("ok", "running", "error")]
        assert len({t[0] for t in ticks}) == len(ticks) and ticks
        # A tick whose run the SIGKILL cut off is left 'running', whether or not it had
        # reached the model yet; none ran twice.
        done = [t for t in ticks if t[1] in ("ok", "error")]
        assert len(done) <= beats <= len(ran), (beats, ticks)
