"""The console's routes in process (``httpx.ASGITransport``): every page, action and refusal.

The browser tests drive the real daemon in a subprocess; these cover the same code where
coverage sees it, with a real runtime and history on the echoing stub, a fake memory store and
a fake schedule source.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import AsyncIterator, Sequence

import httpx
import pytest
from pydantic import SecretStr

from agentd.config import HttpChannelSettings
from agentd.cron.ticklog import Tick
from agentd.daemon.app import App
from agentd.mcp.servers import ServerInfo
from agentd.memory.longterm import Memory
from agentd.metrics import Metrics
from channels.http.api import build_app
from channels.http.console import ConsoleParts, MinuteSamples, ReadinessHealth, Scheduled
from channels.http.console.sources import McpHealth
from tests.support.http_channel import IN_PROCESS_URL

pytestmark = pytest.mark.anyio

SETTINGS = HttpChannelSettings(
    tokens=[SecretStr("owner-token")],
    principals=[  # type: ignore[list-item]
        {"name": "alice", "tenant": "alice", "token": "alice-token"},
    ],
)
ORIGIN = {"Origin": IN_PROCESS_URL}


class FakeMemory:
    """Memories by tenant-less key; enough for the page."""

    degraded = None

    def __init__(self) -> None:
        self.memories = {"k1": Memory("otters hold hands", ("animals",), "k1", 1_700_000_000_000)}

    async def search(
        self, query: str, top_k: int = 5, tags_include: Sequence[str] = ()
    ) -> list[Memory]:
        if query == "boom":
            raise RuntimeError("the store is down")
        return [
            Memory(m.content, m.tags, m.key, m.ts, score=0.91)
            for m in self.memories.values()
            if not tags_include or set(tags_include) & set(m.tags)
        ]

    async def delete(self, key: str) -> bool:
        return self.memories.pop(key, None) is not None


class FakeJobs:
    """One job of tenant ``home`` with one failed tick; run_now adds an ok tick."""

    def __init__(self) -> None:
        self.ticks = [Tick(1, "nightly", "2026-01-01T00:00:00Z", None, None, "error",
                           "Traceback: <b>boom</b>", None, "scheduled", False)]  # fmt: skip

    async def scheduled(self) -> list[Scheduled]:
        return [Scheduled("nightly", "cron job", "0 3 * * *", "home",
                          dt.datetime(2030, 1, 1, tzinfo=dt.UTC), runnable=True)]  # fmt: skip

    async def runs(
        self, *, job: str | None = None, status: str | None = None, limit: int = 100
    ) -> list[Tick]:
        return [t for t in self.ticks if status in (None, t.status)]

    async def run_now(self, name: str) -> str | None:
        if name != "nightly":
            raise KeyError(name)
        self.ticks.append(Tick(2, name, "2026-01-02T00:00:00Z", None, None, "ok", None,
                               "fine", "manual", False))  # fmt: skip
        return "ok"


@pytest.fixture
def app(home_app: App) -> App:
    return home_app


@pytest.fixture
async def http(app: App) -> AsyncIterator[httpx.AsyncClient]:
    metrics = Metrics()
    health = ReadinessHealth(
        llm=app.llm.ping, memory=lambda: "off", channels=lambda: {"cron": False}
    )
    mcp = McpHealth(lambda: [ServerInfo("files", "stdio", "down", (), 2, "key sk-XYZ refused")])
    parts = ConsoleParts(memory=FakeMemory(), schedules=[FakeJobs()], health=[health, mcp])  # type: ignore[list-item]
    web = build_app(
        app.runtime, SETTINGS, metrics=metrics, console=parts, samples=MinuteSamples(metrics)
    )
    transport = httpx.ASGITransport(app=web)
    async with httpx.AsyncClient(transport=transport, base_url=IN_PROCESS_URL) as client:
        yield client


async def sign_in(http: httpx.AsyncClient, token: str) -> str:
    """Sign in; returns the page's CSRF token."""
    answer = await http.post("/console/api/login", json={"token": token}, headers=ORIGIN)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"redirect": "/chat"}
    page = await http.get("/chat")
    found = re.search(r'name="csrf-token" content="([^"]+)"', page.text)
    assert found is not None
    return found.group(1)


def act(csrf: str) -> dict[str, str]:
    return {**ORIGIN, "X-CSRF-Token": csrf}


async def test_signed_out_pages_redirect_and_sign_in_is_checked(http: httpx.AsyncClient) -> None:
    """Pages send a signed-out browser to /login; a wrong or Origin-less sign-in is refused."""
    for path in ("/", "/chat", "/health"):
        answer = await http.get(path)
        assert (answer.status_code, answer.headers["location"]) == (303, "/login")
    login = await http.get("/login")
    assert login.status_code == 200 and 'id="token"' in login.text
    assert "script-src 'self'" in login.headers["content-security-policy"]
    css = await http.get("/static/console/console.css")
    assert css.status_code == 200 and css.headers["x-content-type-options"] == "nosniff"
    refused = await http.post("/console/api/login", json={"token": "owner-token"})
    assert refused.status_code == 403
    wrong = await http.post("/console/api/login", json={"token": "nope"}, headers=ORIGIN)
    assert wrong.status_code == 401 and "agentd_console" not in wrong.cookies
    bad = await http.post("/console/api/login", json={"token": 1}, headers=ORIGIN)
    assert bad.status_code == 400
    unsigned = await http.post("/console/api/logout", json={}, headers=ORIGIN)
    assert unsigned.status_code == 401


async def test_chat_sessions_and_clear(http: httpx.AsyncClient) -> None:
    """A console chat turn is stored, listed, searched, viewed with its context, and cleared."""
    csrf = await sign_in(http, "owner-token")
    body = {"model": "agentd", "messages": [{"role": "user", "content": "<i>hi</i>"}]}
    turn = await http.post(
        "/console/api/chat", json=body, headers={**act(csrf), "X-Session-Id": "s1"}
    )
    assert turn.status_code == 200, turn.text
    assert turn.headers["x-frame-options"] == "DENY"
    chat = await http.get("/chat?session=s1")
    assert "&lt;i&gt;hi&lt;/i&gt;" in chat.text and "<i>hi</i>" not in chat.text
    assert (await http.get("/chat?session=a%20b")).status_code == 400
    listed = await http.get("/sessions?q=hi")
    assert "http:s1" in listed.text
    assert "http:s1" not in (await http.get("/sessions?q=zzz")).text
    view = await http.get("/sessions/view?id=http:s1")
    assert view.status_code == 200 and "echo: &lt;i&gt;hi&lt;/i&gt;" in view.text
    assert (await http.get("/sessions/view?id=bad%20id")).status_code == 400
    assert (await http.get("/sessions/view?id=http:none")).status_code == 404
    clear = "/console/api/sessions/clear"
    assert (
        await http.post(clear, json={"session": "http:none"}, headers=act(csrf))
    ).status_code == 404
    assert (await http.post(clear, json={"session": 5}, headers=act(csrf))).status_code == 400
    raw = {**act(csrf), "Content-Type": "application/json"}
    for content in (b"[1]", b"{"):
        assert (await http.post(clear, content=content, headers=raw)).status_code == 400
    cleared = await http.post(clear, json={"session": "http:s1"}, headers=act(csrf))
    assert cleared.json() == {"cleared": "http:s1"}
    assert (await http.get("/sessions/view?id=http:s1")).status_code == 404


async def test_schedules_memory_and_health(http: httpx.AsyncClient) -> None:
    """Jobs, ticks (errors escaped), run now, memory search and delete, health and charts."""
    csrf = await sign_in(http, "owner-token")
    page = await http.get("/schedules")
    assert "nightly" in page.text and "2030-01-01 00:00:00 UTC" in page.text
    assert "&lt;b&gt;boom&lt;/b&gt;" in page.text
    assert "status-error" in page.text
    assert (await http.get("/schedules?status=bogus")).status_code == 400
    assert "status-error" not in (await http.get("/schedules?status=ok")).text
    run = "/console/api/schedules/run"
    assert (await http.post(run, json={"job": "nightly"}, headers=act(csrf))).json() == {
        "job": "nightly",
        "status": "ok",
    }
    assert (await http.post(run, json={"job": "other"}, headers=act(csrf))).status_code == 404
    assert "manual" in (await http.get("/schedules?job=nightly")).text
    memory = await http.get("/memory?q=otters&tags=animals")
    assert "otters hold hands" in memory.text and "0.910" in memory.text
    failed = (await http.get("/memory?q=boom")).text
    assert "search failed" in failed and "the store is down" not in failed  # log only
    delete = "/console/api/memory/delete"
    assert (await http.post(delete, json={"key": ""}, headers=act(csrf))).status_code == 400
    assert (await http.post(delete, json={"key": "k1"}, headers=act(csrf))).status_code == 200
    assert (await http.post(delete, json={"key": "k1"}, headers=act(csrf))).status_code == 404
    health = await http.get("/health")
    assert "model server: <strong>ok" in health.text
    assert "cron: <strong>down" in health.text
    assert health.text.count("<svg") == 3
    out = await http.post("/console/api/logout", json={}, headers=act(csrf))
    assert out.json() == {"redirect": "/login"}
    assert (await http.get("/chat")).status_code == 303


async def test_a_principal_stays_in_its_tenant(http: httpx.AsyncClient) -> None:
    """alice sees her tenant only, may not run jobs, and sees no daemon-wide charts."""
    csrf = await sign_in(http, "alice-token")
    assert (await http.get("/sessions?tenant=home")).status_code == 403
    assert (await http.get("/sessions?tenant=%3Cx%3E")).status_code == 400
    schedules = await http.get("/schedules")
    assert "nightly" not in schedules.text
    run = await http.post("/console/api/schedules/run", json={"job": "nightly"}, headers=act(csrf))
    assert run.status_code == 403
    health = await http.get("/health")
    assert "<svg" not in health.text and "admin principals" in health.text
    forged = await http.post("/console/api/sessions/clear", json={"session": "x"}, headers=ORIGIN)
    assert forged.status_code == 403


async def test_the_cookie_is_secure_over_tls(app: App) -> None:
    """Over https the sign-in cookie is also Secure; it is HttpOnly and SameSite=Strict always."""
    web = build_app(app.runtime, SETTINGS, console=ConsoleParts())
    base = "https://127.0.0.1:8321"
    transport = httpx.ASGITransport(app=web)
    async with httpx.AsyncClient(transport=transport, base_url=base) as client:
        answer = await client.post(
            "/console/api/login", json={"token": "owner-token"}, headers={"Origin": base}
        )
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "secure" in cookie
    assert "owner-token" not in cookie


async def test_mcp_servers_and_their_errors_are_for_admins_only(http: httpx.AsyncClient) -> None:
    """The MCP servers are the daemon's (other tenants' too) and their errors may quote what a
    server printed: a principal's health page leaves them out, an admin's shows them."""
    await sign_in(http, "alice-token")
    assert "sk-XYZ" not in (await http.get("/health")).text
    await sign_in(http, "owner-token")
    admins = (await http.get("/health")).text
    assert "files" in admins and "sk-XYZ" in admins
