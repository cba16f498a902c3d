"""A real Synapse for the Matrix tests (one per session), fresh accounts per test, nio clients.

Skipped when the Synapse virtualenv is missing, unless AGENTD_REQUIRE_SYNAPSE=1 (``make test``
sets it after ``make synapse``), where a missing server is a failure.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import nio
import pytest

from agentd.config import MatrixSettings, Settings
from agentd.daemon.app import open_app
from agentd.engine.runtime import Runtime
from channels.matrix import MatrixChannel
from tests.support.stub_llm import StubLLM
from tests.support.synapse import Synapse, User, missing_reason

REQUIRED = os.environ.get("AGENTD_REQUIRE_SYNAPSE") == "1"
HANG_GUARD = 20.0
_serial = itertools.count()


@pytest.fixture(scope="session")
def synapse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Synapse]:
    """One Synapse on 127.0.0.1 for the whole session (it takes a few seconds to start)."""
    reason = missing_reason()
    if reason is not None:
        if REQUIRED:
            pytest.fail(f"Synapse is required (AGENTD_REQUIRE_SYNAPSE=1): {reason}")
        pytest.skip(reason)
    started = time.monotonic()
    server = Synapse(tmp_path_factory.mktemp("synapse"))
    server.start()
    print(f"\nsynapse: config+keys+start {time.monotonic() - started:.1f} s")  # noqa: T201
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Accounts:
    """A fresh bot and three users for one test: alice and bob allowed, mallory not."""

    bot: User
    alice: User
    bob: User
    mallory: User


@pytest.fixture
def accounts(synapse: Synapse) -> Accounts:
    n = next(_serial)
    return Accounts(
        *(synapse.register(f"{name}{n}") for name in ("bot", "alice", "bob", "mallory"))
    )


@pytest.fixture
async def runtime(stub_llm: StubLLM, tmp_path: Path) -> AsyncIterator[Runtime]:
    """A real Runtime wired like the daemon's (tenants, policy, history), on the stub LLM."""
    (tmp_path / "workdir").mkdir()
    settings = Settings(
        workdir=tmp_path / "workdir",
        state_dir=tmp_path / "state",
        llm={"base_url": stub_llm.url, "max_retries": 0},  # type: ignore[arg-type]
        memory={"embed": False},  # type: ignore[arg-type]
    )
    async with open_app(settings) as app:
        yield app.runtime


def mx_settings(synapse: Synapse, accounts: Accounts, **overrides: Any) -> MatrixSettings:
    values: dict[str, Any] = {
        "enabled": True,
        "homeserver": synapse.url,
        "user_id": accounts.bot.user_id,
        "access_token": accounts.bot.access_token,
        "allow_from": [accounts.alice.user_id, accounts.bob.user_id],
        "poll_timeout": 2,
        "backoff_initial": 0.05,
        "backoff_max": 0.5,
    }
    values.update(overrides)
    return MatrixSettings(**values)


@asynccontextmanager
async def serving(
    settings: MatrixSettings, runtime: Runtime, state: Path
) -> AsyncIterator[MatrixChannel]:
    """The channel serving in a task group, past its first sync; cancelled on exit."""
    channel = MatrixChannel(settings, state_path=state)
    async with channel, anyio.create_task_group() as tg:
        await tg.start(channel.serve, runtime)
        await wait_until(lambda: channel.ready and channel.ledger.since is not None)
        yield channel
        tg.cancel_scope.cancel()


async def wait_until(check: Callable[[], object]) -> None:
    """Poll ``check`` until it is truthy (the deadline only guards against a hang)."""
    with anyio.fail_after(HANG_GUARD):
        while not check():  # noqa: ASYNC110
            await anyio.sleep(0.05)


class Person:
    """A user driven through matrix-nio, as a Matrix client would."""

    def __init__(self, synapse: Synapse, user: User) -> None:
        self.user = user
        self.client = nio.AsyncClient(synapse.url, user.user_id)
        self.client.access_token = user.access_token
        self.client.user_id = user.user_id

    async def aclose(self) -> None:
        await self.client.close()

    async def room(self, *invite: str, direct: bool = True, encrypted: bool = False) -> str:
        state: list[dict[str, Any]] = []
        if encrypted:
            state.append(
                {
                    "type": "m.room.encryption",
                    "state_key": "",
                    "content": {"algorithm": "m.megolm.v1.aes-sha2"},
                }
            )
        response = await self.client.room_create(
            is_direct=direct, invite=list(invite), initial_state=state
        )
        assert isinstance(response, nio.RoomCreateResponse), response
        return str(response.room_id)

    async def join(self, room_id: str) -> None:
        response = await self.client.join(room_id)
        assert isinstance(response, nio.JoinResponse), response

    async def invite(self, room_id: str, user_id: str) -> None:
        response = await self.client.room_invite(room_id, user_id)
        assert isinstance(response, nio.RoomInviteResponse), response

    async def send(self, room_id: str, text: str, **extra: Any) -> str:
        content: dict[str, Any] = {"msgtype": "m.text", "body": text, **extra}
        return await self.send_content(room_id, content)

    async def send_content(self, room_id: str, content: dict[str, Any], kind: str = "") -> str:
        response = await self.client.room_send(room_id, kind or "m.room.message", content)
        assert isinstance(response, nio.RoomSendResponse), response
        return str(response.event_id)

    async def events(self, room_id: str) -> list[dict[str, Any]]:
        """The room's events, oldest first (up to 200)."""
        response = await self.client.room_messages(room_id, limit=200)
        assert isinstance(response, nio.RoomMessagesResponse), response
        return [e.source for e in reversed(response.chunk)]

    async def members(self, room_id: str) -> list[str]:
        response = await self.client.joined_members(room_id)
        assert isinstance(response, nio.JoinedMembersResponse), response
        return [m.user_id for m in response.members]

    async def said_by(self, room_id: str, sender: str) -> list[dict[str, Any]]:
        """The text messages ``sender`` sent in the room, oldest first."""
        return [
            e
            for e in await self.events(room_id)
            if e["sender"] == sender and e["type"] == "m.room.message"
        ]


@asynccontextmanager
async def people(synapse: Synapse, *users: User) -> AsyncIterator[list[Person]]:
    persons = [Person(synapse, u) for u in users]
    try:
        yield persons
    finally:
        for person in persons:
            await person.aclose()


async def wait_for_texts(person: Person, room_id: str, sender: str, count: int) -> list[str]:
    """The bodies of ``sender``'s messages once there are at least ``count`` of them."""
    # The homeserver's state changes in another process, which cannot set an anyio Event.
    with anyio.fail_after(HANG_GUARD):
        while True:
            said = await person.said_by(room_id, sender)
            if len(said) >= count:
                return [e["content"]["body"] for e in said]
            await anyio.sleep(0.1)


async def wait_joined(person: Person, room_id: str, user_id: str) -> None:
    with anyio.fail_after(HANG_GUARD):
        while user_id not in await person.members(room_id):  # noqa: ASYNC110
            await anyio.sleep(0.1)
