"""The runtime's :class:`~agentd.engine.runtime.Journal` over a durable :class:`HistoryStore`.

The runtime persists the user message before calling the model and every group the agent loop
appends (an assistant message with all its tool results, or the final answer) as one write, so
the store never holds half a tool exchange. Compaction stores its summary together with the
boundary of the messages kept after it; hydrating a session returns exactly that summary and
those messages, which is what the model saw before a restart or an eviction.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentd.memory.history import HistoryStore
from agentd.messages import Message


class HistoryJournal:
    """Session history for the runtime, kept in a HistoryStore.

    ``max_messages`` is the runtime's sliding window: hydration reads only the newest that many
    messages after the summary (the window would drop the older ones at once anyway).
    """

    def __init__(self, store: HistoryStore, *, max_messages: int = 0) -> None:
        self.store = store
        self.max_messages = max_messages

    async def hydrate(self, session_id: str) -> list[Message] | None:
        return await self.store.resume(session_id, limit=self.max_messages) or None

    async def append(self, session_id: str, messages: Sequence[Message]) -> None:
        await self.store.save_conversation(session_id, messages)

    async def summarized(self, session_id: str, summary: Message, tail: Sequence[Message]) -> None:
        await self.store.save_summary(summary, session_id=session_id, tail=tail)

    async def forget(self, session_id: str) -> None:
        await self.store.clear_conversation(session_id)
