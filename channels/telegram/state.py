"""The Telegram channel's durable inbox: accepted updates, the next offset, session generations.

Telegram forgets an update once ``getUpdates`` is called with a higher ``offset``. So an update
is first *accepted*: written to this file together with the new offset, before the next
``getUpdates`` confirms it. It stays in ``pending`` until it is answered (its reply sent), then
it is removed. After a restart the pending updates are answered first and anything below the
offset that Telegram offers again is ignored: nothing accepted is lost, nothing answered is
answered again. The one exception is a crash in the instant between sending a reply and
recording it: that update is answered again (at-least-once; a duplicate beats silence).

The file is replaced atomically (temporary file, fsync, rename) from a worker thread.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import structlog

log = structlog.get_logger("channels.telegram")

Update = dict[str, Any]


class UpdateLedger:
    """The next offset to ask for, updates accepted but not answered, chat generations."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset: int | None = None
        self.pending: dict[int, Update] = {}
        self.generations: dict[str, int] = {}
        self._lock = anyio.Lock()

    @classmethod
    async def load(cls, path: Path) -> UpdateLedger:
        """The ledger stored at ``path``; an empty one when the file does not exist."""
        ledger = cls(path)
        data = await anyio.to_thread.run_sync(_read, path)
        if data:
            offset = data.get("offset")
            ledger.offset = int(offset) if offset is not None else None
            for update in data.get("pending", []):
                ledger.pending[int(update["update_id"])] = update
            ledger.generations = {str(k): int(v) for k, v in data.get("generations", {}).items()}
        return ledger

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

    async def finish(self, update_id: int) -> None:
        """Record ``update_id`` as answered."""
        if self.pending.pop(update_id, None) is not None:
            await self.save()

    def replay(self) -> list[Update]:
        """Updates accepted before a restart and not answered, in id order."""
        return [self.pending[i] for i in sorted(self.pending)]

    def session_suffix(self, chat_id: str) -> str:
        """``""`` for a chat never reset, else ``"#<n>"`` after its n-th ``/reset``."""
        generation = self.generations.get(chat_id, 0)
        return f"#{generation}" if generation else ""

    async def reset(self, chat_id: str) -> None:
        """Start a new session generation for ``chat_id``, durably."""
        self.generations[chat_id] = self.generations.get(chat_id, 0) + 1
        await self.save()

    async def save(self) -> None:
        async with self._lock:
            data = {
                "offset": self.offset,
                "pending": self.replay(),
                "generations": dict(self.generations),
            }
            await anyio.to_thread.run_sync(_write, self.path, data)


def _read(path: Path) -> dict[str, Any] | None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        log.warning("telegram.state_unreadable", path=str(path))
        return None
    return data if isinstance(data, dict) else None


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
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
