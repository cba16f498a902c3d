"""The HTTP API reference: every route the HTTP channel serves, read from its Starlette app.

The routes (paths and methods) come from the app; what each one is for is said once, here, in
:data:`PURPOSES`. A route without a purpose, or a purpose without a route, fails the build.
"""

from __future__ import annotations

from dataclasses import dataclass

import anyio
import httpx
from starlette.routing import BaseRoute, Mount, Route

from agentd.config import AgentDefaults, HttpChannelSettings
from agentd.engine.loop import AgentLoop
from agentd.engine.runtime import Runtime
from agentd.model.client import LLMClient
from agentd.tools.registry import ToolRegistry
from channels.http.api import build_app
from channels.http.console import ConsoleParts
from docsgen.markdown import GENERATED, cell, code, table

#: Who may call a route: no token, a bearer token, an admin's token, a console sign-in.
OPEN, TOKEN, ADMIN, SIGNIN = "none", "bearer token", "admin token", "console sign-in"

#: What each route does and who may call it, by ``METHOD path``.
PURPOSES: dict[str, tuple[str, str]] = {
    "GET /healthz": (OPEN, "Liveness: 200 while the process serves."),
    "GET /readyz": (
        OPEN,
        "Readiness: the model server, long-term memory, channels and MCP servers (`checks`).",
    ),
    "GET /metrics": (ADMIN, "The Prometheus exposition ([Metrics](metrics.md))."),
    "GET /v1/models": (TOKEN, "The one model the daemon serves (OpenAI shape)."),
    "GET /v1/models/{model}": (TOKEN, "That model, or 404 for another name."),
    "POST /v1/chat/completions": (
        TOKEN,
        "A turn, OpenAI chat completions (streamed with `stream: true`); `X-Session-Id` keeps a "
        "session, `Idempotency-Key` makes retries safe.",
    ),
    "GET /v1/sessions": (TOKEN, "The tenant's stored sessions, most recent first."),
    "GET /v1/sessions/{session_id}/messages": (
        TOKEN,
        "A session's newest `limit` messages (0: all).",
    ),
    "DELETE /v1/sessions/{session_id}": (
        TOKEN,
        "Clears a session's history and its copy in memory.",
    ),
    "GET /v1/tenants": (ADMIN, "The tenants and their limits."),
    "POST /v1/memories": (TOKEN, "Saves a memory (`content`, `tags`) in the tenant; the key."),
    "POST /v1/memories/search": (
        TOKEN,
        "The tenant's nearest memories to `query`, with their scores.",
    ),
    "GET /v1/memories/stats": (TOKEN, "How many memories the tenant has."),
    "DELETE /v1/memories/{key}": (TOKEN, "Deletes one memory (404 when the tenant has none)."),
    "GET /": (OPEN, "The web console: to the chat page when signed in, else to sign-in."),
    "GET /login": (OPEN, "The console's sign-in page."),
    "POST /console/api/login": (OPEN, "Signs in with a token; sets the sign-in cookie."),
    "POST /console/api/logout": (SIGNIN, "Signs out."),
    "GET /chat": (SIGNIN, "Console: chat sessions and a conversation."),
    "POST /console/api/chat": (SIGNIN, "Console: sends a message, the answer streamed (SSE)."),
    "GET /sessions": (SIGNIN, "Console: stored conversations, searchable."),
    "GET /sessions/view": (SIGNIN, "Console: one stored conversation."),
    "POST /console/api/sessions/clear": (SIGNIN, "Console: clears a session."),
    "GET /schedules": (SIGNIN, "Console: cron jobs, the agent's tasks and the tick log."),
    "POST /console/api/schedules/run": (SIGNIN, "Console: runs one tick of a job now (admins)."),
    "GET /memory": (SIGNIN, "Console: long-term memory search."),
    "POST /console/api/memory/delete": (SIGNIN, "Console: deletes a memory."),
    "GET /health": (SIGNIN, "Console: the daemon's health and charts."),
    "GET /static/console/{path}": (OPEN, "The console's stylesheet and script."),
}


@dataclass(frozen=True, slots=True)
class RouteRow:
    """One method of one route."""

    method: str
    path: str

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"


def _rows(routes: list[BaseRoute]) -> list[RouteRow]:
    rows = []
    for route in routes:
        if isinstance(route, Route):
            methods = sorted((route.methods or set()) - {"HEAD"})
            rows += [RouteRow(method, route.path) for method in methods]
        elif isinstance(route, Mount):
            rows.append(RouteRow("GET", f"{route.path}/{{path}}"))
    return rows


async def _routes() -> list[RouteRow]:
    async with httpx.AsyncClient() as http:
        llm = LLMClient(http, base_url="http://127.0.0.1:9", model="docs", max_retries=0)
        runtime = Runtime(
            AgentLoop(llm, ToolRegistry()), system_prompt="", defaults=AgentDefaults()
        )
        app = build_app(runtime, HttpChannelSettings(), console=ConsoleParts())
        return _rows(list(app.routes))


def route_rows() -> list[RouteRow]:
    """Every route of the HTTP channel's app, the web console's included."""
    return anyio.run(_routes)


INTRO = """# HTTP API

Every route the HTTP channel serves, read from its application (the web console's included:
`channels.http.console: false` removes them). Every answer and error under `/v1` has the
OpenAI shape; see [HTTP API and OpenAI clients](../channels/http.md) for tokens, principals,
sessions, idempotency and limits.

"""


def http_page() -> str:
    """The HTTP API reference page."""
    rows = route_rows()
    missing = [r.key for r in rows if r.key not in PURPOSES]
    stale = sorted(set(PURPOSES) - {r.key for r in rows})
    if missing or stale:
        raise RuntimeError(
            f"docsgen.http_ref.PURPOSES is out of date: undocumented {missing}, gone {stale}"
        )
    body = table(
        ["method", "path", "who may call it", "what it does"],
        ([r.method, code(r.path), PURPOSES[r.key][0], cell(PURPOSES[r.key][1])] for r in rows),
    )
    return INTRO + GENERATED + "\n" + body + "\n"
