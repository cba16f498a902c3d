"""``reset`` in a group starts over the sender's conversation only; elsewhere, the chat's."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from agentd.daemon.app import App
from channels.telegram.state import UpdateLedger
from tests.channels.conftest import serving, wait_until
from tests.support.fake_telegram import FakeTelegram

pytestmark = pytest.mark.anyio
GROUP = -1001


def sessions(app: App) -> dict[str, tuple[str, str]]:
    """Each stored user message's text: its (tenant, session)."""
    with sqlite3.connect(app.settings.history_path) as db:
        found = db.execute("SELECT tenant, session_id, body FROM messages").fetchall()
    return {
        json.loads(b)["content"]: (t, s) for t, s, b in found if json.loads(b)["role"] == "user"
    }


async def test_reset_in_a_group_starts_over_only_the_senders_conversation(
    fake_tg: FakeTelegram, home_app: App, tmp_path: Path
) -> None:
    """After one member's /reset in a group, that member's next message is in a new session;
    another member (another tenant) goes on in the conversation it had."""
    state = tmp_path / "tg.json"
    fake_tg.message(GROUP, "@agentd_bot one", user_id=42, chat_type="supergroup")
    fake_tg.message(GROUP, "@agentd_bot two", user_id=55, username="alice", chat_type="group")
    fake_tg.message(GROUP, "/reset@agentd_bot", user_id=42, chat_type="supergroup")
    fake_tg.message(GROUP, "@agentd_bot three", user_id=42, chat_type="supergroup")
    fake_tg.message(GROUP, "@agentd_bot four", user_id=55, username="alice", chat_type="group")
    async with serving(fake_tg, home_app.runtime, state):
        await wait_until(lambda: len(fake_tg.sent(GROUP)) == 5)
    assert fake_tg.sent(GROUP)[2]["text"] == "Started a new conversation."
    assert sessions(home_app) == {
        "one": ("telegram:42", "telegram:-1001"),
        "two": ("telegram:55", "telegram:-1001"),
        "three": ("telegram:42", "telegram:-1001#1"),
        "four": ("telegram:55", "telegram:-1001"),
    }
    assert json.loads(state.read_text())["generations"] == {"-1001 telegram:42": 1}


async def test_a_member_goes_on_from_the_chats_earlier_resets(tmp_path: Path) -> None:
    """Resets recorded for a whole group before members had their own count still count: a
    member's reset goes on from there and leaves the other members where they were."""
    path = tmp_path / "tg.json"
    path.write_text(json.dumps({"offset": 1, "pending": [], "generations": {"-1001": 2}}))
    ledger = await UpdateLedger.load(path)
    assert ledger.session_suffix("-1001", "telegram:42") == "#2"
    await ledger.reset("-1001", "telegram:42")
    assert ledger.session_suffix("-1001", "telegram:42") == "#3"
    assert ledger.session_suffix("-1001", "telegram:55") == "#2"
    assert ledger.session_suffix("-1001") == "#2"
    reloaded = await UpdateLedger.load(path)
    assert reloaded.generations == {"-1001": 2, "-1001 telegram:42": 3}
