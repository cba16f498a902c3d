"""Answering chats concurrently, each chat's messages in order, a bounded number at once.

A channel takes a slot before it polls (so it never accepts more than it may answer), hands
what the poll accepted to :meth:`ChatQueues.put_polled` (the first item uses that slot), and
the slot is given back once the item is answered.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Generic, TypeVar

import anyio
from anyio.abc import TaskGroup

T = TypeVar("T")


class ChatQueues(Generic[T]):
    """One queue per chat, drained by its own task; at most ``limit`` items across all chats."""

    def __init__(
        self, limit: int, chat_of: Callable[[T], str], answer: Callable[[T], Awaitable[None]]
    ) -> None:
        self._chat_of = chat_of
        self._answer = answer
        self._queues: dict[str, deque[T]] = {}
        self._slots = anyio.Semaphore(limit)

    @property
    def free(self) -> int:
        """Slots not taken."""
        return self._slots.value

    async def acquire(self) -> None:
        """Take a slot (waiting for one): room for one more item."""
        await self._slots.acquire()

    def release(self) -> None:
        """Give back a slot taken with :meth:`acquire` and not used."""
        self._slots.release()

    async def put(self, tg: TaskGroup, item: T) -> None:
        """Queue ``item`` once a slot is free."""
        await self._slots.acquire()
        self._dispatch(tg, item)

    async def put_polled(self, tg: TaskGroup, items: Iterable[T]) -> None:
        """Queue ``items``; the caller holds one slot (taken before polling) for the first of
        them, or to be given back when there is none."""
        held = True
        for item in items:
            if not held:
                await self._slots.acquire()
            held = False
            self._dispatch(tg, item)
        if held:
            self._slots.release()

    def _dispatch(self, tg: TaskGroup, item: T) -> None:
        """Queue ``item`` behind its chat's earlier ones; a slot is held for it."""
        chat = self._chat_of(item)
        queue = self._queues.get(chat)
        if queue is None:
            queue = self._queues[chat] = deque()
            tg.start_soon(self._drain, chat, queue)
        queue.append(item)

    async def _drain(self, chat: str, queue: deque[T]) -> None:
        try:
            while queue:
                await self._answer(queue[0])
                queue.popleft()
                self._slots.release()
        finally:
            del self._queues[chat]
