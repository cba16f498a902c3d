"""A chat message received again (a replay after a crash) is stored and answered once."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentd.daemon.app import App
from tests.channels.conftest import serving, wait_until
from tests.support.fake_telegram import FakeTelegram
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio


def stored(app: App) -> list[tuple[str, str]]:
    """(role, content) of every stored message, oldest first."""
    with sqlite3.connect(app.settings.history_path) as db:
        bodies = [b for (b,) in db.execute("SELECT body FROM messages ORDER BY id")]
    return [(json.loads(b)["role"], json.loads(b)["content"]) for b in bodies]


def asked(stub_llm: StubLLM, text: str) -> int:
    """How many model requests ended with the user message ``text``."""
    return sum(
        1
        for body in stub_llm.requests
        if body["messages"][-1]["role"] == "user" and body["messages"][-1]["content"] == text
    )


def pending_again(state: Path, update: dict[str, Any]) -> None:
    """Leave the ledger as a crash before the update was recorded as answered would."""
    data = json.loads(state.read_text())
    data["pending"] = [update]
    state.write_text(json.dumps(data))


async def replay(
    fake: FakeTelegram, app: App, state: Path, update: dict[str, Any], *, sent: int
) -> None:
    """Serve once more with ``update`` pending again, until ``sent`` replies went out."""
    pending_again(state, update)
    async with serving(fake, app.runtime, state) as channel:
        await wait_until(lambda: len(fake.sent(42)) == sent)
        await wait_until(lambda: not channel.ledger.pending)


async def test_replayed_update_is_one_stored_message_and_one_answer(
    fake_tg: FakeTelegram, home_app: App, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """An update answered, then replayed twice from the ledger (a crash between storing the
    turn and recording the update), is stored once and the model is asked once."""
    state = tmp_path / "tg.json"
    fake_tg.message(42, "hello")
    update = dict(fake_tg.updates[-1])
    async with serving(fake_tg, home_app.runtime, state):
        await wait_until(lambda: fake_tg.sent(42))
    for replayed in (2, 3):
        await replay(fake_tg, home_app, state, update, sent=replayed)
    assert stored(home_app) == [("user", "hello"), ("assistant", "echo: hello")]
    assert asked(stub_llm, "hello") == 1
    # The stored answer is what the replay sends: the chat never sees another.
    assert {p["text"] for p in fake_tg.sent(42)} == {"echo: hello"}


async def test_turn_cut_off_after_storing_is_answered_once(
    fake_tg: FakeTelegram, home_app: App, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A daemon stopped while the model works (the message stored, no answer, the update not
    recorded) answers the replayed update on the stored message: one user message, one answer."""
    state = tmp_path / "tg.json"
    stub_llm.add(Reply(text="too late", delay=30.0))
    fake_tg.message(42, "hello")
    async with serving(fake_tg, home_app.runtime, state):
        await wait_until(lambda: asked(stub_llm, "hello") == 1)
        await wait_until(lambda: stored(home_app) == [("user", "hello")])
    assert fake_tg.sent(42) == []
    async with serving(fake_tg, home_app.runtime, state) as channel:
        await wait_until(lambda: fake_tg.sent(42))
        await wait_until(lambda: not channel.ledger.pending)
    await anyio.sleep(0.2)  # nothing more comes
    assert stored(home_app) == [("user", "hello"), ("assistant", "echo: hello")]
    assert [p["text"] for p in fake_tg.sent(42)] == ["echo: hello"]


async def test_keys_of_two_chats_never_collide(
    fake_tg: FakeTelegram, home_app: App, tmp_path: Path
) -> None:
    """The same text in two chats (one sender's tenant) is two messages, each answered."""
    fake_tg.message(42, "same")
    fake_tg.message(-100, "@agentd_bot same", user_id=42, chat_type="group")
    async with serving(fake_tg, home_app.runtime, tmp_path / "tg.json"):
        await wait_until(lambda: fake_tg.sent(42) and fake_tg.sent(-100))
    assert [c for r, c in stored(home_app) if r == "user"] == ["same", "same"]
