"""A mail taken again after its turn was cut off is stored once and answered once."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from agentd.daemon.app import App
from tests.channels.email.conftest import Mailboxes, email_settings, mail, serving, wait_until
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio


def stored(app: App) -> list[tuple[str, str]]:
    """(role, content) of every stored message, oldest first."""
    with sqlite3.connect(app.settings.history_path) as db:
        bodies = [json.loads(b) for (b,) in db.execute("SELECT body FROM messages ORDER BY id")]
    return [(b["role"], str(b["content"])) for b in bodies]


async def test_turn_cut_off_after_storing_is_one_user_message_and_one_reply(
    boxes: Mailboxes, app: App, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """The daemon stopped while the model works (the mail's message stored, no answer, the mail
    still ``new`` in the ledger): the restart fetches it again and answers the stored message,
    so the history holds it once and one reply leaves; its attachment is not saved twice."""
    state = tmp_path / "email.json"
    settings = email_settings(boxes)
    stub_llm.add(Reply(text="too late", delay=30.0))
    async with serving(settings, app, state):
        boxes.send(
            mail(boxes.alice, boxes.agent, "read this", attachments=[("notes.txt", b"n" * 40)])
        )
        await wait_until(lambda: len(stub_llm.requests) == 1)
        await wait_until(lambda: [r for r, _ in stored(app)] == ["user"])
    first = stored(app)[0][1]
    assert "notes.txt" in first
    assert boxes.replies_to(boxes.alice) == []
    assert [v["state"] for v in json.loads(state.read_text())["pending"]] == ["new"]
    async with serving(settings, app, state) as channel:
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
        await wait_until(lambda: not channel.ledger.pending)
    assert stored(app) == [("user", first), ("assistant", f"echo: {first}")]
    # The stored answer is the one sent (the mail's line breaks are CRLF).
    sent = boxes.replies_to(boxes.alice)[0].get_content()
    assert sent.split() == f"echo: {first}".split()
    saved = [p for p in (app.settings.state_dir / "tenants").rglob("*") if p.is_file()]
    assert [p.read_bytes() for p in saved] == [b"n" * 40]
