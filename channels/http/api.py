"""The HTTP API as a Starlette app: chat completions, models, health, readiness, metrics.

The stored sessions and the tenants are served by :mod:`channels.http.sessions_api`, long-term
memory by :mod:`channels.http.memory_api`.

Before any route, :mod:`channels.http.origin` refuses what a browser can forge (a Host that
does not name this server, a foreign Origin, a POST that is not JSON). ``/healthz`` and
``/readyz`` are open (probes carry no token); ``/metrics`` and ``/v1/*`` need a bearer token
whenever tokens are configured, failed attempts are limited per client address, and ``/v1/*`` is
rate limited per principal (without tokens the channel is on loopback, used by this machine
alone, and not limited). ``/metrics`` is for admin principals only (they count every tenant).
Every error leaves in the OpenAI error shape.

Each token stands for a principal (:mod:`channels.http.principals`), and every turn it asks for
runs in its tenant's scope: a session id names a conversation inside that tenant only, so the
same ``X-Session-Id`` sent by two tenants is two conversations, and memory tools see the
tenant's memories alone.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import structlog
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from agentd import scope as scopes
from agentd.config import HttpChannelSettings
from agentd.engine.runtime import Runtime, ToolOffer
from agentd.engine.turn import Turn
from agentd.memory.longterm import MemoryStore
from agentd.metrics import CONTENT_TYPE, Metrics
from channels.http.guard import Authenticator, RateLimiter, read_body
from channels.http.idempotency import HEADER as IDEMPOTENCY_HEADER
from channels.http.idempotency import idempotency_key
from channels.http.memory_api import MemoryApi
from channels.http.origin import BrowserGuard, BrowserPolicy
from channels.http.principals import Principal, local, principals
from channels.http.sessions_api import ListTenants, SessionsApi, fixed_tenants
from channels.http.sources import Sources
from channels.http.tenancy import admin_only
from channels.http.turn import TurnResponse
from channels.http.wire import (
    ApiError,
    Reply,
    RequestLimits,
    check_tool_choice,
    check_tool_clash,
    error_body,
    parse_request,
    session_id,
)

if TYPE_CHECKING:
    from channels.http.console import ConsoleParts, MinuteSamples

log = structlog.get_logger("channels.http")

SESSION_PREFIX = "http:"
LLM_PING_TTL = 5.0

Probe = Callable[[], Awaitable[bool]]


@dataclass(slots=True)
class Readiness:
    """What ``/readyz`` reports; the daemon fills in what it knows.

    ``channels`` says which channels are serving (this one is, if it answers); ``llm`` pings
    the model server (cached for a few seconds); ``memory`` names the long-term memory state
    (``ok``, ``degraded`` or ``off``) and never makes the daemon unready: it degrades.
    """

    channels: Callable[[], Mapping[str, bool]] = dict
    llm: Probe | None = None
    memory: Callable[[], str] | None = None
    #: Each MCP server's state (starting, up, down); shown, never making the daemon unready.
    mcp: Callable[[], Mapping[str, str]] | None = None
    #: The model server's prompt cache warm-up (``agentd.engine.warmup``); shown, never making
    #: the daemon unready: turns only run slower until it is ``done``.
    warm: Callable[[], str] | None = None
    _llm_cache: tuple[float, bool] | None = field(default=None, init=False, repr=False)

    async def llm_ok(self) -> bool:
        if self.llm is None:
            return True
        now = anyio.current_time()
        if self._llm_cache is not None and now - self._llm_cache[0] < LLM_PING_TTL:
            return self._llm_cache[1]
        ok = False
        with anyio.move_on_after(3.0):
            try:
                ok = await self.llm()
            except Exception as exc:
                log.warning("http.ready_probe_failed", error=repr(exc))
        self._llm_cache = (now, ok)
        return ok


def _error(exc: ApiError) -> JSONResponse:
    return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)


class Api:
    """The endpoints, bound to one runtime and one channel configuration."""

    def __init__(
        self,
        runtime: Runtime,
        settings: HttpChannelSettings,
        *,
        metrics: Metrics,
        readiness: Readiness,
        tenants: ListTenants | None = None,
        console: ConsoleParts | None = None,
        samples: MinuteSamples | None = None,
        memory: MemoryStore | None = None,
    ) -> None:
        self.runtime = runtime
        self.console = console
        self.samples = samples
        self.settings = settings
        self.metrics = metrics
        self.readiness = readiness
        failures = settings.auth_failures
        tenant = runtime.default_scope.tenant
        known = principals(settings, tenant)
        self.auth = Authenticator(known, RateLimiter(failures.per_minute, failures.burst))
        self.sources = Sources(settings.trusted_proxies)
        self.local = local(tenant)
        self.limiter = RateLimiter(
            settings.rate_limit.requests_per_minute, settings.rate_limit.burst
        )
        # A principal with a rate limit of its own gets its own buckets.
        self.own_limiters = {
            p.name: RateLimiter(p.rate_limit.requests_per_minute, p.rate_limit.burst)
            for p in known
            if p.rate_limit is not None
        }
        self.limits = RequestLimits(
            message_chars=settings.max_message_chars,
            request_chars=settings.max_request_chars,
            messages=settings.max_messages,
        )
        self.created = int(time.time())
        if tenants is None:
            tenants = fixed_tenants([tenant, *(p.tenant for p in known)])
        self.sessions = SessionsApi(runtime, tenants)
        self.memory = MemoryApi(runtime, memory, body_timeout=settings.body_timeout)

    def app(self) -> Starlette:
        routes: list[BaseRoute] = [
            Route("/healthz", self._open("healthz", self.healthz), methods=["GET"]),
            Route("/readyz", self._open("readyz", self.readyz), methods=["GET"]),
            Route(
                "/metrics",
                self._guarded("metrics", self.scrape, limit=False, admin=True),
                methods=["GET"],
            ),
            Route("/v1/models", self._guarded("models", self.models), methods=["GET"]),
            Route("/v1/models/{model}", self._guarded("models", self.model), methods=["GET"]),
            Route(
                "/v1/chat/completions",
                self._guarded("chat", self.chat_completions),
                methods=["POST"],
            ),
            *self.sessions.routes(self._guarded),
            *self.memory.routes(self._guarded),
        ]
        if self.console is not None:
            from channels.http.console.pages import Console

            parts = self.console
            routes += Console(
                self,
                memory=parts.memory,
                schedules=parts.schedules,
                health=parts.health,
                samples=self.samples,
            ).routes()
        policy = BrowserPolicy.build(
            bind_host=self.settings.host,
            allowed_hosts=self.settings.allowed_hosts,
            allowed_origins=self.settings.allowed_origins,
        )
        refused = Middleware(
            BrowserGuard, policy=policy, on_refuse=lambda status: self._count("other", status)
        )
        return Starlette(
            routes=routes,
            middleware=[refused],
            exception_handlers={HTTPException: self._http_error, Exception: self._crash},
        )

    def _count(self, route: str, status: int) -> None:
        self.metrics.http_requests.labels(route, str(status)).inc()

    def _open(
        self, route: str, endpoint: Callable[[Request], Awaitable[Response]]
    ) -> Callable[[Request], Awaitable[Response]]:
        async def handler(request: Request) -> Response:
            response = await endpoint(request)
            self._count(route, response.status_code)
            return response

        return handler

    def _guarded(
        self,
        route: str,
        endpoint: Callable[[Request, Principal], Awaitable[Response]],
        *,
        limit: bool = True,
        admin: bool = False,
    ) -> Callable[[Request], Awaitable[Response]]:
        async def handler(request: Request) -> Response:
            try:
                who = self.auth.identify(
                    request.headers.get("authorization"), self.sources.of(request)
                )
                if limit and who is not None:
                    self.own_limiters.get(who.name, self.limiter).check(who.name)
                principal = who or self.local
                if admin and not principal.admin:
                    raise admin_only(request.url.path, principal)
                with structlog.contextvars.bound_contextvars(
                    principal=principal.name, tenant=principal.tenant
                ):
                    response = await endpoint(request, principal)
                if isinstance(response, TurnResponse):
                    # Its status is known only once the turn has started answering.
                    response.on_finish = lambda status: self._count(route, status)
                    return response
            except ApiError as exc:
                if exc.status >= 500 or exc.status == 403:
                    log.warning("http.error", route=route, status=exc.status, reason=exc.message)
                response = _error(exc)
            except ClientDisconnect:
                response = Response(status_code=499)
            self._count(route, response.status_code)
            return response

        return handler

    async def _http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        kind = "not_found_error" if exc.status_code == 404 else "invalid_request_error"
        body = error_body(f"{request.method} {request.url.path}: {exc.detail}", kind)
        self._count("other", exc.status_code)
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)

    async def _crash(self, request: Request, exc: Exception) -> Response:
        log.error("http.crash", path=request.url.path, error=repr(exc))
        self._count("other", 500)
        body = error_body("internal error in agentd; see its log", "server_error")
        return JSONResponse(body, status_code=500)

    async def healthz(self, request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(self, request: Request) -> Response:
        channels = {"http": True, **self.readiness.channels()}
        llm = await self.readiness.llm_ok()
        memory = self.readiness.memory() if self.readiness.memory is not None else "off"
        ready = llm and all(channels.values())
        status = 200 if ready else 503
        body: dict[str, Any] = {"status": "ready" if ready else "not ready"}
        header = request.headers.get("authorization")
        if self.auth.required and header is None:
            # Without a token only the verdict: the checks name channels and MCP servers.
            return JSONResponse(body, status_code=status)
        if header is not None:
            try:
                self.auth.identify(header, self.sources.of(request))
            except ApiError as exc:
                return _error(exc)
        body |= {
            "checks": {
                "channels": channels,
                "llm": "ok" if llm else "unreachable",
                "memory": memory,
            },
        }
        if self.readiness.mcp is not None:
            body["checks"]["mcp"] = dict(self.readiness.mcp())
        if self.readiness.warm is not None:
            body["checks"]["warm"] = self.readiness.warm()
        return JSONResponse(body, status_code=status)

    async def scrape(self, request: Request, who: Principal) -> Response:
        return Response(self.metrics.exposition(), media_type=CONTENT_TYPE)

    def _model(self) -> dict[str, Any]:
        return {
            "id": self.settings.model_name,
            "object": "model",
            "created": self.created,
            "owned_by": "agentd",
        }

    async def models(self, request: Request, who: Principal) -> Response:
        return JSONResponse({"object": "list", "data": [self._model()]})

    async def model(self, request: Request, who: Principal) -> Response:
        if request.path_params["model"] != self.settings.model_name:
            raise ApiError(
                404,
                f"no model {request.path_params['model']!r}; this agent is "
                f"{self.settings.model_name!r}",
                type="not_found_error",
                code="model_not_found",
            )
        return JSONResponse(self._model())

    async def chat_completions(self, request: Request, who: Principal) -> Response:
        body = await read_body(
            request, limit=self.settings.max_body_bytes, within=self.settings.body_timeout
        )
        parsed = parse_request(body, self.limits)
        session = session_id(request.headers.get("x-session-id"), parsed.user)
        retry_key = idempotency_key(request.headers.get(IDEMPOTENCY_HEADER))
        headers: dict[str, str] = {}
        runtime, stream = self.runtime, parsed.stream
        # The principal's tenant, never the install's: this is what keeps tenants apart.
        scope = scopes.Scope(tenant=who.tenant, app=runtime.default_scope.app)
        with scopes.use(scope):  # the agent's tools this tenant is offered (MCP ones may not be)
            check_tool_clash(parsed, runtime.agent_loop.tools.names)
            check_tool_choice(parsed, runtime.agent_loop.tools.names)
        offer = ToolOffer(tuple(parsed.tools), use_tools=not parsed.no_tools, rule=parsed.rule)
        # The tool policy's audience: only admins may get exec (tools.policy.http_*).
        audience = "http_admin" if who.admin else "http_user"
        if session is not None:
            # Trailing tool messages answer the session's pending client calls; else the
            # trailing user messages are the new message (and close any pending calls).
            results = parsed.trailing_tool_results()
            key = SESSION_PREFIX + session
            text = "" if results else parsed.trailing_user_text()
            headers["X-Session-Id"] = session

            def start() -> AbstractAsyncContextManager[Turn]:
                return runtime.turn(
                    key,
                    text,
                    channel="http",
                    scope=scope,
                    stream=stream,
                    request_key=None if results else retry_key,
                    results=results,
                    tools=offer,
                    audience=audience,
                )
        else:

            def start() -> AbstractAsyncContextManager[Turn]:
                return runtime.turn_stateless(
                    parsed.messages,
                    channel="http",
                    scope=scope,
                    stream=stream,
                    tools=offer,
                    audience=audience,
                )

        @asynccontextmanager
        async def open_turn() -> AsyncIterator[Turn]:
            # The turn's task starts in here and inherits these, so its logs name the caller.
            with structlog.contextvars.bound_contextvars(principal=who.name, tenant=who.tenant):
                async with start() as turn:
                    yield turn

        return TurnResponse(
            open_turn,
            Reply(model=self.settings.model_name),
            stream=parsed.stream,
            include_usage=parsed.include_usage,
            send_timeout=self.settings.send_timeout,
            headers=headers,
        )


def build_app(
    runtime: Runtime,
    settings: HttpChannelSettings,
    *,
    metrics: Metrics | None = None,
    readiness: Readiness | None = None,
    tenants: ListTenants | None = None,
    console: ConsoleParts | None = None,
    samples: MinuteSamples | None = None,
    memory: MemoryStore | None = None,
) -> Starlette:
    """The ASGI app of the HTTP channel (tests drive it through ``httpx.ASGITransport``).

    Without ``metrics`` the app counts into a private :class:`Metrics` of its own; without
    ``tenants``, ``/v1/tenants`` lists the install's and the principals' tenants. With
    ``console`` the web console is served at ``/`` (its charts read ``samples``). ``memory``
    is the long-term memory ``/v1/memories`` serves (None: those answer 409 ``memory_off``).
    """
    if readiness is None:
        readiness = Readiness(llm=runtime.ping_model)
    if metrics is None:
        metrics = Metrics()
    api = Api(
        runtime,
        settings,
        metrics=metrics,
        readiness=readiness,
        tenants=tenants,
        console=console,
        samples=samples,
        memory=memory,
    )
    return api.app()
