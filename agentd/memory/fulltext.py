"""The full-text half of memory search: SQLite FTS5 with the trigram tokenizer, beside Milvus.

Words find what vectors miss (a name, a code, a rare word) and the reverse. The index knows no
language: FTS5's ``trigram`` tokenizer indexes every three characters, so German compounds,
French elisions and Japanese (no spaces between words) match by their shared pieces, and a
query is the OR of its own trigrams ranked by BM25. No stopword list: BM25's inverse document
frequency makes a trigram that every memory holds count for little.

Milvus' own BM25 function was measured and not used: its analyzers split on spaces and
punctuation, so a Japanese query ("好きな色") found nothing (Milvus Lite 3.2, standard analyzer).

One SQLite file, one table; rows carry the memory's scope hash, and every query filters on it.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import anyio
import structlog

from agentd.private import private_dir, private_sqlite

log = structlog.get_logger("agentd.memory.fulltext")
T = TypeVar("T")

_WORD = re.compile(r"\w+")
#: Trigrams of one query searched at most: the rarest in the index (a trigram most memories
#: hold says little and makes the query scan them all).
MAX_TRIGRAMS = 16


def trigrams(text: str) -> list[str]:
    """The distinct trigrams of ``text``'s words, case-folded, in order of appearance; a word
    shorter than three characters is kept whole."""
    out: dict[str, None] = {}
    for word in _WORD.findall(text.casefold()):
        if len(word) < 3:
            out.setdefault(word, None)
            continue
        for i in range(len(word) - 2):
            out.setdefault(word[i : i + 3], None)
    return list(out)


def share(query: str, text: str) -> float:
    """The share of ``query``'s trigrams that ``text`` holds (0 for a query without any)."""
    wanted = [t for t in trigrams(query) if len(t) == 3]
    if not wanted:
        return 0.0
    held = set(trigrams(text))
    return sum(1 for t in wanted if t in held) / len(wanted)


def match_expression(query: str, grams: Sequence[str] | None = None) -> str | None:
    """The FTS5 query for ``query`` (or for ``grams`` of it): trigrams, quoted, OR-ed; None
    when there is none."""
    chosen = [t for t in trigrams(query) if len(t) == 3] if grams is None else list(grams)
    if not chosen:
        return None
    return " OR ".join('"' + g.replace('"', '""') + '"' for g in chosen)


@dataclass(frozen=True, slots=True)
class TextHit:
    """A memory the full-text index found: its key within the scope, its BM25 rank, and the
    share of the query's trigrams it holds."""

    key: str
    rank: float
    share: float = 0.0


class TextIndex:
    """Memories' text (and tags) in an FTS5 trigram index; open it with :meth:`open`."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self._db = db
        self.path = path
        self._lock = anyio.Lock()

    @classmethod
    async def open(cls, path: Path) -> TextIndex:
        """Open (creating when needed) the index at ``path``."""

        def connect() -> sqlite3.Connection:
            private_dir(path.parent)
            db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA busy_timeout=5000")
            db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS memory_text USING fts5("
                "body, scope UNINDEXED, key UNINDEXED, tag_index UNINDEXED, "
                "tokenize='trigram')"
            )
            db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS memory_text_terms "
                "USING fts5vocab(memory_text, 'row')"
            )
            private_sqlite(path)
            return db

        return cls(await anyio.to_thread.run_sync(connect), path)

    async def aclose(self) -> None:
        await anyio.to_thread.run_sync(self._db.close)

    async def _run(self, fn: Callable[[], T]) -> T:
        async with self._lock:
            return await anyio.to_thread.run_sync(fn)

    async def put(self, scope: str, rows: Sequence[tuple[str, str, str]]) -> None:
        """Index ``(key, text, tag_index)`` rows of ``scope``, replacing earlier ones."""

        def write() -> None:
            with self._db:
                self._db.execute("BEGIN")
                for key, text, tag_index in rows:
                    self._db.execute(
                        "DELETE FROM memory_text WHERE scope = ? AND key = ?", (scope, key)
                    )
                    self._db.execute(
                        "INSERT INTO memory_text (body, scope, key, tag_index) VALUES (?,?,?,?)",
                        (text, scope, key, tag_index),
                    )

        await self._run(write)

    async def delete(self, scope: str, key: str) -> None:
        def remove() -> None:
            self._db.execute("DELETE FROM memory_text WHERE scope = ? AND key = ?", (scope, key))

        await self._run(remove)

    async def search(
        self, scope: str, query: str, limit: int, tag_likes: Iterable[str] = ()
    ) -> list[TextHit]:
        """The best ``limit`` matches of ``query`` in ``scope`` (tags: any ``LIKE`` pattern)."""
        grams = [t for t in trigrams(query) if len(t) == 3]
        if not grams:
            return []
        likes = list(tag_likes)
        tag_filter = ""
        if likes:
            tag_filter = " AND (" + " OR ".join("tag_index LIKE ?" for _ in likes) + ")"
        sql = (
            "SELECT key, bm25(memory_text) AS rank, body FROM memory_text "
            f"WHERE memory_text MATCH ? AND scope = ?{tag_filter} ORDER BY rank LIMIT ?"
        )

        def read() -> list[TextHit]:
            expression = match_expression(query, self._rarest(grams))
            if expression is None:
                return []
            cursor = self._db.execute(sql, (expression, scope, *likes, limit))
            return [
                TextHit(str(key), float(rank), share(query, str(body)))
                for key, rank, body in cursor
            ]

        return await self._run(read)

    def _rarest(self, grams: Sequence[str]) -> list[str]:
        """The ``MAX_TRIGRAMS`` of ``grams`` held by the fewest memories (and by at least one)."""
        marks = ",".join("?" for _ in grams)
        rows = self._db.execute(
            f"SELECT term, doc FROM memory_text_terms WHERE term IN ({marks})", list(grams)
        )
        counts = {str(term): int(doc) for term, doc in rows}
        held = sorted((counts[g], i, g) for i, g in enumerate(grams) if counts.get(g, 0) > 0)
        return [g for _, _, g in held[:MAX_TRIGRAMS]]

    async def keys(self) -> set[tuple[str, str]]:
        """Every ``(scope, key)`` indexed."""

        def read() -> set[tuple[str, str]]:
            return {
                (str(s), str(k)) for s, k in self._db.execute("SELECT scope, key FROM memory_text")
            }

        return await self._run(read)
