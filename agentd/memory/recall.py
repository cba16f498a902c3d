"""Recall: the long-term memories nearest to a user's message, for the turn's prompt.

Small models rarely think of searching their memory in a new conversation ("when is Emil's
birthday?" answered "I don't know" with the answer one ``memory_search`` away). The daemon
searches for them: the nearest memories are shown with the request. The store ranks (by vectors
and, when hybrid, by words too); a memory is shown when its embedding comes within
:data:`NEAR` of the floor (``min_score``, the embedding model's own floor unless set) or when it
holds at least ``MIN_SHARE`` of the message's trigrams, which works alike in every language (no
word lists).

A small embedding model's cosines are poorly calibrated (multilingual-e5-small puts any two
texts at 0.78-0.87, and asked in the end-to-end memory benchmark, the fact that answered was
often the store's first hit at 0.79-0.83, under the floor of 0.84), so the score cannot say
whether a memory answers: the model reads it. The note says the memories may be unrelated and
asks for an answer only from one that says what was asked, else for "I do not know": with no
note, or with memories presented as the answer, the model made up an answer to every question
about something never told.

The note lists the memories newest first, each with the day it was last said, so where two
disagree the model sees which is current.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import structlog

from agentd.errors import InvalidMemory, MemoryUnavailable
from agentd.memory.fulltext import share
from agentd.memory.longterm import Memory, MemoryStore, memory_line, memory_said

log = structlog.get_logger("agentd.memory.recall")

Recall = Callable[[str], Awaitable[str | None]]
#: How the note opens (and how a test or a stub model tells it from the request after it).
HEAD = "(Memories from earlier conversations, newest first; they may be unrelated to this message:"
#: How the note closes: what to do with the memories (before the request, which follows).
RULE = (
    "If this message asks about something the user told you, answer only from a memory above "
    "that says it; if none of them says it, say that you do not know.)"
)
#: Best matches looked at for each message.
CANDIDATES = 20
#: Share of the message's trigrams a memory must hold to match on words alone.
MIN_SHARE = 0.5
#: The recall floor of the chat model's embeddings (related sentences above ~0.8).
CHAT_MIN_SCORE = 0.8
#: How far under the floor a memory may score and still be shown. On the memory benchmark's
#: dev half with e5 (floor 0.84), against stores of 17 of its facts: the answer is among the
#: three shown for 46% of the questions at the floor, 93% at 0.05 under it, 97% at 0.08; and a
#: never-told question is shown the note (and its rule) for 12%, 63%, 98%. A message that asks
#: nothing of memory ("Create hello.py ...") gets a note for 12%, 80%, 92%: the rule leaves
#: such a message alone.
NEAR = 0.08


def overlap(query: str, memory: Memory) -> float:
    """The share of ``query``'s trigrams that ``memory`` holds in its content or tags."""
    return share(query, memory.content + " " + " ".join(memory.tags))


def near(score: float | None, words: float, min_score: float) -> bool:
    """Whether a candidate scoring ``score`` (cosine; None when only words found it) and
    holding ``words`` of the message's trigrams is shown."""
    return (score is not None and score >= min_score - NEAR) or words >= MIN_SHARE


def note(memories: Sequence[Memory]) -> str:
    """The note shown before the request: the memories newest first, then :data:`RULE`."""
    # Newest first: where two memories disagree, the one said last leads the note.
    lines = [memory_line(m) for m in sorted(memories, key=memory_said, reverse=True)]
    return "\n".join([HEAD, *lines, RULE])


def memory_recall(store: MemoryStore, top_k: int, min_score: float) -> Recall:
    """A recall function on ``store``: up to ``top_k`` memories among the best ``CANDIDATES``
    that are :func:`near` the message, in the store's order, as a :func:`note`; None when
    none is or the store cannot answer."""

    async def recall(text: str) -> str | None:
        if not text.strip() or store.degraded is not None:
            return None
        try:
            found = await store.search(text, max(top_k, CANDIDATES))
        except (MemoryUnavailable, InvalidMemory) as exc:
            log.info("memory.recall_skipped", reason=str(exc))
            return None
        hits = [m for m in found if near(m.score, overlap(text, m), min_score)][:top_k]
        if not hits:
            return None
        scores = [m.score for m in hits if m.score is not None]
        log.info(
            "memory.recalled",
            count=len(hits),
            by_words=sum(m.score is None or m.score < min_score - NEAR for m in hits),
            best=round(max(scores), 3) if scores else None,
            floor=min_score,
        )
        return note(hits)

    return recall
