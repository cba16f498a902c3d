"""What the chat channels' durable inboxes share: pending items, session generations, saving.

Each channel's ledger adds its cursor (Telegram's update offset, Matrix's sync token), how it
accepts a poll's items and in which order it replays them. An item stays pending from the
moment it is accepted until its reply is sent; a chat's generation counts its resets, so that
``reset`` starts a new session without touching the old one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, Generic, TypeVar

import anyio

from channels.chat.statefile import write_private

K = TypeVar("K")
V = TypeVar("V")


class ChatLedger(ABC, Generic[K, V]):
    """Items accepted and not answered (by key), chat generations, and the file they are in."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.pending: dict[K, V] = {}
        self.generations: dict[str, int] = {}
        self._lock = anyio.Lock()

    def _load_generations(self, data: dict[str, Any]) -> None:
        self.generations = {str(k): int(v) for k, v in data.get("generations", {}).items()}

    @abstractmethod
    def key_of(self, item: V) -> K:
        """The key ``item`` is pending under."""

    @abstractmethod
    def replay(self) -> list[V]:
        """Items accepted before a restart and not answered, in the order to answer them."""

    async def finish(self, key: K) -> None:
        """Record ``key`` as answered."""
        if self.pending.pop(key, None) is not None:
            await self.save()

    def session_suffix(self, chat_id: str) -> str:
        """``""`` for a chat never reset, else ``"#<n>"`` after its n-th reset."""
        generation = self.generations.get(chat_id, 0)
        return f"#{generation}" if generation else ""

    async def reset(self, chat_id: str) -> None:
        """Start a new session generation for ``chat_id``, durably."""
        self.generations[chat_id] = self.generations.get(chat_id, 0) + 1
        await self.save()

    async def save(self) -> None:
        async with self._lock:
            await anyio.to_thread.run_sync(write_private, self.path, self._data())

    @abstractmethod
    def _data(self) -> dict[str, Any]:
        """What the file holds (read back by the channel's ``load``)."""
