"""Recall: the long-term memories that match a user's message, for the turn's prompt.

Small models rarely think of searching their memory in a new conversation ("when is Emil's
birthday?" answered "I don't know" with the answer one ``memory_search`` away). The daemon
searches for them: the best matches above a similarity floor are shown with the request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import structlog

from agentd.errors import InvalidMemory, MemoryUnavailable
from agentd.memory.longterm import MemoryStore

log = structlog.get_logger("agentd.memory.recall")

Recall = Callable[[str], Awaitable[str | None]]
HEAD = "(Remembered from earlier conversations; use it if it helps:"


def memory_recall(store: MemoryStore, top_k: int, min_score: float) -> Recall:
    """A recall function on ``store``: up to ``top_k`` memories scoring ``min_score`` or more
    (cosine similarity) as a short note, or None when none does or the store cannot answer."""

    async def recall(text: str) -> str | None:
        if not text.strip() or store.degraded is not None:
            return None
        try:
            found = await store.search(text, top_k)
        except (MemoryUnavailable, InvalidMemory) as exc:
            log.info("memory.recall_skipped", reason=str(exc))
            return None
        hits = [m for m in found if m.score is not None and m.score >= min_score]
        if not hits:
            return None
        log.info("memory.recalled", count=len(hits), best=round(hits[0].score or 0.0, 3))
        return HEAD + "\n" + "\n".join(f"- {m.content}" for m in hits) + ")"

    return recall
