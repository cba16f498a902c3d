"""MilvusStore: long-term memory in one Milvus collection (Milvus Lite or a Milvus server).

The collection's schema, field values and row decoding are :mod:`agentd.memory.collection`'s.
pymilvus blocks, so every call runs in a worker thread under a timeout; pymilvus itself is
imported when a store opens (it takes half a second). Lite and server answer in different
shapes (``delete`` returns a list or a dict); the store only reads what both return alike.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import structlog

from agentd import scope as scopes
from agentd.errors import AgentdError, MemoryUnavailable
from agentd.memory.centre import MEAN_SAMPLE, MeanVector, centred_cosines, centred_order
from agentd.memory.collection import (
    META_SCOPE,
    OUTPUT_FIELDS,
    PREFIX_CHARS,
    SCHEMA_FIELDS,
    collection_for,
    create_collection,
    hit_entity,
    hit_score,
    literal,
    memory_row,
    row_memory,
    scope_hash,
    tag_key,
)
from agentd.memory.connection import (
    connect,
    disconnect,
    failure_reason,
    is_lite,
    lite_path,
    shown,
)
from agentd.memory.local_index import LOCAL_LIMIT, LocalIndex, load_index
from agentd.memory.longterm import (
    Embedder,
    EmbedFunc,
    Memory,
    MemoryStats,
    as_embedder,
    check_content,
    check_key,
    check_top_k,
    indexed_text,
    memory_said,
    normalize_tags,
)

if TYPE_CHECKING:
    import numpy as np

log = structlog.get_logger("agentd.memory")

T = TypeVar("T")

_PROBE_TEXT = "dimension probe"
#: Seconds a server's "no collection yet" is believed before asking again: another daemon on
#: the same server may create it. A Milvus Lite file is this process's alone, so there the
#: answer holds until this process creates the collection (recall asks on every turn).
MISSING_RECHECK = 5.0
#: Query vectors kept, newest used last: recall and ``memory_search`` ask about the same texts
#: (a user's message, a question asked again), and a query's embedding is most of a search.
QUERY_CACHE = 256
#: Nearest memories a search reads to rank them around the mean (see agentd.memory.centre).
RERANK_DEPTH = 30


class MilvusStore:
    """Scoped long-term memory in a Milvus collection; open it with :meth:`open`."""

    def __init__(
        self,
        client: Any,
        embed: EmbedFunc | Embedder,
        *,
        uri: str,
        collection: str,
        timeout: float,
        dimension: int | None,
    ) -> None:
        self._client = client
        self.embedder = as_embedder(embed)
        self.uri = uri
        self.collection = collection
        self.lite = is_lite(uri)
        self.dimension = dimension
        #: Whether the collection has the ``confirmed`` field (collections made before it lack it).
        self.confirmed_field = False
        #: Whether the collection has the ``words`` field (collections made before it lack it).
        self.words_field = False
        self.degraded: str | None = None
        self._timeout = timeout
        self._limiter = anyio.CapacityLimiter(1 if self.lite else 8)
        self._ready = anyio.Lock()
        #: Held by every write, and by a re-embedding's last check and switch.
        self.write_lock = anyio.Lock()
        self._dirty = False
        self._deleted_since_write = False
        self._missing_until = 0.0
        self._query_vectors: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        self._means = MeanVector()
        #: Milvus Lite only: the collection's vectors in this process (agentd.memory.local_index).
        self._local: LocalIndex | None = None
        #: Set when the collection outgrew LOCAL_LIMIT: Milvus Lite searches itself.
        self._local_off = False

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        uri: str,
        embed: EmbedFunc | Embedder,
        *,
        collection: str = "memories",
        token: str = "",
        db_name: str = "",
        call_timeout: float = 10.0,
    ) -> AsyncIterator[MilvusStore]:
        """Connect to Milvus at ``uri`` and check the collection; close the client on exit.

        Raises MemoryUnavailable when Milvus cannot be reached or the collection does not fit.
        """
        if is_lite(uri):
            if not uri.endswith(".db"):
                raise MemoryUnavailable(
                    f"milvus.addr {uri!r} is neither http(s):// nor a Milvus Lite path (*.db)"
                )
            uri = await anyio.to_thread.run_sync(lite_path, uri)
        client = await connect(uri, token, db_name, call_timeout)
        embedder = as_embedder(embed)
        collection = collection_for(collection, embedder.model_id)
        store = cls(
            client, embedder, uri=uri, collection=collection, timeout=call_timeout, dimension=None
        )
        try:
            await store._inspect()
            log.info("memory.opened", uri=shown(uri), collection=collection, dim=store.dimension)
            yield store
        finally:
            with anyio.CancelScope(shield=True):
                await store.aclose()

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                await disconnect(self.uri, client)
            except Exception as exc:  # closing a broken connection must not mask the real error
                log.debug("memory.close_failed", error=failure_reason(exc))

    async def __aenter__(self) -> MilvusStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def _call(self, what: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run one blocking pymilvus call in a thread; failures become MemoryUnavailable."""
        if self._client is None:
            raise MemoryUnavailable("the memory store is closed")

        def run() -> T:
            return fn(*args, **kwargs)

        try:
            with anyio.fail_after(self._timeout + 5):
                result = await anyio.to_thread.run_sync(
                    run, limiter=self._limiter, abandon_on_cancel=True
                )
        except TimeoutError:
            self._degrade(f"Milvus {what} took longer than {self._timeout + 5:g}s")
            raise MemoryUnavailable(self.degraded or "") from None
        except AgentdError:
            raise
        except Exception as exc:
            self._degrade(f"Milvus {what} failed: {failure_reason(exc)}")
            raise MemoryUnavailable(self.degraded or "") from exc
        self._recover()
        return result

    def _degrade(self, reason: str) -> None:
        if self.degraded is None:
            log.warning("memory.degraded", reason=reason)
        self.degraded = reason

    def _recover(self) -> None:
        if self.degraded is not None:
            log.info("memory.recovered", was=self.degraded)
            self.degraded = None

    async def _inspect(self) -> None:
        """Learn the dimension of an existing collection and load it; refuse a foreign schema."""
        client = self._client
        kw = {"timeout": self._timeout}
        if not await self._call("has_collection", client.has_collection, self.collection, **kw):
            return
        desc = await self._call("describe", client.describe_collection, self.collection, **kw)
        fields = {f["name"]: f for f in desc.get("fields", [])}
        missing = SCHEMA_FIELDS - set(fields)
        if missing:
            raise MemoryUnavailable(
                f"collection {self.collection!r} lacks the fields {sorted(missing)}: it was made "
                "by something else; set milvus.collection to another name"
            )
        self.dimension = int(fields["embedding"]["params"]["dim"])
        self.confirmed_field = "confirmed" in fields
        self.words_field = "words" in fields
        await self._call("load", client.load_collection, self.collection, **kw)

    async def switch(self, collection: str, embedder: Embedder, dimension: int | None) -> None:
        """Serve from ``collection`` with ``embedder`` from now on (a re-embedding's move)."""
        self.collection, self.embedder, self.dimension = collection, embedder, dimension
        self._means, self._local, self._local_off = MeanVector(), None, False
        if dimension is None:
            await self._inspect()
        else:
            self.confirmed_field = self.words_field = True  # made by this version
            await self._call(
                "load", self._client.load_collection, collection, timeout=self._timeout
            )
        self._dirty = True

    async def dimension_of(self, collection: str) -> int:
        """The embedding dimension of ``collection`` (which exists)."""
        desc = await self._call(
            "describe", self._client.describe_collection, collection, timeout=self._timeout
        )
        fields = {f["name"]: f for f in desc.get("fields", [])}
        return int(fields["embedding"]["params"]["dim"])

    async def _ensure_collection(self) -> int:
        """The embedding dimension, creating the collection on first use (dimension probed)."""
        if self.dimension is not None:
            return self.dimension
        async with self._ready:
            if self.dimension is None:
                dim = len(await self._embed_query(_PROBE_TEXT))
                if dim == 0:
                    raise MemoryUnavailable("the embedding function returned an empty vector")
                await self._call(
                    "create_collection",
                    create_collection,
                    self._client,
                    self.collection,
                    dim,
                    self._timeout,
                )
                log.info("memory.collection_created", collection=self.collection, dim=dim)
                self.dimension = dim
                self.confirmed_field = self.words_field = True
        return self.dimension

    def forget_queries(self) -> None:
        """Empty the query vectors' cache (a benchmark timing cold searches)."""
        self._query_vectors.clear()

    async def _embed_query(self, text: str) -> list[float]:
        """The query vector of ``text``, from the cache when this model embedded it lately."""
        key = (self.embedder.model_id, text)
        cached = self._query_vectors.get(key)
        if cached is not None and (self.dimension is None or len(cached) == self.dimension):
            self._query_vectors.move_to_end(key)
            return cached
        vector = (await self._embedded(self.embedder.query(text), 1))[0]
        self._query_vectors[key] = vector
        while len(self._query_vectors) > QUERY_CACHE:
            self._query_vectors.popitem(last=False)
        return vector

    async def _embed_documents(self, texts: list[str]) -> list[list[float]]:
        return await self._embedded(self.embedder.documents(texts), len(texts))

    async def _embedded(self, pending: Any, count: int) -> list[list[float]]:
        """The vectors ``pending`` gives (one when it embeds a query), checked."""
        try:
            got = await pending
        except AgentdError as exc:
            self._degrade(f"embedding failed: {failure_reason(exc)}")
            raise MemoryUnavailable(self.degraded or "") from exc
        vectors = [got] if got and not isinstance(got[0], list) else list(got)
        if len(vectors) != count:
            self._degrade(f"the embedder returned {len(vectors)} vectors for {count} texts")
            raise MemoryUnavailable(self.degraded or "")
        for vector in vectors:
            if self.dimension is not None and len(vector) != self.dimension:
                self._degrade(
                    f"the embedding has {len(vector)} dimensions, collection "
                    f"{self.collection!r} holds {self.dimension}: use another milvus.collection "
                    "for this model"
                )
                raise MemoryUnavailable(self.degraded or "")
        return [[float(x) for x in vector] for vector in vectors]

    async def save(self, memory: Memory) -> str:
        return (await self.save_many([memory]))[0]

    async def save_many(self, memories: Sequence[Memory]) -> list[str]:
        scope = scopes.current()
        prefix = scope_hash(scope)
        rows = [memory_row(memory, scope, prefix) for memory in memories]
        if rows:
            bare = [row for row in rows if row["embedding"] is None]
            async with self.write_lock:
                # Under the lock: a re-embedding may switch the collection in between.
                dim = await self._ensure_collection()
                if bare:
                    texts = [indexed_text(row["content"], row["words"]) for row in bare]
                    vectors = await self._embed_documents(texts)
                    for row, vector in zip(bare, vectors, strict=True):
                        row["embedding"] = vector
                for row in rows:
                    if len(row["embedding"]) != dim:
                        raise MemoryUnavailable(
                            f"a memory's embedding has {len(row['embedding'])} dimensions, the "
                            f"collection {dim}"
                        )
                for row in rows:
                    if not self.confirmed_field:
                        row.pop("confirmed", None)
                    if not self.words_field:
                        row.pop("words", None)
                await self._call(
                    "upsert", self._client.upsert, self.collection, rows, timeout=self._timeout
                )
                if self._means.known:
                    self._means.add([row["embedding"] for row in rows])
                if self._local is not None:
                    self._local.put(
                        (row["key"], row["scope"], row["tag_index"], row["embedding"])
                        for row in rows
                    )
                    if len(self._local) > LOCAL_LIMIT:
                        self._local, self._local_off = None, True
            self._dirty = True
            self._deleted_since_write = False
        return [row["key"].partition(".")[2] for row in rows]

    async def search(
        self, query: str, top_k: int = 5, tags_include: Sequence[str] = ()
    ) -> list[Memory]:
        check_top_k(top_k)
        expr = f"scope == {literal(scope_hash(scopes.current()))}"
        tags = normalize_tags(tags_include)
        if tags:
            expr += " and " + self._tags_expr(tags)
        if self.dimension is None and not await self._collection_exists():
            return []
        return await self._nearest(await self._embed_query(query), top_k, tags, expr)

    async def neighbours(
        self, content: str, top_k: int, words: str = ""
    ) -> tuple[list[float], list[Memory]]:
        """The ``top_k`` memories nearest to ``content`` (with the user's ``words``) compared as
        a stored text (its document vector, returned for its save; two stored texts about one
        thing lie closer than a question and its answer), best first."""
        check_top_k(top_k)
        text = indexed_text(check_content(content), words)
        vector = (await self._embed_documents([text]))[0]
        if self.dimension is None and not await self._collection_exists():
            return vector, []
        expr = f"scope == {literal(scope_hash(scopes.current()))}"
        return vector, await self._nearest(vector, top_k, (), expr)

    async def _nearest(
        self, vector: list[float], top_k: int, tags: Sequence[str], expr: str
    ) -> list[Memory]:
        """The ``top_k`` memories nearest to ``vector``: found by plain cosine, then ranked
        around the mean (each with its ``closeness``) once it is known."""
        await self._flush_if_dirty()
        mean = await self._mean()
        limit = top_k if mean is None else max(top_k, RERANK_DEPTH)
        rows = await self._nearest_here(vector, limit, tags) if self.lite else None
        if rows is None:
            fields = self._fields() if mean is None else [*self._fields(), "embedding"]
            result = await self._call(
                "search",
                self._client.search,
                self.collection,
                data=[vector],
                limit=limit,
                filter=expr,
                output_fields=fields,
                search_params={"metric_type": "COSINE"},
                anns_field="embedding",
                timeout=self._timeout,
                **self._consistency(strong=self._deleted_since_write),
            )
            rows = [(hit_entity(hit), hit_score(hit)) for hit in (result[0] if result else [])]
        found = [row_memory(row, score=score) for row, score in rows]
        if mean is not None:
            vectors = [_vector(row, vector) for row, _ in rows]
            said = [memory_said(m) for m in found]
            close = centred_cosines(vector, vectors, mean)
            found = [
                dataclasses.replace(found[i], closeness=close[i])
                for i in centred_order(vector, vectors, mean, said)
            ]
        return found[:top_k]

    async def _nearest_here(
        self, vector: list[float], limit: int, tags: Sequence[str]
    ) -> list[tuple[dict[str, Any], float | None]] | None:
        """Milvus Lite: the nearest rows found by this process's index, read from Milvus; None
        when the collection is too large to be held here."""
        index = await self._local_index(self.dimension or len(vector))
        if index is None:
            return None
        marks = [f"|{tag_key(t)}|" for t in tags]
        nearest = index.nearest(scope_hash(scopes.current()), vector, limit, marks)
        if not nearest:
            return []
        wanted = ", ".join(literal(key) for key, _, _ in nearest)
        found = await self._call(
            "search",
            self._client.query,
            self.collection,
            filter=f"key in [{wanted}]",
            output_fields=self._fields(),
            timeout=self._timeout,
        )
        by_key = {str(row["key"]): dict(row) for row in found}
        return [
            ({**by_key[key], "embedding": unit}, score)
            for key, score, unit in nearest
            if key in by_key
        ]

    async def _local_index(self, dim: int) -> LocalIndex | None:
        """This process's index of the collection, read from it the first time (under the
        write lock: a save meanwhile would be missed by the read, and not added to an index
        that does not exist yet); None past LOCAL_LIMIT memories."""
        async with self.write_lock:
            if self._local_off:
                return None
            if self._local is None or self._local.collection != self.collection:
                started = anyio.current_time()
                self._local = await self._call(
                    "search",
                    load_index,
                    self._client,
                    self.collection,
                    dim,
                    META_SCOPE,
                    LOCAL_LIMIT,
                )
                seconds = round(anyio.current_time() - started, 2)
                if self._local is None:
                    self._local_off = True
                    log.info("memory.index_skipped", over=LOCAL_LIMIT, effect="Lite searches")
                else:
                    log.info("memory.index_loaded", memories=len(self._local), seconds=seconds)
            return self._local

    async def warm(self) -> None:
        """Read ahead what the first search would (the vectors' mean; Lite's index) so that
        search does not wait for it (0.4 s per 1,000 memories on Lite)."""
        if self.dimension is None and not await self._collection_exists():
            return
        await self._mean()
        if self.lite and self.dimension is not None:
            await self._local_index(self.dimension)

    async def _mean(self) -> np.ndarray | None:
        """The mean of the collection's vectors (None while too few), a sample of them read
        on the first search."""
        if not self._means.known:
            self._means.known = True  # saves from now on are counted as they come
            sample = await self._call(
                "search",  # a part of the first search: it fails as the search
                self._client.query,
                self.collection,
                filter=f"scope != {literal(META_SCOPE)}",
                output_fields=["embedding"],
                limit=MEAN_SAMPLE,
                timeout=self._timeout,
            )
            self._means.add([row["embedding"] for row in sample if row.get("embedding")])
        return self._means.mean()

    async def get_many(self, keys: Sequence[str]) -> list[Memory]:
        """The memories with ``keys`` in the current scope that exist, in no given order."""
        if not keys:
            return []
        prefix = scope_hash(scopes.current())[:PREFIX_CHARS]
        wanted = ", ".join(literal(f"{prefix}.{check_key(k)}") for k in keys)
        if self.dimension is None and not await self._collection_exists():
            return []
        rows = await self._call(
            "query",
            self._client.query,
            self.collection,
            filter=f"key in [{wanted}] and {self._scope_expr()}",
            output_fields=self._fields(),
            timeout=self._timeout,
            **self._consistency(strong=True),
        )
        return [row_memory(row) for row in rows]

    async def scan(self, fields: Sequence[str]) -> list[dict[str, Any]]:
        """Every row of the serving collection, every scope (``fields`` of each)."""
        if self.dimension is None and not await self._collection_exists():
            return []
        collection = self.collection

        def scan() -> list[dict[str, Any]]:
            out: list[dict[str, Any]] = []
            iterator = self._client.query_iterator(
                collection, batch_size=1000, filter='key != ""', output_fields=list(fields)
            )
            try:
                while batch := iterator.next():
                    out.extend(dict(row) for row in batch)
            finally:
                iterator.close()
            return out

        return await self._call("scan", scan)

    async def get(self, key: str) -> Memory | None:
        rows = await self._query_key(key, self._fields())
        return row_memory(rows[0]) if rows else None

    async def delete(self, key: str) -> bool:
        rows = await self._query_key(key, ["key"])
        if not rows:
            return False
        expr = f"key == {literal(str(rows[0]['key']))} and {self._scope_expr()}"
        # Lite answers with a list of keys, a server with {"delete_count": n}: neither is read.
        async with self.write_lock:
            await self._call(
                "delete", self._client.delete, self.collection, filter=expr, timeout=self._timeout
            )
            if self._local is not None:
                self._local.remove(scope_hash(scopes.current()), str(rows[0]["key"]))
        self._dirty = True
        self._deleted_since_write = True
        return True

    async def stats(self) -> MemoryStats:
        expr = self._scope_expr()
        count = 0
        if self.dimension is not None or await self._collection_exists():
            rows = await self._call(
                "count",
                self._client.query,
                self.collection,
                filter=expr,
                output_fields=["count(*)"],
                timeout=self._timeout,
                **self._consistency(strong=True),
            )
            count = int(rows[0]["count(*)"]) if rows else 0
        return MemoryStats(
            backend="milvus-lite" if self.lite else "milvus",
            address=shown(self.uri),
            collection=self.collection,
            dimension=self.dimension,
            memories_in_scope=count,
            degraded=self.degraded,
        )

    def _fields(self) -> list[str]:
        """The fields a read returns (``confirmed`` and ``words`` where the collection has them)."""
        fields = list(OUTPUT_FIELDS)
        if self.confirmed_field:
            fields.append("confirmed")
        if self.words_field:
            fields.append("words")
        return fields

    def _tags_expr(self, tags: Sequence[str]) -> str:
        """A filter matching memories with any of ``tags`` (hex digests only, no wildcards)."""
        if self.lite:
            likes = " or ".join(f"tag_index like {literal(f'%|{tag_key(t)}|%')}" for t in tags)
            return f"({likes})"
        wanted = ", ".join(literal(tag_key(t)) for t in tags)
        return f"array_contains_any(tag_keys, [{wanted}])"

    def _consistency(self, *, strong: bool) -> dict[str, str]:
        """Read options: Strong where a read must see deletes (and other processes' writes).

        The collection's Session level shows this client its own inserts, not its deletes; a
        Strong read waits for the server's next time tick (~200 ms), so only key lookups, counts
        and the first search after a delete pay it. Milvus Lite is always consistent.
        """
        if self.lite or not strong:
            return {}
        return {"consistency_level": "Strong"}

    def _scope_expr(self) -> str:
        return f"scope == {literal(scope_hash(scopes.current()))}"

    async def _query_key(self, key: str, fields: list[str]) -> list[dict[str, Any]]:
        expr = self._scope_expr()
        prefix = scope_hash(scopes.current())[:PREFIX_CHARS]
        pk = f"{prefix}.{check_key(key)}"
        if self.dimension is None and not await self._collection_exists():
            return []
        rows = await self._call(
            "query",
            self._client.query,
            self.collection,
            filter=f"key == {literal(pk)} and {expr}",
            output_fields=fields,
            timeout=self._timeout,
            **self._consistency(strong=True),
        )
        return list(rows)

    async def _collection_exists(self) -> bool:
        if anyio.current_time() < self._missing_until:
            return False
        exists = await self._call(
            "has_collection", self._client.has_collection, self.collection, timeout=self._timeout
        )
        if exists and self.dimension is None:
            await self._inspect()
        if not exists:
            wait = float("inf") if self.lite else MISSING_RECHECK
            self._missing_until = anyio.current_time() + wait
        return bool(exists)

    async def _flush_if_dirty(self) -> None:
        # Milvus Lite searches unflushed rows by brute force (~20x slower). A server makes this
        # process's writes visible by the collection's Session consistency (read your writes
        # without Strong's wait of a time tick, ~200 ms, on every read); a flush costs seconds.
        if self.lite and self._dirty:
            self._dirty = False
            await self._call("flush", self._client.flush, self.collection, timeout=self._timeout)


def _vector(row: dict[str, Any], fallback: list[float]) -> Any:
    """The row's embedding (a list, or the local index's array), else ``fallback``."""
    found = row.get("embedding")
    return fallback if found is None or len(found) == 0 else found
