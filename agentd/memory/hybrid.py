"""Hybrid memory search: Milvus' vectors and the full-text index, fused by reciprocal rank.

:class:`HybridStore` is a :class:`~agentd.memory.longterm.MemoryStore` over a
:class:`~agentd.memory.milvus.MilvusStore` (the memories and their vectors) and a
:class:`~agentd.memory.fulltext.TextIndex` (their text). A search asks both for their best
candidates and orders the union by reciprocal rank fusion, ``sum(1 / (K + rank))`` over the two
lists (Cormack et al., 2009): no score of one list is compared with the other's, so neither a
cosine scale nor a BM25 scale has to be calibrated. A result keeps its cosine similarity as
``score`` when the vectors found it (None when only the words did).

The text index is this daemon's own SQLite file: on a Milvus server shared by several daemons,
each finds by words the memories it saved or backfilled (:meth:`HybridStore.backfill` at open),
and by vectors all of them. When the index fails, search goes on with the vectors alone.
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from typing import TypeVar

import anyio
import structlog

from agentd import scope as scopes
from agentd.memory.collection import scope_hash, tag_key
from agentd.memory.fulltext import TextHit, TextIndex
from agentd.memory.longterm import (
    Memory,
    MemoryStats,
    check_content,
    check_top_k,
    indexed_text,
    normalize_tags,
    parse_tags,
)
from agentd.memory.milvus import MilvusStore

log = structlog.get_logger("agentd.memory.hybrid")

T = TypeVar("T")

#: The constant of reciprocal rank fusion (the paper's, and Milvus' RRFRanker default).
RRF_K = 60
#: Candidates each half contributes to a search (at least top_k).
CANDIDATES = 30
#: The word ranking's weight in the fusion, and the share of the query's trigrams a word hit
#: must hold to count. On the memory benchmark's dev half (questions paraphrased to share few
#: words with their facts) every word hit under 0.6 pushed right answers down (MRR 0.45 with all
#: of them, 0.705 from 0.6 up, the same as vectors alone); from 0.6 up they still find the names
#: and codes that vectors miss.
TEXT_WEIGHT = 1.0
MIN_TEXT_SHARE = 0.6


def fuse(
    *rankings: Sequence[str], k: int = RRF_K, weights: Sequence[float] | None = None
) -> list[str]:
    """Keys ordered by (weighted) reciprocal rank fusion of ``rankings`` (each best first);
    ties keep the order in which the keys were first met."""
    scores: dict[str, float] = {}
    for index, ranking in enumerate(rankings):
        weight = weights[index] if weights is not None else 1.0
        for rank, key in enumerate(ranking, 1):
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    return sorted(scores, key=lambda key: -scores[key])


def _tag_index(tags: Sequence[str]) -> str:
    return "|" + "".join(tag_key(t) + "|" for t in tags)


def _body(content: str, words: str, tags: Sequence[str]) -> str:
    """The indexed text of a memory: its content, the user's words, its tags."""
    return indexed_text(content, words) + ("\n" + " ".join(tags) if tags else "")


class HybridStore:
    """Memories in Milvus, searched by vectors and words together."""

    def __init__(
        self,
        dense: MilvusStore,
        text: TextIndex,
        *,
        text_weight: float = TEXT_WEIGHT,
        min_share: float = MIN_TEXT_SHARE,
    ) -> None:
        self.dense = dense
        self.text = text
        self.text_weight = text_weight
        self.min_share = min_share
        self.text_failed: str | None = None

    @property
    def degraded(self) -> str | None:
        return self.dense.degraded

    @degraded.setter
    def degraded(self, value: str | None) -> None:
        self.dense.degraded = value

    async def save(self, memory: Memory) -> str:
        return (await self.save_many([memory]))[0]

    async def save_many(self, memories: Sequence[Memory]) -> list[str]:
        keys = await self.dense.save_many(memories)
        rows = []
        for key, memory in zip(keys, memories, strict=True):
            tags = normalize_tags(memory.tags)
            body = _body(check_content(memory.content), memory.words, tags)
            rows.append((key, body, _tag_index(tags)))
        await self._text("index", self.text.put(scope_hash(scopes.current()), rows))
        return keys

    async def search(
        self, query: str, top_k: int = 5, tags_include: Sequence[str] = ()
    ) -> list[Memory]:
        check_top_k(top_k)
        wanted = max(top_k, CANDIDATES)
        likes = [f"%|{tag_key(t)}|%" for t in normalize_tags(tags_include)]
        scope = scope_hash(scopes.current())
        found: list[TextHit] = []

        async def by_words() -> None:
            hits = await self._text("search", self.text.search(scope, query, wanted, likes))
            found.extend(hits or [])

        # The words are looked up while the query is embedded and Milvus searched.
        failed: Exception | None = None
        async with anyio.create_task_group() as tg:
            tg.start_soon(by_words)
            try:
                dense = await self.dense.search(query, wanted, tags_include)
            except Exception as exc:  # raised below, not wrapped in the task group's group
                failed = exc
                tg.cancel_scope.cancel()
        if failed is not None:
            raise failed
        words = [hit.key for hit in found if hit.share >= self.min_share]
        weights = (1.0, self.text_weight)
        order = fuse([m.key for m in dense], words, weights=weights)[:top_k]
        known = {m.key: m for m in dense}
        missing = [key for key in order if key not in known]
        known.update({m.key: m for m in await self.dense.get_many(missing)})
        return [known[key] for key in order if key in known]

    async def neighbours(
        self, content: str, top_k: int, words: str = ""
    ) -> tuple[list[float], list[Memory]]:
        """The memories nearest to ``content`` as a stored text (:meth:`MilvusStore.neighbours`:
        a save compares a fact with facts by meaning; shared words are the curator's test)."""
        return await self.dense.neighbours(content, top_k, words)

    async def get(self, key: str) -> Memory | None:
        return await self.dense.get(key)

    async def get_many(self, keys: Sequence[str]) -> list[Memory]:
        return await self.dense.get_many(keys)

    async def delete(self, key: str) -> bool:
        existed = await self.dense.delete(key)
        await self._text("delete", self.text.delete(scope_hash(scopes.current()), key))
        return existed

    async def stats(self) -> MemoryStats:
        return await self.dense.stats()

    async def aclose(self) -> None:
        await self.text.aclose()

    async def backfill(self) -> int:
        """Index the memories Milvus holds and the text index lacks (all scopes); how many."""
        fields = ["key", "scope", "content", "tags", "tag_index"]
        rows = await self.dense.scan([*fields, "words"] if self.dense.words_field else fields)
        have = await self.text.keys()
        by_scope: dict[str, list[tuple[str, str, str]]] = {}
        for row in rows:
            scope, key = str(row["scope"]), str(row["key"]).partition(".")[2]
            if (scope, key) in have or scope == "meta":
                continue
            words = str(row.get("words") or "")
            body = _body(str(row["content"]), words, parse_tags(row.get("tags")))
            by_scope.setdefault(scope, []).append((key, body, str(row.get("tag_index", "|"))))
        for scope, items in by_scope.items():
            await self.text.put(scope, items)
        added = sum(len(items) for items in by_scope.values())
        if added:
            log.info("memory.text_backfilled", memories=added)
        return added

    async def _text(self, what: str, pending: Awaitable[T]) -> T | None:
        """Run a text-index call; a failure is logged and searches go on with vectors alone."""
        try:
            result = await pending
        except Exception as exc:  # sqlite3 errors: disk full, a damaged file
            reason = f"memory text index {what} failed: {type(exc).__name__}: {exc}"[:300]
            if self.text_failed is None:
                log.warning("memory.text_index_failed", reason=reason, effect="vectors alone")
            self.text_failed = reason
            return None
        self.text_failed = None
        return result
