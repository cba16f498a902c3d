"""Stored sessions over the HTTP API: list, read and clear them, in the caller's tenant.

``GET /v1/sessions`` lists the tenant's stored sessions (most recent first),
``GET /v1/sessions/{id}/messages?limit=N`` gives a session's newest N messages (0: all) in the
stored message shape, and ``DELETE /v1/sessions/{id}`` clears its history and the copy held in
memory, so its next turn starts afresh. Ids are shown as stored: the HTTP session ``s1`` is
``http:s1``.

Every one acts in the principal's tenant (:mod:`channels.http.tenancy`): an admin may name
another with ``?tenant=NAME``; anyone else naming a tenant not its own gets 403, and
``GET /v1/tenants`` (the tenants the install knows, with their limits) is for admins alone.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from agentd import scope as scopes
from agentd.config import TenantLimits
from agentd.engine.runtime import Runtime
from agentd.memory.history import HistoryStore
from channels.http.principals import Principal
from channels.http.tenancy import admin_only, tenant_of, tenant_scope
from channels.http.wire import SESSION_ID, ApiError

MAX_LIMIT = 10_000

Endpoint = Callable[[Request, Principal], Awaitable[Response]]
Handler = Callable[[Request], Awaitable[Response]]
#: Wraps an endpoint with the bearer token check and the rate limit (``Api._guarded``).
Guard = Callable[..., Handler]


@dataclass(frozen=True, slots=True)
class TenantInfo:
    """A tenant the install knows, and its limits."""

    name: str
    limits: TenantLimits


#: The tenants the install knows (configured, or with stored history or usage).
ListTenants = Callable[[], Awaitable[list[TenantInfo]]]


def _session(request: Request) -> str:
    value: str = request.path_params["session_id"]
    if not SESSION_ID.match(value):
        raise ApiError(
            400,
            "a session id is 1-128 characters of letters, digits and . : @ + - _",
            param="session_id",
            code="invalid_session",
        )
    return value


def _limit(request: Request) -> int:
    raw = request.query_params.get("limit", "0")
    if not raw.isdigit() or int(raw) > MAX_LIMIT:
        raise ApiError(
            400,
            f"limit is a whole number from 0 (all messages) to {MAX_LIMIT}",
            param="limit",
            code="invalid_value",
        )
    return int(raw)


def _unknown(session_id: str, tenant: str) -> ApiError:
    return ApiError(
        404,
        f"no stored session {session_id!r} in tenant {tenant!r} (GET /v1/sessions lists them)",
        type="not_found_error",
        code="session_not_found",
    )


class SessionsApi:
    """The session and tenant endpoints, on one runtime's history."""

    def __init__(self, runtime: Runtime, tenants: ListTenants) -> None:
        self.runtime = runtime
        self.tenants = tenants

    def routes(self, guard: Guard) -> list[Route]:
        """The routes, each wrapped by ``guard(route_name, endpoint)``."""
        return [
            Route("/v1/sessions", guard("sessions", self.list_sessions), methods=["GET"]),
            Route(
                "/v1/sessions/{session_id}/messages",
                guard("sessions", self.messages),
                methods=["GET"],
            ),
            Route("/v1/sessions/{session_id}", guard("sessions", self.clear), methods=["DELETE"]),
            Route("/v1/tenants", guard("tenants", self.list_tenants), methods=["GET"]),
        ]

    def _scope(self, tenant: str) -> scopes.Scope:
        return tenant_scope(self.runtime, tenant)

    @property
    def _history(self) -> HistoryStore | None:
        return self.runtime.sessions.history

    async def list_sessions(self, request: Request, who: Principal) -> Response:
        tenant = tenant_of(request, who)
        history = self._history
        with scopes.use(self._scope(tenant)):
            infos = await history.list_sessions() if history is not None else []
        data = [
            {
                "id": i.session_id,
                "object": "session",
                "messages": i.messages,
                "last_active": i.last_active,
            }
            for i in infos
        ]
        return JSONResponse({"object": "list", "tenant": tenant, "data": data})

    async def messages(self, request: Request, who: Principal) -> Response:
        tenant, session_id, limit = tenant_of(request, who), _session(request), _limit(request)
        history = self._history
        with scopes.use(self._scope(tenant)):
            stored = (
                await history.load_conversation(session_id, limit=limit)
                if history is not None
                else []
            )
        if not stored:
            raise _unknown(session_id, tenant)
        data = [json.loads(m.to_stored()) for m in stored]
        return JSONResponse({"object": "list", "id": session_id, "tenant": tenant, "data": data})

    async def clear(self, request: Request, who: Principal) -> Response:
        tenant, session_id = tenant_of(request, who), _session(request)
        history = self._history
        with scopes.use(self._scope(tenant)):
            infos = await history.list_sessions() if history is not None else []
            count = next((i.messages for i in infos if i.session_id == session_id), None)
            if count is None:
                raise _unknown(session_id, tenant)
            # The runtime's forget: under the session's lock, from memory and from the store.
            await self.runtime.forget(session_id)
        body = {"id": session_id, "object": "session.deleted", "deleted": True, "messages": count}
        return JSONResponse(body)

    async def list_tenants(self, request: Request, who: Principal) -> Response:
        if not who.admin:
            raise admin_only(request.url.path, who)
        data: list[dict[str, Any]] = [
            {"id": t.name, "object": "tenant", **t.limits.model_dump()}
            for t in await self.tenants()
        ]
        return JSONResponse({"object": "list", "data": data})


def fixed_tenants(names: Sequence[str]) -> ListTenants:
    """A tenant list of ``names`` with default limits (an app with no history to ask)."""

    async def tenants() -> list[TenantInfo]:
        return [TenantInfo(n, TenantLimits()) for n in sorted(set(names))]

    return tenants
