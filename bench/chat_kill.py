"""Exactly once across SIGKILLs: a real ``agentd run`` answering a chat platform (the fake
Telegram Bot API, or a real Synapse homeserver), killed with SIGKILL at random moments while
messages arrive, and started again each time.

Messages keep coming (alive or dead); a killed daemon leaves messages the platform still offers
(Telegram's offset or Matrix's sync token not yet confirmed) and messages its ledger holds
unanswered, both replayed at the next start. At the end every message must be stored once (one
user message in the history) and answered once (one reply reaching the chat):

- ``lost``: a message never stored, or never answered;
- ``dup stored``: a message stored twice (the request key must prevent it);
- ``dup replies``: a message answered twice in the chat (on Telegram, possible only when the kill
  falls between a reply's sending and its recording in the ledger; on Matrix the transaction id
  derived from the event answered lets the homeserver drop the repeat).

``turns`` counts the model calls: those above ``messages`` are turns a kill cut off, run again.

Run: .venv/bin/python -m bench.chat_kill [--channel telegram|matrix] [--kills 20] [--seed 1]
(stub model, loopback only; ``matrix`` needs the Synapse virtualenv of ``make synapse``)
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
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, Protocol

import anyio

from bench._daemon import Daemon, agentd_daemon
from tests.support.fake_telegram import TOKEN, running_fake
from tests.support.stub_llm import running_stub

#: The model's time per answer: long enough that kills land in the middle of turns.
LATENCY = 0.15
SETTLE_WITHIN = 60.0
USERS = ("alice", "bob", "carol")


class Platform(Protocol):
    """A chat platform the daemon answers: its config, its chats and what reached them."""

    @property
    def chats(self) -> Sequence[str]: ...

    def config(self) -> dict[str, Any]: ...

    async def joined(self) -> None:
        """Wait until the daemon can be written to (after its first start)."""

    async def send(self, chat: str, text: str) -> None: ...

    async def replies(self) -> Counter[str]:
        """How often each answer reached its chat (``<chat> <text>``)."""


class Telegram:
    """The fake Bot API: three private chats."""

    chats = ("101", "102", "103")

    def __init__(self, url: str, message: Callable[[int, str], object], sent: Callable[[], Any]):
        self.url, self._message, self._sent = url, message, sent

    def config(self) -> dict[str, Any]:
        telegram = {
            "enabled": True,
            "token": TOKEN,
            "base_url": self.url,
            "allow_from": [int(c) for c in self.chats],
            "poll_timeout": 1,
            "backoff_initial": 0.05,
            "backoff_max": 0.2,
        }
        return {"channels": {"telegram": telegram}}

    async def joined(self) -> None:
        return None

    async def send(self, chat: str, text: str) -> None:
        self._message(int(chat), text)

    async def replies(self) -> Counter[str]:
        return Counter(f"{p['chat_id']} {p['text']}" for p in self._sent())


@asynccontextmanager
async def telegram(_: Path) -> AsyncIterator[Platform]:
    with running_fake() as fake:
        yield Telegram(fake.url, fake.message, fake.sent)


class Matrix:
    """A real Synapse: a bot and three users, each in a direct room with it."""

    def __init__(self, url: str, bot: Any, people: dict[str, Any], rooms: dict[str, str]):
        self.url, self.bot, self.people, self.rooms = url, bot, people, rooms
        self.chats = tuple(rooms)

    def config(self) -> dict[str, Any]:
        matrix = {
            "enabled": True,
            "homeserver": self.url,
            "user_id": self.bot.user_id,
            "access_token": self.bot.access_token,
            "allow_from": [p.user.user_id for p in self.people.values()],
            "poll_timeout": 1,
            "backoff_initial": 0.05,
            "backoff_max": 0.2,
        }
        return {"channels": {"matrix": matrix}}

    async def joined(self) -> None:
        from tests.channels.matrix.conftest import wait_joined

        for room, user in self.rooms.items():
            await wait_joined(self.people[user], room, self.bot.user_id)

    async def send(self, chat: str, text: str) -> None:
        await self.people[self.rooms[chat]].send(chat, text)

    async def replies(self) -> Counter[str]:
        answered: Counter[str] = Counter()
        for room, user in self.rooms.items():
            for event in await _timeline(self.people[user].client, room):
                if event.get("sender") == self.bot.user_id and event["type"] == "m.room.message":
                    answered[f"{room} {event['content'].get('body')}"] += 1
        return answered


async def _timeline(client: Any, room: str) -> list[dict[str, Any]]:
    """Every event of ``room``, newest first (paginated back to its creation)."""
    import nio

    events: list[dict[str, Any]] = []
    start = ""
    while True:
        response = await client.room_messages(room, start=start, limit=100)
        assert isinstance(response, nio.RoomMessagesResponse), response
        events.extend(e.source for e in response.chunk)
        if not response.chunk or not response.end:
            return events
        start = response.end


@asynccontextmanager
async def matrix(tmp: Path) -> AsyncIterator[Platform]:
    from tests.channels.matrix.conftest import Person
    from tests.support.synapse import Synapse, missing_reason

    reason = missing_reason()
    if reason is not None:
        raise SystemExit(reason)
    server = Synapse(tmp / "synapse")
    await anyio.to_thread.run_sync(server.start)
    people: dict[str, Any] = {}
    try:
        bot = server.register("bot")
        people = {name: Person(server, server.register(name)) for name in USERS}
        rooms = {await people[name].room(bot.user_id): name for name in USERS}
        yield Matrix(server.url, bot, people, rooms)
    finally:
        for person in people.values():
            await person.aclose()
        await anyio.to_thread.run_sync(server.stop)


PLATFORMS: dict[str, Callable[[Path], AbstractAsyncContextManager[Platform]]] = {
    "telegram": telegram,
    "matrix": matrix,
}


def stored(daemon: Daemon) -> Counter[str]:
    """How often each user message is stored in the daemon's history."""
    with sqlite3.connect(daemon.history_path) as db:
        bodies = [json.loads(b) for (b,) in db.execute("SELECT body FROM messages")]
    return Counter(str(b["content"]) for b in bodies if b.get("role") == "user")


def tally(
    sent: Sequence[tuple[str, str]], in_history: Counter[str], answered: Counter[str]
) -> dict[str, int]:
    """Per message ``(chat, text)`` sent: stored / answered never or more than once; and the
    replies that answer no message sent (``echo: <text>`` is the stub's answer)."""
    texts = [text for _, text in sent]
    wanted = {f"{chat} echo: {text}" for chat, text in sent}
    return {
        "messages": len(sent),
        "lost stored": sum(1 for t in texts if in_history[t] == 0),
        "dup stored": sum(1 for t in texts if in_history[t] > 1),
        "lost replies": sum(1 for c, t in sent if answered[f"{c} echo: {t}"] == 0),
        "dup replies": sum(1 for c, t in sent if answered[f"{c} echo: {t}"] > 1),
        "other replies": sum(n for r, n in answered.items() if r not in wanted),
    }


async def kill(daemon: Daemon) -> None:
    assert daemon.process is not None
    os.kill(daemon.process.pid, signal.SIGKILL)
    await daemon.process.wait()


async def run(channel: str, kills: int, seed: int) -> dict[str, int | float]:
    rng = random.Random(seed)
    sent: list[tuple[str, str]] = []

    async def send() -> None:
        chat = rng.choice(platform.chats)
        text = f"m{len(sent)}"
        await platform.send(chat, text)
        sent.append((chat, text))

    started = time.perf_counter()
    with (
        running_stub(latency=LATENCY) as stub,
        tempfile.TemporaryDirectory(prefix="agentd-chat-kill-") as folder,
    ):
        tmp = Path(folder)
        async with PLATFORMS[channel](tmp) as platform:
            config = {"memory": {"embed": False}, "log": {"format": "json"}, **platform.config()}
            daemon_tmp = tmp / "daemon"
            daemon_tmp.mkdir()
            for round_ in range(kills):
                async with agentd_daemon(stub.url, daemon_tmp, config) as daemon:
                    if round_ == 0:
                        await platform.joined()
                    for _ in range(rng.randint(1, 4)):
                        await send()
                        await anyio.sleep(rng.uniform(0, 0.3))
                    await anyio.sleep(rng.uniform(0, 0.6))
                    await kill(daemon)
                await send()  # one more while no daemon runs
            async with agentd_daemon(stub.url, daemon_tmp, config) as daemon:
                deadline = time.monotonic() + SETTLE_WITHIN
                wanted = {f"{chat} echo: {text}" for chat, text in sent}
                # The platform answers in another thread or process: nothing to wait on but it.
                while time.monotonic() < deadline and not wanted <= set(await platform.replies()):  # noqa: ASYNC110
                    await anyio.sleep(0.2)
                await anyio.sleep(1.0)  # anything still to come (a duplicate) comes now
                in_history = stored(daemon)
            answered = await platform.replies()
        turns = len(stub.requests)
    seconds = round(time.perf_counter() - started, 1)
    counts = tally(sent, in_history, answered)
    return {"kills": kills, "turns": turns, **counts, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--channel", choices=sorted(PLATFORMS), default="telegram")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = anyio.run(run, args.channel, args.kills, args.seed)
    print("  ".join(f"{k}: {v}" for k, v in result.items()))


if __name__ == "__main__":
    main()
