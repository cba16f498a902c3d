"""Replies cut off mid-send, confirmed by their copy in the agent's own mailbox (real Dovecot)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from structlog.testing import capture_logs

from agentd.daemon.app import App
from channels.email import smtp
from tests.channels.email.conftest import Mailboxes, email_settings, mail, serving, wait_until
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio

Send = Callable[[Any, Any, Callable[[], None]], None]


class _Killed(BaseException):
    """The process dying at one exact instant (what kill -9 would do there)."""


def _accepted_for(boxes: Mailboxes, address: str) -> int:
    """How many mails the submission server took for ``address``."""
    return sum(address in a.rcpt_tos for a in boxes.submission.accepted)


def _pending(state: Path) -> list[dict[str, Any]]:
    """The ledger's pending mail, as stored."""
    return list(json.loads(state.read_text())["pending"])


async def _crash_while_sending(
    boxes: Mailboxes, app: App, state: Path, send: Send
) -> dict[str, Any]:
    """Serve until ``send`` kills the channel mid-send; the reply as the ledger stored it."""
    with pytest.raises(BaseExceptionGroup):
        async with serving(email_settings(boxes), app, state, send=send):
            boxes.send(mail(boxes.alice, boxes.agent, "one"))
            await wait_until(lambda: False, timeout=10)
    pending = _pending(state)
    assert [v["state"] for v in pending] == ["sending"]
    return dict(pending[0]["reply"])


async def test_a_reply_the_server_took_is_confirmed_and_not_sent_again(
    boxes: Mailboxes, app: App, tmp_path: Path
) -> None:
    """Death after the server took the reply: the restart finds its copy and sends nothing."""
    state = tmp_path / "email.json"

    def send_then_die(cfg: Any, message: Any, committing: Callable[[], None]) -> None:
        smtp.send(cfg, message, committing)
        raise _Killed

    await _crash_while_sending(boxes, app, state, send_then_die)
    assert len(boxes.replies_to(boxes.alice)) == 1
    taken = _accepted_for(boxes, boxes.alice)
    with capture_logs() as logs:
        async with serving(email_settings(boxes), app, state) as channel:
            await wait_until(lambda: not channel.ledger.pending)
            await anyio.sleep(0.5)
    assert len(boxes.replies_to(boxes.alice)) == 1
    assert _accepted_for(boxes, boxes.alice) == taken
    events = [e["event"] for e in logs]
    assert "email.reply_confirmed" in events
    assert "email.reply_resent" not in events


async def test_a_reply_the_server_never_took_is_sent_again_once(
    boxes: Mailboxes, app: App, tmp_path: Path
) -> None:
    """Death after ``sending`` was recorded but before the mail left: the restart sends it
    once, with the Message-ID recorded before the first attempt."""
    state = tmp_path / "email.json"

    def record_then_die(cfg: Any, message: Any, committing: Callable[[], None]) -> None:
        committing()
        raise _Killed

    stored = await _crash_while_sending(boxes, app, state, record_then_die)
    assert boxes.replies_to(boxes.alice) == []
    settings = email_settings(boxes, confirm_wait=0.3)
    with capture_logs() as logs:
        async with serving(settings, app, state) as channel:
            await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
            await wait_until(lambda: not channel.ledger.pending)
            await anyio.sleep(0.5)
    replies = boxes.replies_to(boxes.alice)
    assert len(replies) == 1
    assert str(replies[0]["Message-ID"]) == f"<{stored['message_id']}>"
    assert sum(e["event"] == "email.reply_resent" for e in logs) == 1


async def test_the_agents_own_copy_is_kept_seen_and_never_answered(
    boxes: Mailboxes, app: App, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """Each reply also reaches the agent's mailbox (envelope only); that copy gets no turn and
    no answer, and ends flagged seen."""
    stub_llm.add(Reply(text="Only answer."))
    with capture_logs() as logs:
        async with serving(email_settings(boxes), app, tmp_path / "email.json") as channel:
            boxes.send(mail(boxes.alice, boxes.agent, "one"))
            await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
            copies = lambda: boxes.replies_to(boxes.agent)  # noqa: E731
            await wait_until(lambda: len(copies()) == 1)
            await wait_until(lambda: channel.ledger.last_uid >= 2 and not channel.ledger.pending)
            await anyio.sleep(0.5)
    reply = boxes.replies_to(boxes.alice)[0]
    assert str(copies()[0]["Message-ID"]) == str(reply["Message-ID"])
    assert "Bcc" not in reply and boxes.agent not in str(reply["To"])
    assert len(stub_llm.requests) == 1
    assert _accepted_for(boxes, boxes.alice) == 1
    assert sum(e["event"] == "email.admitted" for e in logs) == 1
    assert not any(e["event"] == "email.refused" for e in logs)
    seen = [p.name for p in (boxes.dovecot.maildir(boxes.agent_user) / "cur").iterdir()]
    assert len(seen) == 2 and all(":2," in n and "S" in n.split(":2,")[1] for n in seen)


async def test_without_confirmation_no_copy_is_sent(
    boxes: Mailboxes, app: App, tmp_path: Path
) -> None:
    """confirm_sent false: the reply goes to its recipient alone."""
    settings = email_settings(boxes, confirm_sent=False)
    async with serving(settings, app, tmp_path / "email.json") as channel:
        boxes.send(mail(boxes.alice, boxes.agent, "one"))
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
        await wait_until(lambda: not channel.ledger.pending)
    assert boxes.replies_to(boxes.agent) == []
    assert [a.rcpt_tos for a in boxes.submission.accepted if boxes.alice in a.rcpt_tos] == [
        [boxes.alice]
    ]
