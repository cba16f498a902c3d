"""The email channel against a real Dovecot (IMAP, IDLE) and a real SMTP submission server."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from pydantic import SecretStr
from structlog.testing import capture_logs

from agentd.daemon.app import App
from agentd.daemon.workdirs import Workdirs
from tests.channels.email.conftest import (
    Mailboxes,
    email_settings,
    mail,
    serving,
    wait_until,
)
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio


def _user_texts(stub: StubLLM) -> list[str]:
    """The last user message of each request the model got."""
    texts = []
    for request in stub.requests:
        users = [m for m in request["messages"] if m["role"] == "user"]
        texts.append(str(users[-1]["content"]) if users else "")
    return texts


async def test_reply_is_threaded_and_an_answer_to_it_continues_the_session(
    boxes: Mailboxes, app: App, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """The reply carries Re:, In-Reply-To and References; a reply to it lands in one session."""
    stub_llm.add(Reply(text="First answer."), Reply(text="Second answer."))
    settings = email_settings(boxes)
    async with serving(settings, app, tmp_path / "email.json"):
        boxes.send(mail(boxes.alice, boxes.agent, "What is 2+2?", subject="Sums"))
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
        first = boxes.replies_to(boxes.alice)[0]
        asked = boxes.inbox(boxes.agent)[0]
        assert str(first["Subject"]) == "Re: Sums"
        assert str(first["In-Reply-To"]) == str(asked["Message-ID"])
        assert str(asked["Message-ID"]) in str(first["References"])
        assert first.get_content().strip() == "First answer."

        boxes.send(mail(boxes.alice, boxes.agent, "And 3+3?", subject="Re: Sums", reply_to=first))
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 2)
        second = boxes.replies_to(boxes.alice)[1]
        assert str(second["Subject"]) == "Re: Sums"
        assert str(first["Message-ID"]) in str(second["References"])
    # The second turn saw the first exchange: one session for the thread.
    last = stub_llm.requests[-1]["messages"]
    contents = [str(m.get("content")) for m in last]
    assert any("What is 2+2?" in c for c in contents)
    assert any("First answer." in c for c in contents)


async def test_a_new_thread_is_a_new_session(
    boxes: Mailboxes, app: App, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """Two mails that answer nothing are two conversations."""
    async with serving(email_settings(boxes), app, tmp_path / "email.json"):
        boxes.send(mail(boxes.alice, boxes.agent, "first topic", subject="One"))
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
        boxes.send(mail(boxes.alice, boxes.agent, "second topic", subject="Two"))
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 2)
    last = stub_llm.requests[-1]["messages"]
    assert not any("first topic" in str(m.get("content")) for m in last)


async def test_mail_appended_while_idling_is_answered_promptly(
    boxes: Mailboxes, app: App, tmp_path: Path
) -> None:
    """IDLE wakes the channel: the answer comes long before a poll or IDLE renewal would."""
    settings = email_settings(
        boxes, imap={**email_settings(boxes).imap.model_dump(), "poll_interval": 60}
    )
    settings.imap.password = email_settings(boxes).imap.password
    async with serving(settings, app, tmp_path / "email.json") as channel:
        await anyio.sleep(0.3)  # the channel is idling now
        boxes.send(mail(boxes.alice, boxes.agent, "ping"))
        took = await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
        assert channel.woken >= 1
    assert took < 3.0


async def test_polling_when_idle_is_off(boxes: Mailboxes, app: App, tmp_path: Path) -> None:
    """With IDLE off the mailbox is polled, and mail is answered all the same."""
    base = email_settings(boxes)
    settings = base.model_copy(update={"imap": base.imap.model_copy(update={"idle": False})})
    async with serving(settings, app, tmp_path / "email.json") as channel:
        boxes.send(mail(boxes.alice, boxes.agent, "ping"))
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
        assert channel.woken == 0


async def test_restart_answers_nothing_twice(
    boxes: Mailboxes, app: App, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A stopped and restarted channel answers new mail, never the mail it answered before."""
    state = tmp_path / "email.json"
    settings = email_settings(boxes)
    async with serving(settings, app, state):
        boxes.send(mail(boxes.alice, boxes.agent, "one"))
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
    async with serving(settings, app, state):
        boxes.send(mail(boxes.alice, boxes.agent, "two"))
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 2)
        await anyio.sleep(0.5)
    assert len(boxes.replies_to(boxes.alice)) == 2
    assert _user_texts(stub_llm).count("Subject: A question\n\none") == 1


class _Killed(BaseException):
    """The process dying at one exact instant (what kill -9 would do there)."""


async def test_crash_after_sending_without_confirmation_does_not_answer_twice(
    boxes: Mailboxes, app: App, tmp_path: Path
) -> None:
    """confirm_sent false, death right after the SMTP server took the reply: the restart does
    not send it again (nor look for a copy)."""
    from channels.email import smtp

    state = tmp_path / "email.json"
    settings = email_settings(boxes, confirm_sent=False)

    def send_then_die(cfg: Any, message: Any, committing: Callable[[], None]) -> None:
        smtp.send(cfg, message, committing)
        raise _Killed

    with pytest.raises(BaseExceptionGroup):
        async with serving(settings, app, state, send=send_then_die):
            boxes.send(mail(boxes.alice, boxes.agent, "one"))
            await wait_until(lambda: False, timeout=10)
    assert len(boxes.replies_to(boxes.alice)) == 1
    stored = json.loads(state.read_text())
    assert [v["state"] for v in stored["pending"]] == ["sending"]
    with capture_logs() as logs:
        async with serving(settings, app, state) as channel:
            await wait_until(lambda: not channel.ledger.pending)
            await anyio.sleep(0.5)
    assert len(boxes.replies_to(boxes.alice)) == 1
    assert any(e["event"] == "email.reply_unconfirmed" for e in logs)


async def test_crash_after_the_turn_sends_the_stored_reply_without_a_new_turn(
    boxes: Mailboxes, app: App, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """Death between the turn and the send: the restart sends the stored reply, once."""
    state = tmp_path / "email.json"
    settings = email_settings(boxes)
    stub_llm.add(Reply(text="The stored answer."))

    def die(cfg: Any, message: Any, committing: Callable[[], None]) -> None:
        raise _Killed

    with pytest.raises(BaseExceptionGroup):
        async with serving(settings, app, state, send=die):
            boxes.send(mail(boxes.alice, boxes.agent, "one"))
            await wait_until(lambda: False, timeout=10)
    stored = json.loads(state.read_text())
    assert [v["state"] for v in stored["pending"]] == ["answered"]
    requests = len(stub_llm.requests)
    async with serving(settings, app, state):
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
        await anyio.sleep(0.3)
    assert boxes.replies_to(boxes.alice)[0].get_content().strip() == "The stored answer."
    assert len(stub_llm.requests) == requests


async def test_spoofed_from_is_refused_and_never_answered(
    boxes: Mailboxes, app: App, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """An allowed From without a trusted DMARC pass gets no answer and no turn; it is logged."""
    with capture_logs() as logs:
        async with serving(email_settings(boxes), app, tmp_path / "email.json") as channel:
            boxes.send(mail(boxes.alice, boxes.agent, "no header", auth=None))
            boxes.send(mail(boxes.alice, boxes.agent, "forged header", auth="mx.evil.example"))
            await wait_until(lambda: channel.ledger.last_uid >= 2 and not channel.ledger.pending)
            boxes.send(mail(boxes.alice, boxes.agent, "genuine"))
            await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
    refused = [e for e in logs if e["event"] == "email.refused"]
    assert len(refused) == 2
    assert all("no proof" in e["reason"] for e in refused)
    assert all("no header" not in t and "forged" not in t for t in _user_texts(stub_llm))
    assert len(boxes.replies_to(boxes.alice)) == 1


async def test_secret_address_admits_and_is_never_logged(
    boxes: Mailboxes, app: App, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """Mail to agent+<secret>@ from its sender is answered in the sender's tenant; a wrong
    secret is refused, and the secret appears in no log line."""
    local, domain = boxes.agent.split("@")
    right = f"{local}+{boxes.bob_secret}@{domain}"
    wrong = f"{local}+{'X' * 20}@{domain}"
    with capture_logs() as logs:
        async with serving(email_settings(boxes), app, tmp_path / "email.json") as channel:
            boxes.send(mail(boxes.bob, wrong, "wrong secret", auth=None))
            await wait_until(lambda: channel.ledger.last_uid >= 1 and not channel.ledger.pending)
            boxes.send(mail(boxes.bob, right, "right secret", auth=None))
            await wait_until(lambda: len(boxes.replies_to(boxes.bob)) == 1)
    assert [t for t in _user_texts(stub_llm) if "secret" in t] == [
        "Subject: A question\n\nright secret"
    ]
    assert [e.get("reason") for e in logs if e["event"] == "email.refused"] != []
    assert boxes.bob_secret not in repr(logs)
    admitted = [e for e in logs if e["event"] == "email.admitted"]
    assert admitted and admitted[0]["proofs"] == "secret_address"
    assert admitted[0]["tenant"] == "bobs"


async def test_html_mail_and_attachments(
    boxes: Mailboxes, app: App, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """An HTML-only mail reaches the model as text; attachments are saved privately under safe
    names within the limit and listed, a larger one listed as not saved."""
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["Authentication-Results"] = (
        f"mx.example.org; dmarc=pass header.from={boxes.alice.split('@')[1]}"
    )
    msg["From"] = boxes.alice
    msg["To"] = boxes.agent
    msg["Subject"] = "Report"
    msg["Message-ID"] = "<html-1@example.org>"
    msg.set_content(
        "<p>Hello <b>agent</b></p><script>alert(1)</script><ul><li>one</li></ul>", subtype="html"
    )
    msg.add_attachment(b"a,b\n1,2\n", maintype="text", subtype="csv", filename="../../etc/passwd")
    msg.add_attachment(
        b"x" * 5000, maintype="application", subtype="octet-stream", filename="big.bin"
    )
    settings = email_settings(boxes, max_attachment_bytes=1000)
    async with serving(settings, app, tmp_path / "email.json"):
        boxes.send(bytes(msg))
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
    text = _user_texts(stub_llm)[-1]
    assert "Hello agent" in text and "- one" in text
    assert "alert" not in text and "<p>" not in text
    assert "big.bin (application/octet-stream, 5000 bytes): not saved, over the size limit" in text
    tenant_dir = app.settings.state_dir / "tenants"
    saved = [p for p in tenant_dir.rglob("*") if p.is_file()]
    assert len(saved) == 1
    assert saved[0].name.endswith("-passwd")
    assert saved[0].parent == Workdirs(app.settings)(f"email:{boxes.alice}") / "mail"
    assert saved[0].read_bytes() == b"a,b\n1,2\n"
    assert stat.S_IMODE(os.stat(saved[0]).st_mode) == 0o600
    assert f"saved as mail/{saved[0].name}" in text


async def test_delivery_of_a_reminder_by_email(boxes: Mailboxes, app: App, tmp_path: Path) -> None:
    """deliver() to email:<address> sends a new mail to an allowed address, and refuses others."""
    from agentd.errors import EmailError
    from channels.base import Target

    async with serving(email_settings(boxes), app, tmp_path / "email.json") as channel:
        await channel.deliver(Target("email", boxes.alice), "Call the dentist.\nAt 3 pm.")
        with pytest.raises(EmailError):
            await channel.deliver(Target("email", boxes.mallory), "spam")
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
    sent = boxes.replies_to(boxes.alice)[0]
    assert str(sent["Subject"]) == "Call the dentist."
    assert "At 3 pm." in sent.get_content()
    assert str(sent["Auto-Submitted"]) == "auto-generated"
    assert boxes.replies_to(boxes.mallory) == []


async def test_uidvalidity_change_answers_new_mail_only(
    boxes: Mailboxes, app: App, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """When the mailbox's UIDs start over, mail answered before is not answered again and mail
    that came meanwhile is."""
    state = tmp_path / "email.json"
    settings = email_settings(boxes)
    async with serving(settings, app, state) as channel:
        boxes.send(mail(boxes.alice, boxes.agent, "before"))
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
        old = channel.ledger.uidvalidity
    assert old is not None
    boxes.dovecot.reset_uids(boxes.agent_user, old + 1000)
    boxes.send(mail(boxes.alice, boxes.agent, "meanwhile"))
    with capture_logs() as logs:
        async with serving(settings, app, state) as channel:
            await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 2)
            await anyio.sleep(0.5)
            assert channel.ledger.uidvalidity == old + 1000
    assert len(boxes.replies_to(boxes.alice)) == 2
    assert [t for t in _user_texts(stub_llm) if "before" in t] == ["Subject: A question\n\nbefore"]
    assert any(e["event"] == "email.uidvalidity_changed" for e in logs)


async def test_a_refused_login_is_reported_without_the_password(
    boxes: Mailboxes, app: App, tmp_path: Path
) -> None:
    """With a wrong password the channel is not ready and says why, never with the password."""
    from channels.email import EmailChannel

    base = email_settings(boxes)
    wrong = "wrong-pass-XYZ"
    settings = base.model_copy(
        update={"imap": base.imap.model_copy(update={"password": SecretStr(wrong)})}
    )
    channel = EmailChannel(settings, state_path=tmp_path / "email.json")
    with capture_logs() as logs:
        async with channel, anyio.create_task_group() as tg:
            await tg.start(channel.serve, app.runtime)
            await wait_until(lambda: any(e["event"] == "email.unreachable" for e in logs))
            assert not channel.ready
            tg.cancel_scope.cancel()
    unreachable = [e for e in logs if e["event"] == "email.unreachable"]
    assert "username/password" in unreachable[0]["error"]
    assert wrong not in repr(logs)


async def test_idle_refused_falls_back_to_polling(
    boxes: Mailboxes, app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the server refuses IDLE the channel says so once and polls instead."""
    from agentd.errors import EmailError
    from channels.email.imap import Mailbox

    def refuse(self: Mailbox) -> None:
        raise EmailError("imap idle", "refused by the server", permanent=True)

    monkeypatch.setattr(Mailbox, "idle_start", refuse)
    with capture_logs() as logs:
        async with serving(email_settings(boxes), app, tmp_path / "email.json") as channel:
            boxes.send(mail(boxes.alice, boxes.agent, "ping"))
            await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
            assert channel.woken == 0
    assert [e["fallback"] for e in logs if e["event"] == "email.idle_refused"] == ["polling"]


async def test_a_failure_before_the_mail_could_leave_is_retried(
    boxes: Mailboxes, app: App, tmp_path: Path
) -> None:
    """A submission that fails before the end of the data is sent again; one reply arrives."""
    from agentd.errors import EmailError
    from channels.email import smtp

    calls: list[int] = []

    def flaky(cfg: Any, message: Any, committing: Callable[[], None]) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise EmailError("smtp", "connection refused")
        smtp.send(cfg, message, committing)

    async with serving(email_settings(boxes), app, tmp_path / "email.json", send=flaky) as ch:
        boxes.send(mail(boxes.alice, boxes.agent, "one"))
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)
        await wait_until(lambda: not ch.ledger.pending)
    assert len(calls) == 2
    assert len(boxes.replies_to(boxes.alice)) == 1
