"""The email channel in the real daemon: wiring, a heartbeat delivered by email, kill -9."""

from __future__ import annotations

import json
import signal
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.channels.email.conftest import Mailboxes, email_settings, mail
from tests.support.daemon import daemon, ready_daemon, write_config
from tests.support.stub_llm import Reply, StubLLM
from tests.support.task_script import scripted

pytestmark = pytest.mark.timeout(90)


def _wait(predicate: Callable[[], object], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _channel_config(boxes: Mailboxes) -> dict[str, Any]:
    """The test's email settings as the daemon's JSON config (passwords in the env)."""
    settings = email_settings(boxes).model_dump(mode="json", exclude_none=True)
    for server in ("imap", "smtp"):
        settings[server].pop("password", None)
    settings["allow_from"] = [boxes.alice]
    return settings


def _env(boxes: Mailboxes) -> dict[str, str]:
    return {
        "AGENTD_CHANNELS__EMAIL__IMAP__PASSWORD": f"pw-{boxes.agent_user}",
        "AGENTD_CHANNELS__EMAIL__SMTP__PASSWORD": boxes.submission.password,
    }


def _following(state: Path) -> bool:
    """Whether the channel has reached the mailbox (its ledger knows the UIDVALIDITY)."""
    try:
        return json.loads(state.read_text()).get("uidvalidity") is not None
    except (OSError, ValueError):
        return False


def test_heartbeat_is_delivered_by_email(
    boxes: Mailboxes, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A cron job with deliver_to email:<address> mails its answer; HEARTBEAT_OK is not sent."""
    stub_llm.add(Reply(text="HEARTBEAT_OK"), Reply(text="Water the plants."))
    stub_llm.fallback = lambda body: Reply(text="HEARTBEAT_OK")
    cfg = write_config(
        tmp_path / "c.json",
        tmp_path,
        stub_llm.url,
        cron={
            "jobs": [
                {
                    "name": "beat",
                    "schedule": "1s",
                    "prompt": "check",
                    "deliver_to": f"email:{boxes.alice}",
                }
            ]
        },
        channels={"email": _channel_config(boxes)},
    )
    with daemon(cfg, env=_env(boxes)) as proc:
        _wait(lambda: len(boxes.replies_to(boxes.alice)) >= 1)
        time.sleep(1.5)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        out = proc.stdout.read() if proc.stdout else ""
    sent = boxes.replies_to(boxes.alice)
    assert [m.get_content().strip() for m in sent] == ["Water the plants."]
    assert f"pw-{boxes.agent_user}" not in out
    assert boxes.submission.password not in out


def test_kill_9_during_a_turn_answers_once_after_the_restart(
    boxes: Mailboxes, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """SIGKILL while the model works: the restarted daemon answers the mail, exactly once, and
    its history holds the mail's message once."""
    stub_llm.add(Reply(text="never sent", delay=30))
    stub_llm.fallback = lambda body: Reply(text="answered after the restart")
    state = tmp_path / "state" / "email.json"
    cfg = write_config(
        tmp_path / "c.json", tmp_path, stub_llm.url, channels={"email": _channel_config(boxes)}
    )
    with ready_daemon(cfg, tmp_path / "n1.sock", env=_env(boxes)) as proc:
        _wait(lambda: _following(state))
        boxes.send(mail(boxes.alice, boxes.agent, "killed mid-turn"))
        _wait(lambda: len(stub_llm.requests) >= 1)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert boxes.replies_to(boxes.alice) == []
    with ready_daemon(cfg, tmp_path / "n2.sock", env=_env(boxes)):
        _wait(lambda: len(boxes.replies_to(boxes.alice)) == 1)
        boxes.send(mail(boxes.alice, boxes.agent, "after"))
        _wait(lambda: len(boxes.replies_to(boxes.alice)) == 2)
        time.sleep(0.5)
    replies = boxes.replies_to(boxes.alice)
    assert len(replies) == 2
    assert replies[0].get_content().strip() == "answered after the restart"
    with sqlite3.connect(tmp_path / "state" / "history.db") as db:
        bodies = [json.loads(b) for (b,) in db.execute("SELECT body FROM messages ORDER BY id")]
    users = [b["content"] for b in bodies if b["role"] == "user"]
    assert sum("killed mid-turn" in str(u) for u in users) == 1


def test_a_reminder_asked_for_by_mail_is_mailed_back(
    boxes: Mailboxes, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A task scheduled from a mail delivers its answer by mail to that mail's sender."""
    stub_llm.fallback = scripted
    state = tmp_path / "state" / "email.json"
    cfg = write_config(
        tmp_path / "c.json",
        tmp_path,
        stub_llm.url,
        cron={"tasks": {"poll": 0.5}},
        channels={"email": _channel_config(boxes)},
    )
    ask = 'TOOL:schedule_task {"prompt": "call the dentist", "in": "2s"}'
    with ready_daemon(cfg, tmp_path / "n.sock", env=_env(boxes)) as proc:
        _wait(lambda: _following(state))
        boxes.send(mail(boxes.alice, boxes.agent, ask, subject=""))
        _wait(lambda: len(boxes.replies_to(boxes.alice)) == 2)
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    reply, reminder = boxes.replies_to(boxes.alice)
    assert "scheduled task t-" in reply.get_content()
    assert str(reply["In-Reply-To"])
    assert reminder.get_content().strip() == "REMINDER: call the dentist"
    assert "In-Reply-To" not in reminder
