"""Recall: the long-term memories that match a user's message, for the turn's prompt.

Small models rarely think of searching their memory in a new conversation ("when is Emil's
birthday?" answered "I don't know" with the answer one ``memory_search`` away). The daemon
searches for them: the best matches are shown with the request. The store ranks (by vectors and,
when hybrid, by words too); a memory is shown when its embedding is close enough
(``min_score``, the embedding model's own floor unless set) or when it holds at least
``MIN_SHARE`` of the message's trigrams, which works alike in every language (no word lists).
The note lists them newest first, each with the day it was last said, so where two disagree
the model sees which is current.

A small embedding model's cosines are poorly calibrated (multilingual-e5-small puts any two
texts at 0.78-0.87), so a memory a little under the floor is also shown when it stands out from
the message's other candidates: within :data:`UNDER_FLOOR` of the floor and :data:`STANDS_OUT`
above their median. On the memory benchmark's dev half (questions against stores of 17 of its
facts) this showed the answer for 70% of questions instead of 49%, and left 83% of never-told
questions without a note instead of 96%; against all 300 facts it changed neither.
"""

from __future__ import annotations

import statistics
from collections.abc import Awaitable, Callable, Sequence

import structlog

from agentd.errors import InvalidMemory, MemoryUnavailable
from agentd.memory.fulltext import share
from agentd.memory.longterm import Memory, MemoryStore, indexed_text, memory_line, memory_said

log = structlog.get_logger("agentd.memory.recall")

Recall = Callable[[str], Awaitable[str | None]]
HEAD = "(Remembered from earlier conversations, newest first; use it if it helps:"
#: The note when nothing matches: asked about themselves, their people or their things, a small
#: model with no note made the answer up (5 of 5 never-told questions on the memory
#: benchmark's dev half: "Ich habe einen blauen Augenfarbe.").
NOTHING = (
    "(Nothing saved from earlier conversations matches this message: what the user has not "
    "told you about themselves, their people or their things, you do not know.)"
)
#: Best matches looked at for each message.
CANDIDATES = 20
#: Share of the message's trigrams a memory must hold to match on words alone.
MIN_SHARE = 0.5
#: The recall floor of the chat model's embeddings (related sentences above ~0.8).
CHAT_MIN_SCORE = 0.8
#: How far under the floor a memory that stands out may score, and how far above the median
#: of the other candidates it must (chosen on the memory benchmark's dev half, with e5).
UNDER_FLOOR = 0.04
STANDS_OUT = 0.06
#: Candidates with a score the median needs (fewer: the floor alone decides).
BACKGROUND_AFTER = 5


def overlap(query: str, memory: Memory) -> float:
    """The share of ``query``'s trigrams that ``memory`` holds in its content, the user's
    words or its tags."""
    return share(query, indexed_text(memory.content, memory.words) + " " + " ".join(memory.tags))


def least_score(found: Sequence[float | None], min_score: float) -> float:
    """The least score recalled among candidates scoring ``found``: ``min_score``, or less for
    the best of them when it stands out from the others' median."""
    scores = sorted(score for score in found if score is not None)
    if len(scores) <= BACKGROUND_AFTER:
        return min_score
    best, others = scores[-1], scores[:-1]
    if best >= min_score - UNDER_FLOOR and best - statistics.median(others) >= STANDS_OUT:
        return min(min_score, best)
    return min_score


def memory_recall(store: MemoryStore, top_k: int, min_score: float) -> Recall:
    """A recall function on ``store``: up to ``top_k`` memories among the best ``CANDIDATES``
    that score ``min_score`` or more (cosine similarity) or hold at least ``MIN_SHARE`` of the
    message's trigrams (or stand out, see the module's docstring), in the store's order, as a
    short note; None when none does or the store cannot answer."""

    async def recall(text: str) -> str | None:
        if not text.strip() or store.degraded is not None:
            return None
        try:
            found = await store.search(text, max(top_k, CANDIDATES))
        except (MemoryUnavailable, InvalidMemory) as exc:
            log.info("memory.recall_skipped", reason=str(exc))
            return None
        hits: list[Memory] = []
        by_words = 0
        low = least_score([m.score for m in found], min_score)
        for memory in found:
            close = memory.score is not None and memory.score >= low
            worded = overlap(text, memory) >= MIN_SHARE
            if close or worded:
                hits.append(memory)
                by_words += not close
            if len(hits) == top_k:
                break
        if not hits:
            return NOTHING
        # Newest first: where two memories disagree, the one said last leads the note.
        hits.sort(key=memory_said, reverse=True)
        best = max((m.score for m in hits if m.score is not None), default=None)
        log.info(
            "memory.recalled",
            count=len(hits),
            by_words=by_words,
            best=round(best, 3) if best is not None else None,
        )
        return HEAD + "\n" + "\n".join(memory_line(m) for m in hits) + ")"

    return recall
