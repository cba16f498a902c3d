"""Opening the long-term memory store that the settings describe.

:func:`open_store` keeps the three cases of the original design: no embedding function means no
long-term memory (``None``); an embedding function but no Milvus address, or a Milvus that cannot
be reached, raises :class:`~agentd.errors.MemoryUnavailable`, which :func:`open_store_or_warn`
(the app's choice) logs as a warning before it goes on without memory.

It sits above both the interface (:mod:`agentd.memory.longterm`) and its implementation
(:mod:`agentd.memory.milvus`), which imports pymilvus only when a store opens.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import anyio
import structlog

from agentd.errors import AgentdError, MemoryUnavailable
from agentd.memory import reembed
from agentd.memory.fulltext import TextIndex
from agentd.memory.hybrid import HybridStore
from agentd.memory.longterm import Embedder, EmbedFunc, FuncEmbedder, MemoryStore
from agentd.memory.milvus import MilvusStore

__all__ = ["open_store", "open_store_or_warn"]

log = structlog.get_logger("agentd.memory")

#: The full-text index's file under the state dir.
TEXT_INDEX = "memory-text.db"


@asynccontextmanager
async def open_store(
    settings: Any, embed: EmbedFunc | None, embedder: Embedder | None = None
) -> AsyncIterator[MemoryStore | None]:
    """The long-term memory store the settings describe, or None when memory is off.

    ``embed`` is the chat model's embedding function (None: memory is off); ``embedder``, when
    given, is the embedding model memory uses instead, and the memories the chat model's vectors
    hold are re-embedded with it in the background (:mod:`agentd.memory.reembed`). With
    ``memory.full_text``, searches are hybrid (:mod:`agentd.memory.hybrid`).

    Raises MemoryUnavailable when memory is on but Milvus is not configured or not reachable.
    """
    if embed is None:
        yield None
        return
    addr = settings.milvus_addr
    if not addr or not str(addr).strip():
        raise MemoryUnavailable(
            "memory.embed is on but milvus.addr is empty: set MILVUS_ADDR to a Milvus Lite path "
            "(ending in .db) or http://host:19530, or set MEMORY_EMBED=false"
        )
    token = settings.milvus.token
    base = settings.milvus.collection
    async with AsyncExitStack() as stack:
        dense = await stack.enter_async_context(
            MilvusStore.open(
                str(addr).strip(),
                embedder or embed,
                collection=base,
                token=token.get_secret_value() if token else "",
                db_name=settings.milvus.db_name,
                call_timeout=settings.milvus.timeout,
            )
        )
        pending = await reembed.plan(dense, base, FuncEmbedder(embed) if embedder else None)
        store: MemoryStore = dense
        hybrid = None
        if settings.memory.full_text:
            text = await TextIndex.open(settings.state_dir / TEXT_INDEX)
            hybrid = HybridStore(dense, text)
            stack.push_async_callback(hybrid.aclose)
            store = hybrid
        # The body's own exception is re-raised as itself, not wrapped in the task group's.
        error: BaseException | None = None
        async with anyio.create_task_group() as tg:
            tg.start_soon(_maintain, dense, pending, hybrid)
            try:
                yield store
            except BaseException as exc:
                error = exc
            finally:
                tg.cancel_scope.cancel()
        if error is not None:
            raise error


async def _maintain(
    dense: MilvusStore, pending: reembed.Plan | None, hybrid: HybridStore | None
) -> None:
    """Finish a re-embedding, fill the text index, then read ahead what the first search
    needs; failures are logged (the next start resumes where this one stopped)."""
    try:
        if pending is not None:
            await reembed.run(dense, pending)
        if hybrid is not None:
            await hybrid.backfill()
        await dense.warm()
    except (AgentdError, ValueError) as exc:
        log.warning(
            "memory.maintenance_failed", reason=str(exc)[:300], effect="retried at next start"
        )


@asynccontextmanager
async def open_store_or_warn(
    settings: Any, embed: EmbedFunc | None, embedder: Embedder | None = None
) -> AsyncIterator[MemoryStore | None]:
    """:func:`open_store`, but an unavailable store is a logged warning and ``None``."""
    async with AsyncExitStack() as stack:
        store: MemoryStore | None
        try:
            store = await stack.enter_async_context(open_store(settings, embed, embedder))
        except MemoryUnavailable as exc:
            log.warning("memory.unavailable", reason=str(exc), effect="running without memory")
            store = None
        if store is None and embed is None:
            log.info("memory.disabled", reason="memory.embed is false")
        yield store
