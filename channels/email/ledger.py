"""The email channel's durable record: which mail of the mailbox was taken, answered and sent.

A mail is known by the mailbox's UIDVALIDITY and its UID. Each moves through states, each
written (fsync, rename) before the next step starts, so a restart (``kill -9`` included)
resumes where the mail was:

``new``       taken from the mailbox (the UID is past ``last_uid`` from then on): after a
              restart it is fetched again and its turn runs again;
``answered``  the turn's reply is stored here: after a restart it is sent, the turn never runs
              again;
``sending``   written just before the line that ends the reply's data goes to the SMTP
              server (:mod:`channels.email.smtp`): after a restart, with ``confirm_sent``,
              the reply's copy is looked for in the agent's own mailbox
              (:mod:`channels.email.confirm`): found, it is done; not found, it is sent
              again. Without ``confirm_sent`` it is *not* sent again, because it may have
              left (logged ``email.reply_unconfirmed``): a reply is then sent at most once,
              and lost if the daemon dies between that record and the server's answer.

Done mail leaves the record. ``threads`` maps the Message-IDs of admitted mail and of the
agent's replies to their thread (for the session), ``seen`` keeps the latest Message-IDs taken
(for a UIDVALIDITY change: the mailbox's UIDs then start over, and mail is recognised by id).
Both keep a short hash of each id (a sender chooses its ids: they may be long), at most
:data:`MAX_IDS` each, so the file stays small though it is rewritten at every step.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Literal

import anyio

from channels.chat.ledger import ChatLedger
from channels.chat.statefile import write_private

State = Literal["new", "answered", "sending"]
#: Message-IDs kept for threads and for recognising mail again (oldest dropped first).
MAX_IDS = 2000


def key_of(uidvalidity: int, uid: int) -> str:
    """The ledger key of a mail: ``<uidvalidity>:<uid>``."""
    return f"{uidvalidity}:{uid}"


def thread_key(root: str) -> str:
    """A session-safe name of the thread whose first Message-ID is ``root``."""
    return hashlib.sha256(root.encode("utf-8", "replace")).hexdigest()[:24]


def _id(message_id: str) -> str:
    """How the record keeps a Message-ID."""
    return hashlib.sha256(message_id.encode("utf-8", "replace")).hexdigest()[:20]


class MailLedger(ChatLedger[str, dict[str, Any]]):
    """UIDVALIDITY, the last UID taken, mail not done (by key), threads, recent Message-IDs."""

    channel = "email"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.uidvalidity: int | None = None
        self.last_uid = 0
        self.threads: dict[str, str] = {}
        self.seen: dict[str, None] = {}

    def _decode(self, raw: Any) -> dict[str, Any]:
        return dict(raw)

    def _restore(self, data: dict[str, Any]) -> None:
        validity = data.get("uidvalidity")
        self.uidvalidity = int(validity) if validity is not None else None
        self.last_uid = int(data.get("last_uid", 0))
        self.threads = {str(k): str(v) for k, v in data.get("threads", {}).items()}
        self.seen = dict.fromkeys(str(i) for i in data.get("seen", []))

    def _cursor(self) -> dict[str, Any]:
        return {
            "uidvalidity": self.uidvalidity,
            "last_uid": self.last_uid,
            "threads": self.threads,
            "seen": list(self.seen),
        }

    def key_of(self, item: dict[str, Any]) -> str:
        return str(item["key"])

    def replay(self) -> list[dict[str, Any]]:
        """The mail not done, oldest first (under an earlier UIDVALIDITY before the current)."""
        return [entry for _, entry in self._ordered()]

    def state(self, key: str) -> State | None:
        entry = self.pending.get(key)
        return entry["state"] if entry is not None else None

    async def start(self, uidvalidity: int, last_uid: int) -> None:
        """Follow the mailbox from ``last_uid`` on under ``uidvalidity`` (a first start, or
        after the mailbox's UIDs started over)."""
        self.uidvalidity = uidvalidity
        self.last_uid = last_uid
        await self.save()

    async def take(self, uid: int, message_id: str) -> str | None:
        """Durably take the mail ``uid``; its key, or None when it was taken before (under this
        or an earlier UIDVALIDITY)."""
        assert self.uidvalidity is not None
        self.last_uid = max(self.last_uid, uid)
        if message_id and _id(message_id) in self.seen:
            await self.save()
            return None
        key = key_of(self.uidvalidity, uid)
        self.pending[key] = {"key": key, "state": "new", "uid": uid}
        if message_id:
            _remember(self.seen, _id(message_id), None)
        await self.save()
        return key

    async def answered(self, key: str, reply: dict[str, Any]) -> None:
        """Store the reply to the mail ``key`` (sent next, also after a restart)."""
        self.pending[key] = {**self.pending[key], "state": "answered", "reply": reply}
        await self.save()

    async def sending(self, key: str) -> None:
        """Mark the reply of ``key`` as leaving now: after a restart, sent again only when
        no copy of it is found (:mod:`channels.email.confirm`).

        The state changes under the file's lock, right before this write: another task's
        save cannot write it earlier, which would widen the instant a reply may be lost in
        (from the state on disk to the server taking the mail) by a wait for the lock."""
        async with self._lock:
            self.pending[key] = {**self.pending[key], "state": "sending"}
            await anyio.to_thread.run_sync(write_private, self.path, self._data())

    def in_state(self, state: State) -> list[tuple[str, dict[str, Any]]]:
        """The pending mail in ``state``, oldest first."""
        return [(k, v) for k, v in self._ordered() if v["state"] == state]

    def thread_of(self, ids: tuple[str, ...], own: str) -> str:
        """The thread of a mail answering ``ids`` (oldest first) whose own id is ``own``: the
        known thread of any of them, else the thread rooted at the first of them (or itself)."""
        for known in reversed(ids):
            if _id(known) in self.threads:
                return self.threads[_id(known)]
        root = ids[0] if ids else own
        return thread_key(root or "no-message-id")

    def join(self, thread: str, *message_ids: str) -> None:
        """Record ``message_ids`` as part of ``thread`` (saved with the next write)."""
        for message_id in message_ids:
            if message_id:
                _remember(self.threads, _id(message_id), thread)

    def _ordered(self) -> list[tuple[str, dict[str, Any]]]:
        def order(item: tuple[str, dict[str, Any]]) -> tuple[int, int]:
            validity, _, uid = item[0].partition(":")
            return (0 if validity == str(self.uidvalidity) else -1, int(uid))

        return sorted(self.pending.items(), key=order)


def _remember(ids: dict[str, Any], key: str, value: Any) -> None:
    ids.pop(key, None)
    ids[key] = value
    while len(ids) > MAX_IDS:
        del ids[next(iter(ids))]
