"""The vectors of a Milvus Lite collection, held in this process and searched exactly.

A Milvus Lite search crosses gRPC into milvus-lite's own process and took 20-45 ms for the 30
nearest of 10,300 vectors on two busy cores (cProfile: all of it in the call), most of the
memory_search budget. A Lite file is opened by one process only, so this process sees every
write: :class:`LocalIndex` keeps each scope's vectors in a matrix (filled from the collection on
the first search, then kept by every save and delete) and answers the same exact cosine search
(FLAT) with one matrix product, about a millisecond at 10k. Milvus still stores everything and
is asked for the rows found. A Milvus server is shared by several daemons and keeps searching
itself. Memory: the vectors as float32, 1.5 KB a memory at 384 dimensions; past
:data:`LOCAL_LIMIT` memories (75 MB) the store leaves the search to Milvus Lite again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Memories of one collection held here at most (at 384 dimensions, 75 MB).
LOCAL_LIMIT = 50_000


@dataclass(slots=True)
class _Scope:
    """One scope's rows: primary keys, tag indexes and unit vectors (rows ``0..len(keys)``)."""

    dim: int
    keys: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    where: dict[str, int] = field(default_factory=dict)
    matrix: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.matrix = np.empty((0, self.dim), dtype=np.float32)

    def put(self, key: str, tag_index: str, vector: np.ndarray) -> None:
        at = self.where.get(key)
        if at is None:
            at = len(self.keys)
            if at == len(self.matrix):
                grown = np.empty((max(16, 2 * at), self.dim), dtype=np.float32)
                grown[:at] = self.matrix[:at]
                self.matrix = grown
            self.keys.append(key)
            self.tags.append(tag_index)
            self.where[key] = at
        self.tags[at] = tag_index
        self.matrix[at] = vector

    def remove(self, key: str) -> None:
        at = self.where.pop(key, None)
        if at is None:
            return
        last = len(self.keys) - 1
        if at != last:  # the last row takes the freed place
            moved = self.keys[last]
            self.keys[at], self.tags[at] = moved, self.tags[last]
            self.matrix[at] = self.matrix[last]
            self.where[moved] = at
        self.keys.pop()
        self.tags.pop()


class LocalIndex:
    """Exact cosine search over one collection's vectors, per scope."""

    def __init__(self, collection: str, dim: int) -> None:
        self.collection = collection
        self.dim = dim
        self._scopes: dict[str, _Scope] = {}

    def __len__(self) -> int:
        return sum(len(s.keys) for s in self._scopes.values())

    def put(self, rows: Iterable[tuple[str, str, str, Sequence[float]]]) -> None:
        """Add or replace ``(primary key, scope, tag_index, vector)`` rows."""
        for key, scope, tag_index, vector in rows:
            unit = np.asarray(vector, dtype=np.float32)
            if unit.shape != (self.dim,):
                raise ValueError(f"a vector of {unit.shape} in an index of {self.dim} dimensions")
            norm = float(np.linalg.norm(unit))
            block = self._scopes.setdefault(scope, _Scope(self.dim))
            block.put(key, tag_index or "|", unit / norm if norm > 0 else unit)

    def remove(self, scope: str, key: str) -> None:
        block = self._scopes.get(scope)
        if block is not None:
            block.remove(key)

    def nearest(
        self, scope: str, query: Sequence[float], limit: int, tag_marks: Sequence[str] = ()
    ) -> list[tuple[str, float, np.ndarray]]:
        """The ``limit`` rows of ``scope`` nearest to ``query`` by cosine, best first, each as
        (primary key, cosine, unit vector); with ``tag_marks`` (``|hash|`` pieces) only rows
        whose tag index holds one of them."""
        block = self._scopes.get(scope)
        if block is None or not block.keys:
            return []
        q = np.asarray(query, dtype=np.float32)
        norm = float(np.linalg.norm(q))
        q = q / norm if norm > 0 else q
        rows = np.arange(len(block.keys))
        if tag_marks:
            rows = np.asarray(
                [i for i, tags in enumerate(block.tags) if any(m in tags for m in tag_marks)],
                dtype=np.int64,
            )
            if not len(rows):
                return []
            scores = _dot(block.matrix[rows], q)
        else:  # a view of the filled rows: no copy of the matrix
            scores = _dot(block.matrix[: len(block.keys)], q)
        if limit < len(rows):
            best = np.argpartition(-scores, limit - 1)[:limit]
        else:
            best = np.arange(len(rows))
        best = best[np.argsort(-scores[best], kind="stable")]
        return [
            (block.keys[rows[i]], float(scores[i]), block.matrix[rows[i]]) for i in best.tolist()
        ]


def _dot(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """``matrix @ vector`` on this thread: OpenBLAS' threads, woken for each search on two busy
    cores, took 8 ms for 10,300 x 384 where einsum's own loop takes 0.7 ms."""
    return np.asarray(np.einsum("ij,j->i", matrix, vector))


def load_index(
    client: Any, collection: str, dim: int, skip_scope: str, limit: int = LOCAL_LIMIT
) -> LocalIndex | None:
    """Read every row of ``collection`` but ``skip_scope``'s into a new index (blocking: run
    it in a thread); None when it holds more than ``limit``."""
    index = LocalIndex(collection, dim)
    iterator = client.query_iterator(
        collection,
        batch_size=1000,
        filter='key != ""',
        output_fields=["key", "scope", "tag_index", "embedding"],
    )
    try:
        while batch := iterator.next():
            index.put(
                (str(r["key"]), str(r["scope"]), str(r.get("tag_index") or "|"), r["embedding"])
                for r in batch
                if str(r["scope"]) != skip_scope
            )
            if len(index) > limit:
                return None
    finally:
        iterator.close()
    return index
