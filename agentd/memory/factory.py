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

import structlog

from agentd.errors import MemoryUnavailable
from agentd.memory.longterm import EmbedFunc, MemoryStore
from agentd.memory.milvus import MilvusStore

__all__ = ["open_store", "open_store_or_warn"]

log = structlog.get_logger("agentd.memory")


@asynccontextmanager
async def open_store(settings: Any, embed: EmbedFunc | None) -> AsyncIterator[MemoryStore | None]:
    """The long-term memory store the settings describe, or None when memory is off.

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
    async with MilvusStore.open(
        str(addr).strip(),
        embed,
        collection=settings.milvus.collection,
        token=token.get_secret_value() if token else "",
        db_name=settings.milvus.db_name,
        call_timeout=settings.milvus.timeout,
    ) as store:
        yield store


@asynccontextmanager
async def open_store_or_warn(
    settings: Any, embed: EmbedFunc | None
) -> AsyncIterator[MemoryStore | None]:
    """:func:`open_store`, but an unavailable store is a logged warning and ``None``."""
    async with AsyncExitStack() as stack:
        store: MemoryStore | None
        try:
            store = await stack.enter_async_context(open_store(settings, embed))
        except MemoryUnavailable as exc:
            log.warning("memory.unavailable", reason=str(exc), effect="running without memory")
            store = None
        if store is None and embed is None:
            log.info("memory.disabled", reason="memory.embed is false")
        yield store
