"""Exactly once across SIGKILLs: a real ``agentd run`` answering the fake Telegram Bot API,
killed with SIGKILL at random moments while messages arrive, and started again each time.

Messages keep coming (alive or dead); a killed daemon leaves updates Telegram still offers
(their offset not yet confirmed) and updates its ledger holds unanswered, both replayed at the
next start. At the end every message must be stored once (one user message in the history) and
answered once (one reply reaching the chat):

- ``lost``: a message never stored, or never answered;
- ``dup stored``: a message stored twice (the request key must prevent it);
- ``dup replies``: a message answered twice in the chat (possible only when the kill falls
  between a reply's sending and its recording in the ledger).

Run: .venv/bin/python -m bench.chat_kill [--kills 20] [--seed 1]  (stub model, loopback only)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import anyio

from bench._daemon import Daemon, agentd_daemon
from tests.support.fake_telegram import TOKEN, FakeTelegram, running_fake
from tests.support.stub_llm import running_stub

CHATS = (101, 102, 103)
#: The model's time per answer: long enough that kills land in the middle of turns.
LATENCY = 0.15
SETTLE_WITHIN = 60.0


def config(fake: FakeTelegram) -> dict[str, Any]:
    return {
        "memory": {"embed": False},
        "log": {"format": "json"},
        "channels": {
            "telegram": {
                "enabled": True,
                "token": TOKEN,
                "base_url": fake.url,
                "allow_from": list(CHATS),
                "poll_timeout": 1,
                "backoff_initial": 0.05,
                "backoff_max": 0.2,
            }
        },
    }


def stored(daemon: Daemon) -> Counter[str]:
    """How often each user message is stored in the daemon's history."""
    with sqlite3.connect(daemon.history_path) as db:
        bodies = [json.loads(b) for (b,) in db.execute("SELECT body FROM messages")]
    return Counter(str(b["content"]) for b in bodies if b.get("role") == "user")


def replies(fake: FakeTelegram) -> Counter[str]:
    """How often each answer reached its chat (``<chat> <text>``)."""
    return Counter(f"{p['chat_id']} {p['text']}" for p in fake.sent())


async def kill(daemon: Daemon) -> None:
    assert daemon.process is not None
    os.kill(daemon.process.pid, signal.SIGKILL)
    await daemon.process.wait()


async def run(kills: int, seed: int) -> dict[str, int | float]:
    rng = random.Random(seed)
    sent: list[tuple[int, str]] = []

    def send() -> None:
        chat = rng.choice(CHATS)
        text = f"m{len(sent)}"
        fake.message(chat, text)
        sent.append((chat, text))

    started = time.perf_counter()
    with (
        running_fake() as fake,
        running_stub(latency=LATENCY) as stub,
        tempfile.TemporaryDirectory(prefix="agentd-chat-kill-") as folder,
    ):
        tmp = Path(folder)
        for _ in range(kills):
            async with agentd_daemon(stub.url, tmp, config(fake)) as daemon:
                for _ in range(rng.randint(1, 4)):
                    send()
                    await anyio.sleep(rng.uniform(0, 0.3))
                await anyio.sleep(rng.uniform(0, 0.6))
                await kill(daemon)
            send()  # one more while no daemon runs
        async with agentd_daemon(stub.url, tmp, config(fake)) as daemon:
            deadline = time.monotonic() + SETTLE_WITHIN
            wanted = {f"{chat} echo: {text}" for chat, text in sent}
            # The fake answers in its own threads: nothing to wait on but its state.
            while time.monotonic() < deadline and not wanted <= set(replies(fake)):  # noqa: ASYNC110
                await anyio.sleep(0.1)
            await anyio.sleep(1.0)  # anything still to come (a duplicate) comes now
            in_history = stored(daemon)
    answered = replies(fake)
    texts = [text for _, text in sent]
    return {
        "kills": kills,
        "messages": len(sent),
        "lost stored": sum(1 for t in texts if in_history[t] == 0),
        "dup stored": sum(1 for t in texts if in_history[t] > 1),
        "lost replies": sum(1 for c, t in sent if answered[f"{c} echo: {t}"] == 0),
        "dup replies": sum(1 for c, t in sent if answered[f"{c} echo: {t}"] > 1),
        "other replies": sum(n for r, n in answered.items() if " echo: m" not in r),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = anyio.run(run, args.kills, args.seed)
    print("  ".join(f"{k}: {v}" for k, v in result.items()))


if __name__ == "__main__":
    main()
