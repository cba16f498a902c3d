"""The Telegram channel's durable inbox: accepted updates, the next offset, session generations.

Telegram forgets an update once ``getUpdates`` is called with a higher ``offset``. So an update
is first *accepted*: written to this file together with the new offset, before the next
``getUpdates`` confirms it. It stays in ``pending`` until it is answered (its reply sent), then
it is removed. After a restart the pending updates are answered first and anything below the
offset that Telegram offers again is ignored: nothing accepted is lost, nothing answered is
answered again. A pending update's turn carries the update's request key, so the runtime stores
its message once and asks the model once however often it is replayed (a replay after the
answer was stored sends that answer). The one exception is a crash in the instant between
sending a reply and recording it: that reply is sent again (at-least-once; a duplicate beats
silence).

The file is replaced atomically (temporary file, fsync, rename) from a worker thread (see
:mod:`channels.chat.ledger`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from channels.chat.ledger import ChatLedger

Update = dict[str, Any]


class UpdateLedger(ChatLedger[int, Update]):
    """The next offset to ask for, updates accepted but not answered, chat generations."""

    channel = "telegram"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.offset: int | None = None

    def _restore(self, data: dict[str, Any]) -> None:
        offset = data.get("offset")
        self.offset = int(offset) if offset is not None else None

    async def accept(self, updates: Sequence[Update]) -> list[Update]:
        """Durably take the new ones of ``updates``; return them in id order."""
        fresh = sorted(
            (u for u in updates if self.offset is None or int(u["update_id"]) >= self.offset),
            key=lambda u: int(u["update_id"]),
        )
        if not fresh:
            return []
        for update in fresh:
            self.pending[int(update["update_id"])] = update
        self.offset = int(fresh[-1]["update_id"]) + 1
        await self.save()
        return fresh

    def key_of(self, item: Update) -> int:
        return int(item["update_id"])

    def replay(self) -> list[Update]:
        """Updates accepted before a restart and not answered, in id order."""
        return [self.pending[i] for i in sorted(self.pending)]

    def _cursor(self) -> dict[str, Any]:
        return {"offset": self.offset}
