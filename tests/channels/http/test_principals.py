"""Principals on the HTTP API: who a token is, the tenant its turns run in, what it may read."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr
from structlog.contextvars import merge_contextvars
from structlog.testing import capture_logs

from agentd import scope as scopes
from agentd.config import HttpChannelSettings
from agentd.daemon.app import App
from channels.http import guard
from channels.http.guard import Authenticator
from channels.http.principals import principals
from channels.http.wire import ApiError
from tests.support.http_channel import api_error, in_process
from tests.support.stub_llm import StubLLM
from tests.support.tenant_agent import foreign, marker, tenant_agent

pytestmark = pytest.mark.anyio

SETTINGS = HttpChannelSettings(
    tokens=[SecretStr("owner-token")],
    principals=[  # type: ignore[list-item]
        {"name": "alice", "tenant": "alice", "token": "alice-token"},
        {
            "name": "bob",
            "tenant": "bob",
            "token": "sha256:" + hashlib.sha256(b"bob-token").hexdigest(),
            "rate_limit": {"requests_per_minute": 1, "burst": 2},
        },
        {"name": "ops", "tenant": "ops", "token": "ops-token", "admin": True},
    ],
)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def chat(text: str, session: str | None = "s1") -> dict[str, Any]:
    return {
        "messages": [{"role": "user", "content": text}],
        **({"user": session} if session else {}),
    }


@pytest.fixture
def app(stub_llm: StubLLM, home_app: App) -> App:
    """The daemon's app on the stub acting as tenant_agent."""
    stub_llm.fallback = tenant_agent
    return home_app


@pytest.fixture
async def http(app: App) -> AsyncIterator[httpx.AsyncClient]:
    async with in_process(app.runtime, SETTINGS) as client:
        yield client


def test_each_token_identifies_its_principal() -> None:
    """Plain, sha256: and legacy tokens map to their principal, tenant and admin right."""
    auth = Authenticator(principals(SETTINGS, "home"))
    found = {
        token: auth.identify(f"Bearer {token}")
        for token in ("alice-token", "bob-token", "ops-token", "owner-token")
    }
    assert {t: (p.name, p.tenant, p.admin) for t, p in found.items() if p} == {
        "alice-token": ("alice", "alice", False),
        "bob-token": ("bob", "bob", False),
        "ops-token": ("ops", "ops", True),
        "owner-token": ("token:0", "home", True),
    }
    with pytest.raises(ApiError) as caught:
        auth.identify("Bearer alice-token2")
    assert caught.value.status == 401


def test_every_digest_is_compared(monkeypatch: pytest.MonkeyPatch) -> None:
    """The presented token's digest is compared with every principal's, whichever matches,
    with hmac.compare_digest (constant time), and the token itself is never compared."""
    compared: list[tuple[bytes, bytes]] = []

    def compare(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return a == b

    monkeypatch.setattr(guard.hmac, "compare_digest", compare)
    auth = Authenticator(principals(SETTINGS, "home"))
    for token in ("alice-token", "owner-token", "wrong"):
        compared.clear()
        try:
            auth.identify(f"Bearer {token}")
        except ApiError:
            pass
        assert len(compared) == 4
        assert {a for a, _ in compared} == {hashlib.sha256(token.encode()).digest()}


async def test_metrics_is_for_admins_only(http: httpx.AsyncClient) -> None:
    """/metrics answers admins (configured or legacy tokens) and is 403 for other principals."""
    error = api_error(await http.get("/metrics", headers=bearer("alice-token")), 403)
    assert error["type"] == "permission_error" and error["code"] == "admin_only"
    for token in ("ops-token", "owner-token"):
        assert (await http.get("/metrics", headers=bearer(token))).status_code == 200


async def test_a_principal_has_its_own_rate_limit(http: httpx.AsyncClient) -> None:
    """bob's own limit (burst 2) gives him 429 while alice, on the default limit, goes on."""
    statuses = [
        (await http.get("/v1/models", headers=bearer("bob-token"))).status_code for _ in range(3)
    ]
    assert statuses == [200, 200, 429]
    assert (await http.get("/v1/models", headers=bearer("alice-token"))).status_code == 200


async def test_one_session_id_in_two_tenants_is_two_conversations(
    http: httpx.AsyncClient, app: App, stub_llm: StubLLM
) -> None:
    """bob's turn in alice's session id sees nothing of hers, and hers nothing of his; each
    history row carries its principal's tenant."""
    secret_a, secret_b = marker("alice", "1"), marker("bob", "1")
    first = await http.post(
        "/v1/chat/completions", json=chat(secret_a), headers=bearer("alice-token")
    )
    assert first.status_code == 200
    b = await http.post("/v1/chat/completions", json=chat(secret_b), headers=bearer("bob-token"))
    assert foreign(b.json()["choices"][0]["message"]["content"], "bob") == []
    assert foreign(str(stub_llm.requests[-1]["messages"]), "bob") == []
    a = await http.post("/v1/chat/completions", json=chat("again"), headers=bearer("alice-token"))
    text_a = a.json()["choices"][0]["message"]["content"]
    assert secret_a in text_a and foreign(text_a, "alice") == []
    with sqlite3.connect(app.settings.history_path) as db:
        rows = db.execute(
            "SELECT tenant, body FROM messages WHERE session_id = 'http:s1'"
        ).fetchall()
    assert {tenant for tenant, _ in rows} == {"alice", "bob"}
    assert all(foreign(body, tenant) == [] for tenant, body in rows)


async def test_session_state_in_memory_is_per_tenant(http: httpx.AsyncClient, app: App) -> None:
    """The cached session, its status and forgetting it are per tenant: bob forgetting 's1'
    leaves alice's 's1' as it was."""
    await http.post("/v1/chat/completions", json=chat("hi"), headers=bearer("alice-token"))
    await http.post("/v1/chat/completions", json=chat("hi"), headers=bearer("bob-token"))
    runtime = app.runtime
    with scopes.use(scopes.Scope(tenant="bob")):
        assert runtime.status("http:s1").messages == 2
        await runtime.forget("http:s1")
        assert runtime.status("http:s1").messages == 0
    with scopes.use(scopes.Scope(tenant="alice")):
        assert runtime.status("http:s1").messages == 2
        assert len(await runtime.history("http:s1")) == 3
    assert runtime.session_count == 1


async def test_idempotency_keys_are_per_tenant(http: httpx.AsyncClient, stub_llm: StubLLM) -> None:
    """bob reusing alice's Idempotency-Key in the same session id gets his own answer, not a
    replay of hers nor a 422 for a key 'used for another message'."""
    key = {"Idempotency-Key": "k1"}
    a = await http.post(
        "/v1/chat/completions", json=chat(marker("alice", "k")), headers=bearer("alice-token") | key
    )
    b = await http.post(
        "/v1/chat/completions", json=chat(marker("bob", "k")), headers=bearer("bob-token") | key
    )
    assert a.status_code == b.status_code == 200
    assert foreign(b.json()["choices"][0]["message"]["content"], "bob") == []
    assert marker("bob", "k") in b.json()["choices"][0]["message"]["content"]


async def test_stateless_turns_run_in_the_principal_tenant(
    http: httpx.AsyncClient, app: App
) -> None:
    """A request without a session runs in its principal's tenant (logged as such)."""
    with capture_logs(processors=[merge_contextvars]) as logs:
        reply = await http.post(
            "/v1/chat/completions", json=chat("hi", session=None), headers=bearer("bob-token")
        )
    assert reply.status_code == 200
    ends = [e for e in logs if e["event"] == "turn.end"]
    assert ends and all(e.get("tenant") == "bob" for e in ends)


async def test_logs_name_the_principal_never_the_token(http: httpx.AsyncClient) -> None:
    """A turn's log lines carry the tenant and the principal's name, and no token."""
    with capture_logs(processors=[merge_contextvars]) as logs:
        await http.post("/v1/chat/completions", json=chat("hi"), headers=bearer("alice-token"))
    ends = [e for e in logs if e["event"] == "turn.end"]
    assert ends and ends[0]["tenant"] == "alice" and ends[0]["principal"] == "alice"
    assert "alice-token" not in repr(logs)


async def test_without_principals_the_install_tenant_is_used(app: App) -> None:
    """With only channels.http.tokens, turns run in settings.tenant, as before principals."""
    settings = HttpChannelSettings(tokens=[SecretStr("owner-token")])
    async with in_process(app.runtime, settings) as http:
        await http.post("/v1/chat/completions", json=chat("hi"), headers=bearer("owner-token"))
        assert (await http.get("/metrics", headers=bearer("owner-token"))).status_code == 200
    with sqlite3.connect(app.settings.history_path) as db:
        tenants = {t for (t,) in db.execute("SELECT tenant FROM messages")}
    assert tenants == {"home"}
