"""Re-embedding: moving memories to the vectors of a new embedding model, resumably.

Each embedding model's vectors live in a collection of their own (:func:`collection_for`), so
a model change never mixes vectors. When the store opens with a model whose collection is not
complete yet while the original collection (the chat model's vectors) holds memories,
:func:`plan` keeps searches on the old collection (with the old embedder, when there is one)
and :func:`run` copies every memory over in batches, embedding its text with the new model.

Nothing is lost to a crash or ``kill -9``: a batch is upserted (and flushed) before the next
one starts, each pass copies only the keys the new collection lacks (and drops what was deleted
from the old one meanwhile), and the switch happens once a pass finds nothing left to do, under
the store's write lock, marked by a row in the new collection (key ``meta.reembedded``, a scope
no tenant can have). The old collection is left as it was: dropping it is the operator's call.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import structlog

from agentd.memory.collection import META_SCOPE, SCHEMA_FIELDS, create_collection, literal
from agentd.memory.longterm import Embedder, indexed_text
from agentd.memory.milvus import MilvusStore

log = structlog.get_logger("agentd.memory.reembed")

MARKER_KEY = "meta.reembedded"
MARKER_SCOPE = META_SCOPE
BATCH = 64
_COPIED = sorted(SCHEMA_FIELDS - {"embedding"})


@dataclass(slots=True)
class Plan:
    """A pending move from ``source`` (old vectors) to ``target`` (``embedder``'s)."""

    source: str
    target: str
    embedder: Embedder
    dimension: int
    copied: int = 0
    #: Whether the old collection keeps confirmed times (made by a version that had them).
    confirmed: bool = False
    #: Whether the old collection keeps the user's words, and whether the new one does.
    words: bool = False
    target_words: bool = False


async def plan(store: MilvusStore, source: str, previous: Embedder | None) -> Plan | None:
    """What re-embedding the store needs; None when its collection can be used as it is.

    ``store`` was opened on the new model's collection; while a plan runs and ``previous`` can
    embed queries for the old collection, the store serves from the old one.
    """
    target, embedder = store.collection, store.embedder
    if target == source or await _has_marker(store, target):
        return None
    if not await _exists(store, source) or await _count(store, source) == 0:
        await _mark(store, target, source)
        return None
    dimension = store.dimension or len(await embedder.query("dimension probe"))
    if not await _exists(store, target):
        await store._call(
            "create_collection", create_collection, store._client, target, dimension, store._timeout
        )
    pending = Plan(source=source, target=target, embedder=embedder, dimension=dimension)
    held = await _field_names(store, source)
    pending.confirmed, pending.words = "confirmed" in held, "words" in held
    pending.target_words = "words" in await _field_names(store, target)
    if previous is not None:
        await store.switch(source, previous, None)
        log.info("memory.reembed_planned", source=source, target=target, serving=source)
    else:
        await store.switch(target, embedder, dimension)
        log.warning(
            "memory.reembed_planned",
            source=source,
            target=target,
            serving=target,
            effect="memories not yet re-embedded are not found until the move is done",
        )
    return pending


async def run(store: MilvusStore, pending: Plan) -> None:
    """Copy and re-embed until the new collection holds every memory, then switch to it."""
    total = await _count(store, pending.source)
    log.info("memory.reembedding", target=pending.target, total=total, done=0)
    while True:
        async with store.write_lock:
            missing, extra = await _difference(store, pending)
            if not missing and not extra:
                await _mark(store, pending.target, pending.source)
                await store.switch(pending.target, pending.embedder, pending.dimension)
                log.info("memory.reembedded", target=pending.target, copied=pending.copied)
                return
        if extra:
            await _delete(store, pending.target, extra)
        for start in range(0, len(missing), BATCH):
            await _copy(store, pending, missing[start : start + BATCH])
            log.info("memory.reembedding", target=pending.target, total=total, done=pending.copied)


async def _difference(store: MilvusStore, pending: Plan) -> tuple[list[str], list[str]]:
    have = await _keys(store, pending.source)
    moved = await _keys(store, pending.target)
    moved.discard(MARKER_KEY)
    return sorted(have - moved), sorted(moved - have)


async def _copy(store: MilvusStore, pending: Plan, keys: Sequence[str]) -> None:
    optional = [("confirmed", pending.confirmed), ("words", pending.words)]
    rows = await store._call(
        "query",
        store._client.query,
        pending.source,
        filter=f"key in [{', '.join(literal(k) for k in keys)}]",
        output_fields=[*_COPIED, *(name for name, held in optional if held)],
        timeout=store._timeout,
    )
    rows = [
        {
            **{name: row[name] for name in _COPIED},
            "confirmed": int(row.get("confirmed") or 0),
            "words": str(row.get("words") or ""),
        }
        for row in rows
    ]
    if not rows:
        return
    texts = [indexed_text(str(row["content"]), row["words"]) for row in rows]
    vectors = await pending.embedder.documents(texts)
    for row, vector in zip(rows, vectors, strict=True):
        if len(vector) != pending.dimension:
            raise ValueError(
                f"the new model gave {len(vector)} dimensions, not {pending.dimension}"
            )
        row["embedding"] = [float(x) for x in vector]
        row["tag_keys"] = list(row["tag_keys"])
        if not pending.target_words:
            del row["words"]
    await store._call("upsert", store._client.upsert, pending.target, rows, timeout=store._timeout)
    await store._call("flush", store._client.flush, pending.target, timeout=store._timeout)
    pending.copied += len(rows)


async def _delete(store: MilvusStore, collection: str, keys: Sequence[str]) -> None:
    expr = f"key in [{', '.join(literal(k) for k in keys)}]"
    await store._call(
        "delete", store._client.delete, collection, filter=expr, timeout=store._timeout
    )


async def _keys(store: MilvusStore, collection: str) -> set[str]:
    def scan() -> set[str]:
        found: set[str] = set()
        iterator = store._client.query_iterator(
            collection, batch_size=1000, filter='key != ""', output_fields=["key"]
        )
        try:
            while batch := iterator.next():
                found.update(str(row["key"]) for row in batch)
        finally:
            iterator.close()
        return found

    return await store._call("scan", scan)


async def _field_names(store: MilvusStore, collection: str) -> set[str]:
    desc = await store._call(
        "describe", store._client.describe_collection, collection, timeout=store._timeout
    )
    return {str(f.get("name")) for f in desc.get("fields", [])}


async def _exists(store: MilvusStore, collection: str) -> bool:
    exists = await store._call(
        "has_collection", store._client.has_collection, collection, timeout=store._timeout
    )
    return bool(exists)


async def _count(store: MilvusStore, collection: str) -> int:
    await store._call("load", store._client.load_collection, collection, timeout=store._timeout)
    rows: list[dict[str, Any]] = await store._call(
        "count",
        store._client.query,
        collection,
        filter=f"scope != {literal(MARKER_SCOPE)}",
        output_fields=["count(*)"],
        timeout=store._timeout,
    )
    return int(rows[0]["count(*)"]) if rows else 0


async def _has_marker(store: MilvusStore, collection: str) -> bool:
    if not await _exists(store, collection):
        return False
    await store._call("load", store._client.load_collection, collection, timeout=store._timeout)
    rows = await store._call(
        "query",
        store._client.query,
        collection,
        filter=f"key == {literal(MARKER_KEY)}",
        output_fields=["key"],
        timeout=store._timeout,
    )
    return bool(rows)


async def _mark(store: MilvusStore, target: str, source: str) -> None:
    """Write the row saying ``target`` is complete (creating the collection when needed)."""
    if not await _exists(store, target):
        dimension = store.dimension or len(await store.embedder.query("dimension probe"))
        await store._call(
            "create_collection", create_collection, store._client, target, dimension, store._timeout
        )
    dimension = await store.dimension_of(target)
    marker: dict[str, Any] = {
        "key": MARKER_KEY,
        "content": json.dumps({"from": source, "at": int(time.time() * 1000)}),
        "embedding": [1.0] + [0.0] * (dimension - 1),
        "tags": "[]",
        "ts": int(time.time() * 1000),
        "confirmed": 0,
        "agent_id": "",
        "tenant": "",
        "scope": MARKER_SCOPE,
        "tag_keys": [],
        "tag_index": "|",
    }
    if "words" in await _field_names(store, target):
        marker["words"] = ""
    await store._call("upsert", store._client.upsert, target, [marker], timeout=store._timeout)
    await store._call("flush", store._client.flush, target, timeout=store._timeout)
    if target == store.collection and store.dimension is None:
        await store._inspect()  # the store made it just now: it exists for the store too
