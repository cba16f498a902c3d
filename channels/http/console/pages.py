"""The console's routes: sign-in, the five pages and the few actions they POST.

Pages are Jinja2 templates with autoescaping on every template, so model and tool output is text
wherever it lands. Every answer carries the console's security headers (:data:`SECURITY_HEADERS`:
a Content-Security-Policy with ``script-src 'self'`` and no inline code, no framing, no referrer).
Actions are JSON POSTs under ``/console/api/`` from the console's own script: the browser guard
has already checked Host, Origin and Content-Type; here they need a live sign-in and its CSRF
token. A principal acts in its own tenant; an admin may pick another with ``?tenant=``.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import structlog
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.datastructures import MutableHeaders
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as AsgiMessage

from agentd import scope as scopes
from agentd.cron.ticklog import FILTERS, Tick
from agentd.engine.loop import CONTEXT_KEY
from agentd.memory.history import SessionInfo
from agentd.memory.longterm import MemoryStore, normalize_tags
from agentd.messages import Message
from channels.http.console.auth import (
    SignIn,
    SignIns,
    clear_cookie,
    csrf_ok,
    set_cookie,
    signin_of,
)
from channels.http.console.charts import Line, line_chart
from channels.http.console.samples import MinuteSamples
from channels.http.console.sources import Component, HealthSource, Scheduled, ScheduleSource
from channels.http.guard import read_json_object
from channels.http.principals import Principal
from channels.http.tenancy import tenant_of
from channels.http.turn import TurnResponse
from channels.http.wire import SESSION_ID, ApiError

if TYPE_CHECKING:
    from channels.http.api import Api

log = structlog.get_logger("channels.http.console")

HERE = Path(__file__).parent
CHAT_PREFIX = "http:"
MAX_LISTED = 100
LAST_ANSWERS = 20
ACTION_BODY = 16_384
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}

Page = Callable[[Request, SignIn], Awaitable[Response]]


def secured(response: Response) -> Response:
    """``response`` with the console's security headers."""
    if isinstance(response, TurnResponse):
        # It writes its own headers when the turn starts answering.
        response.extra_headers += [
            (k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()
        ]
    else:
        response.headers.update(SECURITY_HEADERS)
    return response


def _when(ts: float | None) -> str:
    if not ts:
        return ""
    return dt.datetime.fromtimestamp(ts, dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def context_of(messages: Sequence[Message]) -> tuple[int, int] | None:
    """How full the context was at the last answer that recorded it: (tokens, limit)."""
    for message in reversed(messages):
        context = message.metadata.get(CONTEXT_KEY) if message.metadata else None
        if isinstance(context, dict) and context.get("tokens") and context.get("limit"):
            return int(context["tokens"]), int(context["limit"])
    return None


def _pretty(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments), indent=2, ensure_ascii=False)
    except ValueError:
        return arguments


class _Secured:
    """An ASGI app whose answers carry the console's security headers (for static files)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_secured(message: AsgiMessage) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_secured)


class Console:
    """The web console of one HTTP API (see the module docstring)."""

    def __init__(
        self,
        api: Api,
        *,
        memory: MemoryStore | None = None,
        schedules: Sequence[ScheduleSource] = (),
        health: Sequence[HealthSource] = (),
        samples: MinuteSamples | None = None,
    ) -> None:
        self.api = api
        self.runtime = api.runtime
        self.memory = memory
        self.schedules = list(schedules)
        self.health = list(health)
        self.samples = samples
        self.signins = SignIns()
        self.templates = Environment(
            loader=FileSystemLoader(HERE / "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
            auto_reload=False,
        )
        self.templates.filters["when"] = _when
        # Memories keep milliseconds since the epoch.
        self.templates.filters["when_ms"] = lambda ms: _when(ms / 1000 if ms else None)
        self.templates.filters["pretty"] = _pretty

    def routes(self) -> list[BaseRoute]:
        """The console's routes (mounted at ``/`` beside ``/v1``)."""
        page = self._page
        return [
            Route("/", self.root, methods=["GET"]),
            Route("/login", self.login_page, methods=["GET"]),
            Route("/console/api/login", self.login, methods=["POST"]),
            Route("/console/api/logout", self._action(self.logout), methods=["POST"]),
            Route("/chat", page(self.chat), methods=["GET"]),
            Route("/console/api/chat", self._action(self.chat_send), methods=["POST"]),
            Route("/sessions", page(self.sessions), methods=["GET"]),
            Route("/sessions/view", page(self.session_view), methods=["GET"]),
            Route("/console/api/sessions/clear", self._action(self.clear), methods=["POST"]),
            Route("/schedules", page(self.schedules_page), methods=["GET"]),
            Route("/console/api/schedules/run", self._action(self.run_now), methods=["POST"]),
            Route("/memory", page(self.memory_page), methods=["GET"]),
            Route("/console/api/memory/delete", self._action(self.forget), methods=["POST"]),
            Route("/health", page(self.health_page), methods=["GET"]),
            Mount("/static/console", _Secured(StaticFiles(directory=HERE / "static"))),
        ]

    def render(self, name: str, code: int = 200, **context: Any) -> Response:
        html = self.templates.get_template(name).render(**context)
        return secured(HTMLResponse(html, status_code=code))

    def _tenant(self, request: Request, who: Principal) -> str:
        return tenant_of(request, who)

    def _scope(self, tenant: str) -> scopes.Scope:
        return scopes.Scope(tenant=tenant, app=self.runtime.default_scope.app)

    def _page(self, endpoint: Page) -> Callable[[Request], Awaitable[Response]]:
        async def handler(request: Request) -> Response:
            _, signin = signin_of(request, self.signins)
            if signin is None:
                return secured(RedirectResponse("/login", status_code=303))
            try:
                return await endpoint(request, signin)
            except ApiError as exc:
                return await self._error_page(request, signin, exc)

        return handler

    async def _error_page(self, request: Request, signin: SignIn, exc: ApiError) -> Response:
        if exc.status == 403:
            log.warning("console.refused", principal=signin.principal.name, path=request.url.path)
        return self.render(
            "error.html",
            exc.status,
            **await self._common(request, signin, signin.principal.tenant, ""),
            message=exc.message,
            status=exc.status,
        )

    def _action(self, endpoint: Page) -> Callable[[Request], Awaitable[Response]]:
        async def handler(request: Request) -> Response:
            try:
                _, signin = signin_of(request, self.signins)
                if signin is None:
                    raise ApiError(401, "not signed in: sign in at /login", code="not_signed_in")
                if not csrf_ok(request, signin):
                    log.warning("console.csrf_refused", principal=signin.principal.name)
                    raise ApiError(
                        403,
                        "missing or wrong CSRF token: reload the page and try again",
                        type="permission_error",
                        code="csrf",
                    )
                response = await endpoint(request, signin)
            except ApiError as exc:
                response = JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)
            except ClientDisconnect:
                response = Response(status_code=499)
            return secured(response)

        return handler

    async def _json(self, request: Request) -> dict[str, Any]:
        return await read_json_object(
            request, limit=ACTION_BODY, within=self.api.settings.body_timeout
        )

    async def _common(
        self, request: Request, signin: SignIn, tenant: str, active: str
    ) -> dict[str, Any]:
        who = signin.principal
        tenants: list[str] = []
        if who.admin:
            tenants = sorted({t.name for t in await self.api.sessions.tenants()} | {tenant})
        return {
            "who": who,
            "csrf": signin.csrf,
            "tenant": tenant,
            "tenants": tenants,
            "active": active,
            "path": request.url.path,
        }

    # Sign-in and sign-out.

    async def root(self, request: Request) -> Response:
        _, signin = signin_of(request, self.signins)
        return secured(RedirectResponse("/chat" if signin else "/login", status_code=303))

    async def login_page(self, request: Request) -> Response:
        return self.render("login.html", needs_token=self.api.auth.required)

    async def login(self, request: Request) -> Response:
        try:
            if "origin" not in request.headers:
                raise ApiError(403, "sign in from the console's page", code="origin_required")
            body = await self._json(request)
            token = body.get("token")
            if not isinstance(token, str):
                raise ApiError(400, "token is a string", param="token", code="invalid_value")
            client = self.api.sources.of(request)
            who = self.api.auth.identify(f"Bearer {token.strip()}", client) or self.api.local
        except ApiError as exc:
            return secured(JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers))
        sid, _ = self.signins.create(who)
        log.info("console.signed_in", principal=who.name, tenant=who.tenant)
        response = JSONResponse({"redirect": "/chat"})
        set_cookie(response, request, sid)
        return secured(response)

    async def logout(self, request: Request, signin: SignIn) -> Response:
        sid, _ = signin_of(request, self.signins)
        self.signins.end(sid)
        response = JSONResponse({"redirect": "/login"})
        clear_cookie(response, request)
        return response

    # Chat.

    async def _history(self, tenant: str, session_id: str, limit: int = 0) -> list[Message]:
        history = self.runtime.sessions.history
        if history is None:
            return []
        with scopes.use(self._scope(tenant)):
            return await history.load_conversation(session_id, limit=limit)

    async def _list(self, tenant: str) -> list[SessionInfo]:
        history = self.runtime.sessions.history
        if history is None:
            return []
        with scopes.use(self._scope(tenant)):
            return list(await history.list_sessions())

    async def chat(self, request: Request, signin: SignIn) -> Response:
        tenant = self._tenant(request, signin.principal)
        session = request.query_params.get("session") or ""
        if session and not SESSION_ID.match(session):
            raise ApiError(400, "not a session id", code="invalid_session")
        listed = [s for s in await self._list(tenant) if s.session_id.startswith(CHAT_PREFIX)]
        messages = await self._history(tenant, CHAT_PREFIX + session) if session else []
        return self.render(
            "chat.html",
            **await self._common(request, signin, tenant, "chat"),
            sessions=[(s.session_id.removeprefix(CHAT_PREFIX), s) for s in listed[:MAX_LISTED]],
            session=session,
            new_session="web-" + secrets.token_hex(4),
            messages=messages,
            context=context_of(messages),
        )

    async def chat_send(self, request: Request, signin: SignIn) -> Response:
        who = signin.principal
        principal = replace(who, tenant=self._tenant(request, who))
        self.api.own_limiters.get(who.name, self.api.limiter).check(who.name)
        with structlog.contextvars.bound_contextvars(principal=who.name, tenant=principal.tenant):
            response = await self.api.chat_completions(request, principal)
        if isinstance(response, TurnResponse):
            response.on_finish = lambda status: self.api._count("console", status)
        return response

    # Sessions.

    async def sessions(self, request: Request, signin: SignIn) -> Response:
        tenant = self._tenant(request, signin.principal)
        query = request.query_params.get("q", "").strip()
        rows: list[tuple[SessionInfo, tuple[int, int] | None, str]] = []
        for info in (await self._list(tenant))[: MAX_LISTED * 5]:
            if len(rows) >= MAX_LISTED:
                break
            last = await self._history(tenant, info.session_id, LAST_ANSWERS)
            if query and not (
                query.lower() in info.session_id.lower()
                or any(query.lower() in m.content.lower() for m in last)
            ):
                continue
            preview = next((m.content for m in reversed(last) if m.role == "user"), "")
            rows.append((info, context_of(last), preview[:200]))
        return self.render(
            "sessions.html",
            **await self._common(request, signin, tenant, "sessions"),
            rows=rows,
            query=query,
        )

    async def session_view(self, request: Request, signin: SignIn) -> Response:
        tenant = self._tenant(request, signin.principal)
        session = request.query_params.get("id", "")
        if not SESSION_ID.match(session):
            raise ApiError(400, "not a session id", code="invalid_session")
        messages = await self._history(tenant, session)
        if not messages:
            raise ApiError(404, f"no stored session {session!r} in tenant {tenant!r}")
        return self.render(
            "session.html",
            **await self._common(request, signin, tenant, "sessions"),
            session=session,
            messages=messages,
            context=context_of(messages),
        )

    async def clear(self, request: Request, signin: SignIn) -> Response:
        tenant = self._tenant(request, signin.principal)
        session = (await self._json(request)).get("session")
        if not isinstance(session, str) or not SESSION_ID.match(session):
            raise ApiError(400, "session is a session id", param="session", code="invalid_value")
        if not await self._history(tenant, session, 1):
            raise ApiError(404, f"no stored session {session!r} in tenant {tenant!r}")
        with scopes.use(self._scope(tenant)):
            await self.runtime.forget(session)
        log.info("console.session_cleared", principal=signin.principal.name, session=session)
        return JSONResponse({"cleared": session})

    # Schedules.

    async def schedules_page(self, request: Request, signin: SignIn) -> Response:
        tenant = self._tenant(request, signin.principal)
        job = request.query_params.get("job") or None
        status = request.query_params.get("status") or None
        if status is not None and status not in FILTERS:
            raise ApiError(400, f"status is one of {', '.join(FILTERS)}", code="invalid_value")
        work: list[Scheduled] = []
        ticks: list[Tick] = []
        for source in self.schedules:
            mine = [s for s in await source.scheduled() if s.tenant == tenant]
            work.extend(mine)
            names = {s.name for s in mine}
            if job is not None and job not in names:
                continue
            ticks.extend(t for t in await source.runs(job=job, status=status) if t.job in names)
        ticks.sort(key=lambda t: (t.scheduled_for, t.id), reverse=True)
        return self.render(
            "schedules.html",
            **await self._common(request, signin, tenant, "schedules"),
            work=work,
            ticks=ticks[:MAX_LISTED],
            job=job or "",
            status=status or "",
            statuses=FILTERS,
        )

    async def run_now(self, request: Request, signin: SignIn) -> Response:
        who = signin.principal
        if not who.admin:
            raise ApiError(403, "running a job is for admin principals", code="admin_only")
        name = (await self._json(request)).get("job")
        for source in self.schedules:
            try:
                status = await source.run_now(str(name))
            except KeyError:
                continue
            log.info("console.job_run", principal=who.name, job=name, status=status)
            return JSONResponse({"job": name, "status": status})
        raise ApiError(404, f"no job {name!r} can be run from here", code="job_not_found")

    # Memory.

    async def memory_page(self, request: Request, signin: SignIn) -> Response:
        tenant = self._tenant(request, signin.principal)
        query = request.query_params.get("q", "").strip()
        tags = request.query_params.get("tags", "").strip()
        found, problem = [], ""
        if self.memory is None:
            problem = "long-term memory is off (memory.embed) or unavailable"
        elif query:
            try:
                wanted = normalize_tags([t for t in tags.split(",") if t.strip()])
                with scopes.use(self._scope(tenant)):
                    found = await self.memory.search(query, top_k=20, tags_include=wanted)
            except Exception as exc:
                # The store's own words may name hosts or keys: they go to the log only.
                log.warning("console.memory_search_failed", error=str(exc), tenant=tenant)
                problem = "search failed: the memory store did not answer (the daemon log says why)"
        return self.render(
            "memory.html",
            **await self._common(request, signin, tenant, "memory"),
            query=query,
            tags=tags,
            found=found,
            problem=problem,
        )

    async def forget(self, request: Request, signin: SignIn) -> Response:
        tenant = self._tenant(request, signin.principal)
        key = (await self._json(request)).get("key")
        if self.memory is None:
            raise ApiError(409, "long-term memory is off or unavailable", code="memory_off")
        if not isinstance(key, str) or not key:
            raise ApiError(400, "key is a memory key", param="key", code="invalid_value")
        with scopes.use(self._scope(tenant)):
            deleted = await self.memory.delete(key)
        if not deleted:
            raise ApiError(404, f"no memory {key!r} in tenant {tenant!r}", code="not_found")
        log.info("console.memory_deleted", principal=signin.principal.name, key=key)
        return JSONResponse({"deleted": key})

    # Health.

    async def health_page(self, request: Request, signin: SignIn) -> Response:
        who = signin.principal
        tenant = self._tenant(request, who)
        components: list[Component] = []
        for source in self.health:
            if getattr(source, "admin_only", False) and not who.admin:
                continue  # e.g. MCP servers: daemon-wide, other tenants' too, with their errors
            components.extend(await source.components())
        charts: list[tuple[str, Markup]] = []
        if who.admin and self.samples is not None:
            series = self.samples.series()
            turns = "Turns per minute"
            latency = "Turn latency p50 / p95 (s)"
            tokens = "Model tokens per minute"
            charts = [
                (turns, line_chart(turns, [Line("turns", [s.turns for s in series])])),
                (
                    latency,
                    line_chart(
                        latency,
                        [
                            Line("p50", [s.p50 for s in series]),
                            Line("p95", [s.p95 for s in series], "line-b"),
                        ],
                        unit=" s",
                    ),
                ),
                (tokens, line_chart(tokens, [Line("tokens", [s.tokens for s in series])])),
            ]
        return self.render(
            "health.html",
            **await self._common(request, signin, tenant, "health"),
            components=components,
            charts=charts,
        )
