"""The Matrix channel's durable inbox: the sync token, admitted events not yet answered, and what
the bot has already said once (the encryption notice) or reset (session generations).

``/sync`` hands out a ``next_batch`` token; asked again with it, the homeserver sends only what
came after. So the events of a sync that the bot will answer are first *accepted*: written to
this file together with the new token, before the next ``/sync``. Each stays in ``pending``
until its reply is sent. After a restart the pending events are answered first and the sync goes
on from the stored token: nothing accepted is lost, nothing answered is answered again; an
event's turn carries the event id as its request key, so a replayed event is stored and asked of
the model once. A crash
in the instant between sending a reply and recording it would answer again (at-least-once); the
reply's transaction id is derived from the event it answers, so the homeserver drops that
repeat as long as it remembers the transaction.

The file is replaced atomically (temporary file, fsync, rename), mode 0600 (it holds messages),
from a worker thread (see :mod:`channels.chat.ledger`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from channels.chat.ledger import ChatLedger


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


class SyncLedger(ChatLedger[str, Pending]):
    """The next sync token, admitted events not answered, notices given, room generations.

    ``pending`` keeps the order events came in (a dict's insertion order): replay follows it.
    """

    channel = "matrix"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.since: str | None = None
        self.notified: set[str] = set()

    def _decode(self, raw: Any) -> Pending:
        return Pending.from_dict(raw)

    def _encode(self, item: Pending) -> Any:
        return asdict(item)

    def _restore(self, data: dict[str, Any]) -> None:
        since = data.get("since")
        self.since = str(since) if since else None
        self.notified = {str(r) for r in data.get("notified", [])}

    async def accept(self, since: str, events: Sequence[Pending]) -> list[Pending]:
        """Durably take ``events`` (those not already pending) and the token after them."""
        fresh = [e for e in events if e.event_id not in self.pending]
        if since == self.since and not fresh:
            return []  # an idle long poll: nothing to write
        for event in fresh:
            self.pending[event.event_id] = event
        self.since = since
        await self.save()
        return fresh

    def key_of(self, item: Pending) -> str:
        return item.event_id

    def replay(self) -> list[Pending]:
        """Events accepted before a restart and not answered, in the order they came."""
        return list(self.pending.values())

    async def notify_once(self, room_id: str) -> bool:
        """True the first time it is asked for ``room_id`` (recorded durably), then False."""
        if room_id in self.notified:
            return False
        self.notified.add(room_id)
        await self.save()
        return True

    def _cursor(self) -> dict[str, Any]:
        return {"since": self.since, "notified": sorted(self.notified)}
