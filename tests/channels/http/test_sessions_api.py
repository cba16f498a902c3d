"""The session and tenant endpoints: each principal sees its tenant, admins may name another."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from agentd.config import HttpChannelSettings, TenantLimits
from agentd.daemon.app import App
from channels.http.sessions_api import TenantInfo
from tests.support.http_channel import api_error, in_process
from tests.support.stub_llm import StubLLM

pytestmark = pytest.mark.anyio

SETTINGS = HttpChannelSettings(
    tokens=[SecretStr("owner-token")],
    principals=[  # type: ignore[list-item]
        {"name": "alice", "tenant": "alice", "token": "alice-token"},
        {"name": "bob", "tenant": "bob", "token": "bob-token"},
        {"name": "ops", "tenant": "ops", "token": "ops-token", "admin": True},
    ],
)
ALICE, BOB, OPS = ({"Authorization": f"Bearer {who}-token"} for who in ("alice", "bob", "ops"))


async def tenants() -> list[TenantInfo]:
    return [
        TenantInfo("alice", TenantLimits(turns_per_minute=3)),
        TenantInfo("bob", TenantLimits()),
    ]


@pytest.fixture
def app(home_app: App) -> App:
    return home_app


@pytest.fixture
async def http(app: App) -> AsyncIterator[httpx.AsyncClient]:
    async with in_process(app.runtime, SETTINGS, tenants=tenants) as client:
        yield client


async def say(http: httpx.AsyncClient, who: dict[str, str], text: str, session: str = "s1") -> None:
    body = {"messages": [{"role": "user", "content": text}], "user": session}
    reply = await http.post("/v1/chat/completions", json=body, headers=who)
    assert reply.status_code == 200, reply.text


def contents(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["data"] if m["role"] != "system"]


async def test_a_principal_lists_and_reads_only_its_tenants_sessions(
    http: httpx.AsyncClient,
) -> None:
    """Alice lists and reads her sessions; Bob's session of the same id is invisible to her."""
    await say(http, ALICE, "alice one")
    await say(http, ALICE, "alice two", session="s2")
    await say(http, BOB, "bob one")
    listed = (await http.get("/v1/sessions", headers=ALICE)).json()
    assert listed["tenant"] == "alice"
    assert [(s["id"], s["messages"]) for s in listed["data"]] == [("http:s2", 2), ("http:s1", 2)]
    assert all(s["last_active"] > 0 for s in listed["data"])
    read = await http.get("/v1/sessions/http:s1/messages", headers=ALICE)
    assert contents(read.json()) == ["alice one", "echo: alice one"]
    newest = await http.get("/v1/sessions/http:s1/messages?limit=1", headers=BOB)
    assert contents(newest.json()) == ["echo: bob one"]


async def test_clearing_leaves_another_tenants_session_of_the_same_id(
    http: httpx.AsyncClient,
) -> None:
    """DELETE clears Alice's http:s1 and says how many messages went; Bob's http:s1 stays."""
    await say(http, ALICE, "alice one")
    await say(http, BOB, "bob one")
    cleared = await http.delete("/v1/sessions/http:s1", headers=ALICE)
    assert cleared.status_code == 200, cleared.text
    assert cleared.json() == {
        "id": "http:s1",
        "object": "session.deleted",
        "deleted": True,
        "messages": 2,
    }
    assert (await http.get("/v1/sessions", headers=ALICE)).json()["data"] == []
    kept = await http.get("/v1/sessions/http:s1/messages", headers=BOB)
    assert contents(kept.json()) == ["bob one", "echo: bob one"]


async def test_clearing_drops_the_copy_in_memory(
    http: httpx.AsyncClient, stub_llm: StubLLM
) -> None:
    """After DELETE the session's next turn sends the model none of the old messages."""
    await say(http, ALICE, "before the clear")
    assert (await http.delete("/v1/sessions/http:s1", headers=ALICE)).status_code == 200
    await say(http, ALICE, "after the clear")
    sent = [m["content"] for m in stub_llm.requests[-1]["messages"] if m["role"] != "system"]
    assert sent == ["after the clear"]


async def test_an_unknown_session_is_404(http: httpx.AsyncClient) -> None:
    """Reading or clearing a session the tenant has not stored is a 404 naming it."""
    await say(http, BOB, "bob one")
    for response in (
        await http.get("/v1/sessions/http:s1/messages", headers=ALICE),
        await http.delete("/v1/sessions/http:s1", headers=ALICE),
    ):
        error = api_error(response, 404)
        assert error["code"] == "session_not_found"
        assert "'http:s1'" in error["message"] and "'alice'" in error["message"]


@pytest.mark.parametrize(
    ("path", "param"),
    [
        pytest.param("/v1/sessions/a%20b/messages", "session_id", id="space-in-id"),
        pytest.param("/v1/sessions/" + "x" * 129, "session_id", id="id-too-long"),
        pytest.param("/v1/sessions/s/messages?limit=-1", "limit", id="negative-limit"),
        pytest.param("/v1/sessions/s/messages?limit=many", "limit", id="limit-not-a-number"),
    ],
)
async def test_bad_ids_and_limits_are_400(http: httpx.AsyncClient, path: str, param: str) -> None:
    """A session id outside the id rule, or a limit that is no count, is a 400 naming it."""
    method = "DELETE" if "/messages" not in path else "GET"
    error = api_error(await http.request(method, path, headers=ALICE), 400)
    assert error["param"] == param


async def test_tenant_is_refused_to_ordinary_principals(http: httpx.AsyncClient) -> None:
    """An ordinary principal naming another tenant gets 403 admin_only; its own is fine."""
    await say(http, BOB, "bob one")
    for response in (
        await http.get("/v1/sessions?tenant=bob", headers=ALICE),
        await http.get("/v1/sessions/http:s1/messages?tenant=bob", headers=ALICE),
        await http.delete("/v1/sessions/http:s1?tenant=bob", headers=ALICE),
    ):
        error = api_error(response, 403)
        assert (error["type"], error["code"]) == ("permission_error", "admin_only")
        assert "'alice'" in error["message"]
    assert (await http.get("/v1/sessions?tenant=alice", headers=ALICE)).status_code == 200
    kept = await http.get("/v1/sessions/http:s1/messages", headers=BOB)
    assert contents(kept.json()) == ["bob one", "echo: bob one"]


async def test_an_admin_acts_in_the_tenant_it_names(http: httpx.AsyncClient) -> None:
    """An admin lists, reads and clears another tenant's sessions with ?tenant=."""
    await say(http, BOB, "bob one")
    listed = (await http.get("/v1/sessions?tenant=bob", headers=OPS)).json()
    assert (listed["tenant"], [s["id"] for s in listed["data"]]) == ("bob", ["http:s1"])
    read = await http.get("/v1/sessions/http:s1/messages?tenant=bob", headers=OPS)
    assert contents(read.json()) == ["bob one", "echo: bob one"]
    assert (await http.get("/v1/sessions", headers=OPS)).json()["data"] == []
    cleared = await http.delete("/v1/sessions/http:s1?tenant=bob", headers=OPS)
    assert cleared.json()["messages"] == 2
    assert (await http.get("/v1/sessions", headers=BOB)).json()["data"] == []


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("-dash", id="leading-dash"),
        pytest.param("a/b", id="slash"),
        pytest.param("x" * 65, id="too-long"),
    ],
)
async def test_a_bad_tenant_name_is_400_and_not_echoed(http: httpx.AsyncClient, name: str) -> None:
    """A tenant name outside the pattern is a 400 on param tenant that does not repeat it."""
    response = await http.get("/v1/sessions", params={"tenant": name}, headers=OPS)
    error = api_error(response, 400)
    assert (error["param"], error["code"]) == ("tenant", "invalid_tenant")
    assert name not in error["message"]


async def test_tenants_are_listed_for_admins_only(http: httpx.AsyncClient) -> None:
    """GET /v1/tenants lists tenants with their limits for an admin, 403 for anyone else."""
    listed = await http.get("/v1/tenants", headers=OPS)
    assert listed.status_code == 200, listed.text
    assert listed.json()["data"] == [
        {"id": "alice", "object": "tenant", "turns_per_minute": 3, "tokens_per_day": 0},
        {"id": "bob", "object": "tenant", "turns_per_minute": 0, "tokens_per_day": 0},
    ]
    error = api_error(await http.get("/v1/tenants", headers=ALICE), 403)
    assert error["code"] == "admin_only"


async def test_the_endpoints_need_a_token(http: httpx.AsyncClient) -> None:
    """Without a bearer token every session endpoint answers 401 in the OpenAI shape."""
    for method, path in (
        ("GET", "/v1/sessions"),
        ("GET", "/v1/sessions/http:s1/messages"),
        ("DELETE", "/v1/sessions/http:s1"),
        ("GET", "/v1/tenants"),
    ):
        api_error(await http.request(method, path), 401)
