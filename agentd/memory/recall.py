"""Recall: the long-term memories that match a user's message, for the turn's prompt.

Small models rarely think of searching their memory in a new conversation ("when is Emil's
birthday?" answered "I don't know" with the answer one ``memory_search`` away). The daemon
searches for them: the best matches are shown with the request. A memory matches when its
embedding is close enough (``min_score``) or when it holds most of the request's words: the
packaged models' embeddings scored "My favourite tea is jasmine tea." at 0.54 for "What's my
favourite tea?", under unrelated pairs of other memories, so the words decide as well.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import structlog

from agentd.errors import InvalidMemory, MemoryUnavailable
from agentd.memory.longterm import Memory, MemoryStore

log = structlog.get_logger("agentd.memory.recall")

Recall = Callable[[str], Awaitable[str | None]]
HEAD = "(Remembered from earlier conversations; use it if it helps:"
#: Nearest memories looked at for each message (the words then pick among them).
CANDIDATES = 20
#: Share of the message's words a memory must hold to match on words alone.
MIN_OVERLAP = 0.5
#: Words that say nothing about what a memory is about (English; other languages match on
#: all their words, which only makes a words-alone match rarer).
STOPWORDS = frozenset(
    """a about am an and any are as at be been but by can could did do does for from had has
    have he her hers him his how i if in into is it its me mine my of on or our ours please
    remember she so tell that the their them then there these they this those to us was we
    were what whats when where which who whom whose why will with would you your yours""".split()
)
_WORD = re.compile(r"\w+")


def words(text: str) -> frozenset[str]:
    """The telling words of ``text``: lowercased, stopwords and one-letter words out, a
    plural or possessive ``s`` dropped (``codes`` and ``code`` match)."""
    out = set()
    for word in _WORD.findall(text.casefold()):
        if len(word) < 2 or word in STOPWORDS:
            continue
        out.add(word[:-1] if len(word) > 3 and word.endswith("s") else word)
    return frozenset(out)


def overlap(query: frozenset[str], memory: Memory) -> float:
    """The share of ``query``'s words that ``memory`` holds in its content or tags."""
    if not query:
        return 0.0
    held = words(memory.content) | words(" ".join(memory.tags))
    return len(query & held) / len(query)


def _line(memory: Memory) -> str:
    """One memory in the note, with its tags: the model saved "2020" tagged office, krakow,
    doorcode for "the door code of the Krakow office is 2020"."""
    tags = f" (tags: {', '.join(memory.tags)})" if memory.tags else ""
    return f"- {memory.content}{tags}"


def memory_recall(store: MemoryStore, top_k: int, min_score: float) -> Recall:
    """A recall function on ``store``: up to ``top_k`` memories among the nearest
    ``CANDIDATES`` that score ``min_score`` or more (cosine similarity) or hold at least
    ``MIN_OVERLAP`` of the message's words, as a short note; None when none does or the store
    cannot answer. Word matches come first, then by score."""

    async def recall(text: str) -> str | None:
        if not text.strip() or store.degraded is not None:
            return None
        try:
            found = await store.search(text, max(top_k, CANDIDATES))
        except (MemoryUnavailable, InvalidMemory) as exc:
            log.info("memory.recall_skipped", reason=str(exc))
            return None
        asked = words(text)
        ranked = []
        for memory in found:
            share = overlap(asked, memory)
            score = memory.score if memory.score is not None else -1.0
            if share >= MIN_OVERLAP or score >= min_score:
                ranked.append((share >= MIN_OVERLAP, score, memory))
        if not ranked:
            return None
        ranked.sort(key=lambda hit: (hit[0], hit[1]), reverse=True)
        hits = [memory for _, _, memory in ranked[:top_k]]
        log.info(
            "memory.recalled",
            count=len(hits),
            by_words=sum(1 for by_words, _, _ in ranked[:top_k] if by_words),
            best=round(ranked[0][1], 3),
        )
        return HEAD + "\n" + "\n".join(_line(m) for m in hits) + ")"

    return recall
