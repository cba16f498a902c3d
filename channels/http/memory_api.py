"""Long-term memory over the HTTP API: save, search, delete and count, in the caller's tenant.

``POST /v1/memories`` saves ``{"content", "tags"?}`` and answers its key,
``POST /v1/memories/search`` answers the memories nearest to ``{"query", "top_k"?, "tags"?}``
(each with when it was saved and last confirmed, and the user's own ``words`` it was saved
from in a turn, "" when none),
``DELETE /v1/memories/{key}`` deletes one (404 when the tenant has none with that key) and
``GET /v1/memories/stats`` says how many memories the tenant has and where they live (the
address, and why the store is degraded, for admins only).

The tenant is the one :mod:`channels.http.tenancy` decides, as for ``/v1/sessions``: an admin
may name another with ``?tenant=NAME``. A daemon without long-term memory (``memory.embed``
off, or a store it could not open) answers 409 ``memory_off``; a store that fails while
answering, 503 ``memory_unavailable`` (its reason goes to the daemon's log, not the client).
A refused input is a 400 saying the limit it broke.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import structlog
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from agentd import scope as scopes
from agentd.engine.runtime import Runtime
from agentd.errors import InvalidMemory, MemoryUnavailable
from agentd.memory.longterm import MAX_TOP_K, Memory, MemoryStore, check_key
from channels.http.guard import read_json_object
from channels.http.principals import Principal
from channels.http.sessions_api import Guard
from channels.http.tenancy import tenant_of, tenant_scope
from channels.http.wire import ApiError

log = structlog.get_logger("channels.http.memory")

#: A memory's content (8 KiB) and tags (2 KiB) as JSON, with room for escapes.
BODY_LIMIT = 64 * 1024
DEFAULT_TOP_K = 5


def _memory_json(memory: Memory) -> dict[str, Any]:
    return {
        "id": memory.key,
        "object": "memory",
        "content": memory.content,
        "tags": list(memory.tags),
        "ts": memory.ts,
        "confirmed": memory.confirmed,
        "words": memory.words,
        "agent_id": memory.agent_id,
        "score": memory.score,
    }


def _text(body: dict[str, Any], name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, f"{name} is a non-empty string", param=name, code="invalid_value")
    return value


def _tags(body: dict[str, Any]) -> tuple[str, ...]:
    value = body.get("tags")
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ApiError(400, "tags is a list of strings", param="tags", code="invalid_value")
    return tuple(value)


def _top_k(body: dict[str, Any]) -> int:
    value = body.get("top_k", DEFAULT_TOP_K)
    # bool is an int to Python, never to a client.
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TOP_K:
        raise ApiError(
            400,
            f"top_k is a whole number from 1 to {MAX_TOP_K}",
            param="top_k",
            code="invalid_value",
        )
    return value


def _key(request: Request) -> str:
    try:
        return check_key(request.path_params["key"])
    except InvalidMemory:
        # The refused value is not echoed: it may be anything, a pasted secret included.
        raise ApiError(
            400,
            "a memory key is 1-200 letters, digits and _ . : -",
            param="key",
            code="invalid_key",
        ) from None


class MemoryApi:
    """The memory endpoints, on the daemon's long-term memory store (None: memory is off)."""

    def __init__(
        self, runtime: Runtime, memory: MemoryStore | None, *, body_timeout: float
    ) -> None:
        self.runtime = runtime
        self.memory = memory
        self.body_timeout = body_timeout

    def routes(self, guard: Guard) -> list[Route]:
        """The routes, each wrapped by ``guard(route_name, endpoint)``."""
        return [
            Route("/v1/memories", guard("memory", self.save), methods=["POST"]),
            Route("/v1/memories/search", guard("memory", self.search), methods=["POST"]),
            Route("/v1/memories/stats", guard("memory", self.stats), methods=["GET"]),
            Route("/v1/memories/{key}", guard("memory", self.delete), methods=["DELETE"]),
        ]

    def _store(self) -> MemoryStore:
        if self.memory is None:
            raise ApiError(
                409,
                "this daemon runs without long-term memory: memory.embed is off, or its store "
                "could not be opened at start (the daemon's log says why)",
                code="memory_off",
            )
        return self.memory

    async def _body(self, request: Request) -> dict[str, Any]:
        return await read_json_object(request, limit=BODY_LIMIT, within=self.body_timeout)

    async def save(self, request: Request, who: Principal) -> Response:
        tenant, store = tenant_of(request, who), self._store()
        body = await self._body(request)
        memory = Memory(content=_text(body, "content"), tags=_tags(body))
        with scopes.use(tenant_scope(self.runtime, tenant)), _translated(tenant):
            key = await store.save(memory)
        return JSONResponse({"id": key, "object": "memory", "tenant": tenant})

    async def search(self, request: Request, who: Principal) -> Response:
        tenant, store = tenant_of(request, who), self._store()
        body = await self._body(request)
        query, top_k, tags = _text(body, "query"), _top_k(body), _tags(body)
        with scopes.use(tenant_scope(self.runtime, tenant)), _translated(tenant):
            found = await store.search(query, top_k, tags)
        data = [_memory_json(m) for m in found]
        return JSONResponse({"object": "list", "tenant": tenant, "data": data})

    async def delete(self, request: Request, who: Principal) -> Response:
        tenant, key, store = tenant_of(request, who), _key(request), self._store()
        with scopes.use(tenant_scope(self.runtime, tenant)), _translated(tenant):
            deleted = await store.delete(key)
        if not deleted:
            raise ApiError(
                404,
                f"no memory {key!r} in tenant {tenant!r}",
                type="not_found_error",
                code="memory_not_found",
            )
        return JSONResponse({"id": key, "object": "memory.deleted", "deleted": True})

    async def stats(self, request: Request, who: Principal) -> Response:
        tenant, store = tenant_of(request, who), self._store()
        with scopes.use(tenant_scope(self.runtime, tenant)), _translated(tenant):
            stats = await store.stats()
        body: dict[str, Any] = {
            "object": "memory.stats",
            "tenant": tenant,
            "backend": stats.backend,
            "collection": stats.collection,
            "dimension": stats.dimension,
            "memories": stats.memories_in_scope,
            # Where the store lives and what failed in it are the operator's business.
            "address": stats.address if who.admin else None,
            "degraded": (stats.degraded if who.admin else "degraded") if stats.degraded else None,
        }
        return JSONResponse(body)


@contextmanager
def _translated(tenant: str) -> Iterator[None]:
    """The store's refusals as API errors: InvalidMemory 400, MemoryUnavailable 503."""
    try:
        yield
    except InvalidMemory as exc:
        raise ApiError(400, str(exc), code="invalid_memory") from None
    except MemoryUnavailable as exc:
        # The store's words may name hosts or paths: the log gets them, the client does not.
        log.warning("http.memory_unavailable", tenant=tenant, reason=str(exc))
        raise ApiError(
            503,
            "long-term memory did not answer (the daemon's log says why); try again later",
            type="server_error",
            code="memory_unavailable",
        ) from None
