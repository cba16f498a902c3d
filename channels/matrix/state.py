"""The Matrix channel's durable inbox: the sync token, admitted events not yet answered, and what
the bot has already said once (the encryption notice) or reset (session generations).

``/sync`` hands out a ``next_batch`` token; asked again with it, the homeserver sends only what
came after. So the events of a sync that the bot will answer are first *accepted*: written to
this file together with the new token, before the next ``/sync``. Each stays in ``pending``
until its reply is sent. After a restart the pending events are answered first and the sync goes
on from the stored token: nothing accepted is lost, nothing answered is answered again. A crash
in the instant between sending a reply and recording it would answer again (at-least-once); the
reply's transaction id is derived from the event it answers, so the homeserver drops that
repeat as long as it remembers the transaction.

The file is replaced atomically (temporary file, fsync, rename), mode 0600 (it holds messages),
from a worker thread.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import anyio
import structlog

log = structlog.get_logger("channels.matrix")


@dataclass(frozen=True, slots=True)
class Pending:
    """A message the bot will answer, as admitted (sender allowed, addressed to the bot)."""

    event_id: str
    room_id: str
    sender: str
    tenant: str
    text: str
    group: bool
    #: The thread root when the message was in a thread (the reply stays in it).
    thread: str | None = None
    #: Whether the reply quotes the message (``m.in_reply_to``).
    quote: bool = False

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pending:
        fields = cls.__dataclass_fields__
        return cls(**{k: v for k, v in data.items() if k in fields})


class SyncLedger:
    """The next sync token, admitted events not answered, notices given, room generations."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.since: str | None = None
        self.pending: dict[str, Pending] = {}
        self.generations: dict[str, int] = {}
        self.notified: set[str] = set()
        self._order: list[str] = []
        self._lock = anyio.Lock()

    @classmethod
    async def load(cls, path: Path) -> SyncLedger:
        """The ledger stored at ``path``; an empty one when the file does not exist."""
        ledger = cls(path)
        data = await anyio.to_thread.run_sync(_read, path)
        if data:
            since = data.get("since")
            ledger.since = str(since) if since else None
            for item in data.get("pending", []):
                pending = Pending.from_dict(item)
                ledger.pending[pending.event_id] = pending
                ledger._order.append(pending.event_id)
            ledger.generations = {str(k): int(v) for k, v in data.get("generations", {}).items()}
            ledger.notified = {str(r) for r in data.get("notified", [])}
        return ledger

    async def accept(self, since: str, events: Sequence[Pending]) -> list[Pending]:
        """Durably take ``events`` (those not already pending) and the token after them."""
        fresh = [e for e in events if e.event_id not in self.pending]
        if since == self.since and not fresh:
            return []  # an idle long poll: nothing to write
        for event in fresh:
            self.pending[event.event_id] = event
            self._order.append(event.event_id)
        self.since = since
        await self.save()
        return fresh

    async def finish(self, event_id: str) -> None:
        """Record ``event_id`` as answered."""
        if self.pending.pop(event_id, None) is not None:
            self._order.remove(event_id)
            await self.save()

    def replay(self) -> list[Pending]:
        """Events accepted before a restart and not answered, in the order they came."""
        return [self.pending[e] for e in self._order]

    def session_suffix(self, room_id: str) -> str:
        """``""`` for a room never reset, else ``"#<n>"`` after its n-th ``!reset``."""
        generation = self.generations.get(room_id, 0)
        return f"#{generation}" if generation else ""

    async def reset(self, room_id: str) -> None:
        """Start a new session generation for ``room_id``, durably."""
        self.generations[room_id] = self.generations.get(room_id, 0) + 1
        await self.save()

    async def notify_once(self, room_id: str) -> bool:
        """True the first time it is asked for ``room_id`` (recorded durably), then False."""
        if room_id in self.notified:
            return False
        self.notified.add(room_id)
        await self.save()
        return True

    async def save(self) -> None:
        async with self._lock:
            data = {
                "since": self.since,
                "pending": [asdict(p) for p in self.replay()],
                "generations": dict(self.generations),
                "notified": sorted(self.notified),
            }
            await anyio.to_thread.run_sync(write_private, self.path, data)


def _read(path: Path) -> dict[str, Any] | None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        log.warning("matrix.state_unreadable", path=str(path))
        return None
    return data if isinstance(data, dict) else None


def write_private(path: Path, data: dict[str, Any]) -> None:
    """Replace ``path`` with ``data`` as JSON, atomically, readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # mkstemp creates the file 0600 with O_EXCL: no moment where another user can read it.
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_json(path: Path) -> dict[str, Any] | None:
    """The JSON object stored at ``path``, or None when it is missing or unreadable."""
    return _read(path)
