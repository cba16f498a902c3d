"""The memory endpoints: each principal works in its tenant, admins may name another, bad
requests get a 4xx saying why, a store that fails is a 503 that keeps its reason to the log."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import httpx
import pytest
from pydantic import SecretStr
from structlog.testing import capture_logs

from agentd import scope as scopes
from agentd.config import HttpChannelSettings
from agentd.daemon.app import App
from agentd.errors import MemoryUnavailable
from agentd.memory.longterm import Memory, MemoryStats, check_content
from tests.support.http_channel import JSON, api_error, in_process

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


class TenantMemory:
    """Memories kept per tenant of the current scope, found by shared words."""

    def __init__(self) -> None:
        self.degraded: str | None = None
        self.by_tenant: dict[str, dict[str, Memory]] = {}
        self.failing = False

    def _mine(self) -> dict[str, Memory]:
        if self.failing:
            raise MemoryUnavailable("cannot reach Milvus at http://10.1.2.3:19530 (secret-host)")
        return self.by_tenant.setdefault(scopes.current().tenant, {})

    async def save(self, memory: Memory) -> str:
        mine = self._mine()
        key = f"m{len(mine) + 1}"
        mine[key] = Memory(check_content(memory.content), memory.tags, key, 1_700_000_000_000)
        return key

    async def save_many(self, memories: Sequence[Memory]) -> list[str]:
        return [await self.save(m) for m in memories]

    async def search(
        self, query: str, top_k: int = 5, tags_include: Sequence[str] = ()
    ) -> list[Memory]:
        words = set(query.lower().split())
        found = [
            Memory(m.content, m.tags, m.key, m.ts, confirmed=m.confirmed, score=0.9, words=m.words)
            for m in self._mine().values()
            if words & set(m.content.lower().split())
            and (not tags_include or set(tags_include) & set(m.tags))
        ]
        return found[:top_k]

    async def get(self, key: str) -> Memory | None:
        return self._mine().get(key)

    async def delete(self, key: str) -> bool:
        return self._mine().pop(key, None) is not None

    async def stats(self) -> MemoryStats:
        return MemoryStats(
            "milvus-lite", "/srv/state/milvus.db", "memories", 16, len(self._mine()), self.degraded
        )

    async def aclose(self) -> None:
        return None


@pytest.fixture
def store() -> TenantMemory:
    return TenantMemory()


@pytest.fixture
async def http(home_app: App, store: TenantMemory) -> AsyncIterator[httpx.AsyncClient]:
    async with in_process(home_app.runtime, SETTINGS, memory=store) as client:
        yield client


async def save(http: httpx.AsyncClient, who: dict[str, str], text: str, **extra: object) -> str:
    reply = await http.post("/v1/memories", json={"content": text, **extra}, headers=who)
    assert reply.status_code == 200, reply.text
    key: str = reply.json()["id"]
    return key


async def test_save_search_delete_stay_in_the_principals_tenant(
    http: httpx.AsyncClient, store: TenantMemory
) -> None:
    """Alice saves, finds, counts and deletes her memory; Bob sees none of it."""
    key = await save(http, ALICE, "Ann likes green tea", tags=["pref"])
    assert set(store.by_tenant) == {"alice"}
    found = await http.post(
        "/v1/memories/search", json={"query": "green tea", "tags": ["pref"]}, headers=ALICE
    )
    body = found.json()
    assert body["tenant"] == "alice"
    assert [(m["id"], m["content"], m["tags"], m["score"]) for m in body["data"]] == [
        (key, "Ann likes green tea", ["pref"], 0.9)
    ]
    theirs = await http.post("/v1/memories/search", json={"query": "green tea"}, headers=BOB)
    assert theirs.json()["data"] == []
    assert api_error(await http.delete(f"/v1/memories/{key}", headers=BOB), 404)["code"] == (
        "memory_not_found"
    )
    stats = (await http.get("/v1/memories/stats", headers=ALICE)).json()
    assert (stats["tenant"], stats["memories"], stats["dimension"]) == ("alice", 1, 16)
    assert stats["address"] is None  # the store's address is for admins
    deleted = await http.delete(f"/v1/memories/{key}", headers=ALICE)
    assert deleted.json() == {"id": key, "object": "memory.deleted", "deleted": True}
    assert store.by_tenant["alice"] == {}


async def test_an_admin_may_name_a_tenant_others_get_403(
    http: httpx.AsyncClient, store: TenantMemory
) -> None:
    """ops works in alice's tenant with ?tenant=; alice naming bob is refused before any write."""
    key = await save(http, ALICE, "the door code is 4239")
    stats = await http.get("/v1/memories/stats", params={"tenant": "alice"}, headers=OPS)
    assert (stats.json()["memories"], stats.json()["address"]) == (1, "/srv/state/milvus.db")
    gone = await http.delete(f"/v1/memories/{key}", params={"tenant": "alice"}, headers=OPS)
    assert gone.status_code == 200
    refused = await http.post(
        "/v1/memories", params={"tenant": "bob"}, json={"content": "x"}, headers=ALICE
    )
    error = api_error(refused, 403)
    assert (error["type"], error["code"]) == ("permission_error", "admin_only")
    assert "bob" not in store.by_tenant
    bad = await http.get("/v1/memories/stats", params={"tenant": "../etc"}, headers=OPS)
    assert api_error(bad, 400)["code"] == "invalid_tenant"


@pytest.mark.parametrize(
    ("path", "body", "param"),
    [
        pytest.param("/v1/memories", {}, "content", id="no-content"),
        pytest.param("/v1/memories", {"content": "  "}, "content", id="blank-content"),
        pytest.param("/v1/memories", {"content": 7}, "content", id="content-not-text"),
        pytest.param("/v1/memories", {"content": "x", "tags": "a"}, "tags", id="tags-not-list"),
        pytest.param("/v1/memories", {"content": "x", "tags": [1]}, "tags", id="tag-not-text"),
        pytest.param("/v1/memories/search", {}, "query", id="no-query"),
        pytest.param("/v1/memories/search", {"query": "x", "top_k": 0}, "top_k", id="top-k-0"),
        pytest.param("/v1/memories/search", {"query": "x", "top_k": 101}, "top_k", id="top-k-big"),
        pytest.param(
            "/v1/memories/search", {"query": "x", "top_k": True}, "top_k", id="top-k-bool"
        ),
        pytest.param("/v1/memories/search", {"query": "x", "top_k": "3"}, "top_k", id="top-k-text"),
    ],
)
async def test_bad_bodies_get_400_naming_the_field(
    http: httpx.AsyncClient, path: str, body: dict[str, object], param: str
) -> None:
    """A missing or mistyped field is a 400 naming it."""
    error = api_error(await http.post(path, json=body, headers=ALICE), 400)
    assert (error["param"], error["code"]) == (param, "invalid_value")


async def test_malformed_requests_get_400_without_echoing_them(http: httpx.AsyncClient) -> None:
    """Not JSON, not an object, a bad key or content over the limit: 400 with the reason."""
    not_json = await http.post("/v1/memories", content=b"{nope", headers={**ALICE, **JSON})
    assert api_error(not_json, 400)["code"] == "invalid_json"
    a_list = await http.post("/v1/memories", json=["x"], headers=ALICE)
    assert api_error(a_list, 400)["code"] == "invalid_json"
    bad_key = await http.delete("/v1/memories/sk-secret%20or%201=1", headers=ALICE)
    error = api_error(bad_key, 400)
    assert error["code"] == "invalid_key" and "sk-secret" not in error["message"]
    too_long = await http.post("/v1/memories", json={"content": "x" * 9000}, headers=ALICE)
    error = api_error(too_long, 400)
    assert error["code"] == "invalid_memory" and "at most 8192" in error["message"]


async def test_a_failing_store_is_503_with_its_reason_in_the_log_only(
    http: httpx.AsyncClient, store: TenantMemory
) -> None:
    """MemoryUnavailable mid-request: 503 memory_unavailable; the host is logged, not sent."""
    store.failing = True
    with capture_logs() as logs:
        reply = await http.post("/v1/memories/search", json={"query": "tea"}, headers=ALICE)
    error = api_error(reply, 503)
    assert error["code"] == "memory_unavailable" and "secret-host" not in reply.text
    assert any("secret-host" in str(e.get("reason")) for e in logs)


async def test_a_daemon_without_memory_answers_409(home_app: App) -> None:
    """memory.embed off (no store): every memory endpoint is 409 memory_off."""
    async with in_process(home_app.runtime, SETTINGS) as http:
        for reply in (
            await http.post("/v1/memories", json={"content": "x"}, headers=ALICE),
            await http.post("/v1/memories/search", json={"query": "x"}, headers=ALICE),
            await http.delete("/v1/memories/m1", headers=ALICE),
            await http.get("/v1/memories/stats", headers=ALICE),
        ):
            assert api_error(reply, 409)["code"] == "memory_off"


async def test_a_found_memory_shows_the_words_it_was_saved_from(
    http: httpx.AsyncClient, store: TenantMemory
) -> None:
    """A memory a turn saved shows the user's own request beside what the model kept."""
    said = Memory("Likes green tea.", key="m1", ts=5, confirmed=7, words="Merk dir: grüner Tee.")
    store.by_tenant["alice"] = {"m1": said}
    found = await http.post("/v1/memories/search", json={"query": "green tea"}, headers=ALICE)
    [memory] = found.json()["data"]
    assert (memory["words"], memory["ts"], memory["confirmed"]) == ("Merk dir: grüner Tee.", 5, 7)
