"""What the chat channels' durable inboxes share: pending items, session generations, saving.

Each channel's ledger adds its cursor (Telegram's update offset, Matrix's sync token), how it
accepts a poll's items and in which order it replays them. An item stays pending from the
moment it is accepted until its reply is sent; a conversation's generation counts its resets, so
that ``reset`` starts a new session without touching the old one. A private chat is one
conversation; in a group, each member's tenant has its own, so one member's ``reset`` leaves the
others' conversations as they were.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import partial
from pathlib import Path
from typing import Any, ClassVar, Generic, Self, TypeVar

import anyio

from channels.chat.statefile import read_json, write_private

K = TypeVar("K")
V = TypeVar("V")


class ChatLedger(ABC, Generic[K, V]):
    """Items accepted and not answered (by key), chat generations, and the file they are in."""

    #: The channel whose state this is (named in the log when the file is unreadable).
    channel: ClassVar[str]

    def __init__(self, path: Path) -> None:
        self.path = path
        self.pending: dict[K, V] = {}
        self.generations: dict[str, int] = {}
        self._lock = anyio.Lock()

    @classmethod
    async def load(cls, path: Path) -> Self:
        """The ledger stored at ``path``; an empty one when the file does not exist."""
        ledger = cls(path)
        data = await anyio.to_thread.run_sync(partial(read_json, path, channel=cls.channel))
        if data:
            for raw in data.get("pending", []):
                item = ledger._decode(raw)
                ledger.pending[ledger.key_of(item)] = item
            ledger.generations = {str(k): int(v) for k, v in data.get("generations", {}).items()}
            ledger._restore(data)
        return ledger

    def _decode(self, raw: Any) -> V:
        """A pending item as the file holds it (the same, unless the channel's differ)."""
        return raw  # type: ignore[no-any-return]

    def _encode(self, item: V) -> Any:
        """A pending item as the file holds it."""
        return item

    def _data(self) -> dict[str, Any]:
        """What the file holds."""
        return {
            **self._cursor(),
            "pending": [self._encode(item) for item in self.replay()],
            "generations": dict(self.generations),
        }

    @abstractmethod
    def _restore(self, data: dict[str, Any]) -> None:
        """Read the channel's own fields (its cursor...) of the file's ``data``."""

    @abstractmethod
    def _cursor(self) -> dict[str, Any]:
        """The channel's own fields of the file (its cursor...)."""

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

    def _generation(self, chat_id: str, member: str | None) -> int:
        # A group member's own count starts from the chat's (resets from before members had one).
        shared = self.generations.get(chat_id, 0)
        return (
            shared if member is None else self.generations.get(_member_key(chat_id, member), shared)
        )

    def session_suffix(self, chat_id: str, member: str | None = None) -> str:
        """``""`` for a conversation never reset, else ``"#<n>"`` after its n-th reset.

        A private chat is one conversation (``member`` None); in a group each member (its
        tenant: senders of one tenant share it) has its own.
        """
        generation = self._generation(chat_id, member)
        return f"#{generation}" if generation else ""

    async def reset(self, chat_id: str, member: str | None = None) -> None:
        """Start a new session generation for the chat (or one member's conversation in it),
        durably."""
        key = chat_id if member is None else _member_key(chat_id, member)
        self.generations[key] = self._generation(chat_id, member) + 1
        await self.save()

    async def save(self) -> None:
        async with self._lock:
            await anyio.to_thread.run_sync(write_private, self.path, self._data())


def _member_key(chat_id: str, member: str) -> str:
    # A space never occurs in a chat id or a tenant name: the keys of two pairs never meet.
    return f"{chat_id} {member}"
