"""The email ledger: state order, threads, recognising mail again, the file across restarts."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from channels.email.ledger import MAX_IDS, MailLedger, thread_key

pytestmark = pytest.mark.anyio


async def test_states_survive_a_reload(tmp_path: Path) -> None:
    """Each step is on disk before the next: a reload finds every mail in its state."""
    path = tmp_path / "email.json"
    ledger = await MailLedger.load(path)
    await ledger.start(7, 10)
    a = await ledger.take(11, "a@x")
    b = await ledger.take(12, "b@x")
    c = await ledger.take(13, "c@x")
    assert (a, b, c) == ("7:11", "7:12", "7:13")
    await ledger.answered("7:12", {"text": "reply"})
    await ledger.answered("7:13", {"text": "reply"})
    await ledger.sending("7:13")
    again = await MailLedger.load(path)
    assert (again.uidvalidity, again.last_uid) == (7, 13)
    assert [k for k, _ in again.in_state("new")] == ["7:11"]
    assert [k for k, _ in again.in_state("answered")] == ["7:12"]
    assert [k for k, _ in again.in_state("sending")] == ["7:13"]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


async def test_a_message_id_is_taken_once(tmp_path: Path) -> None:
    """The same Message-ID under a new UID (a new UIDVALIDITY, a second delivery) is not taken."""
    ledger = await MailLedger.load(tmp_path / "email.json")
    await ledger.start(1, 0)
    assert await ledger.take(1, "same@x") == "1:1"
    await ledger.start(2, 0)
    assert await ledger.take(5, "same@x") is None
    assert ledger.last_uid == 5


async def test_threads(tmp_path: Path) -> None:
    """A mail joins the thread of any id it answers; else its first reference roots one."""
    ledger = await MailLedger.load(tmp_path / "email.json")
    assert ledger.thread_of((), "root@x") == thread_key("root@x")
    ledger.join("T", "root@x", "reply@agent")
    assert ledger.thread_of(("other@x", "reply@agent"), "new@x") == "T"
    assert ledger.thread_of(("unknown@x",), "new@x") == thread_key("unknown@x")


async def test_ids_are_bounded(tmp_path: Path) -> None:
    """The record keeps at most MAX_IDS ids, dropping the oldest."""
    ledger = await MailLedger.load(tmp_path / "email.json")
    ledger.join("T", *(f"{n}@x" for n in range(MAX_IDS + 10)))
    assert len(ledger.threads) == MAX_IDS
    assert ledger.thread_of(("0@x",), "z") == thread_key("0@x")
    assert ledger.thread_of((f"{MAX_IDS + 9}@x",), "z") == "T"
