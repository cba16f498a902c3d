"""Limits on a whole request and on failed authentication per address (#15, findings 5 and 7).

In process through ``httpx.ASGITransport``; its ``client`` argument stands for the address.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
from pydantic import SecretStr

from agentd.config import AuthFailureSettings, HttpChannelSettings
from agentd.engine.runtime import Runtime
from agentd.metrics import Metrics
from channels.http.api import build_app
from tests.support.http_channel import HELLO, IN_PROCESS_URL, api_error, in_process
from tests.support.stub_llm import StubLLM

pytestmark = pytest.mark.anyio


def _users(count: int, chars: int) -> list[dict[str, str]]:
    return [{"role": "user", "content": "x" * chars} for _ in range(count)]


async def _stored_user_messages(runtime: Runtime, session: str) -> list[int]:
    return [len(m.content) for m in await runtime.history(session) if m.role == "user"]


async def test_reported_eleven_messages_of_90000_chars_are_refused(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """11 x 90,000 characters (each under max_message_chars) is over the request total: 400."""
    body = {"messages": _users(11, 90_000), "user": "bulk"}
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", json=body)
    error = api_error(reply, 400)
    assert error["code"] == "request_too_long"
    assert "max_request_chars" in error["message"]
    assert await _stored_user_messages(stub_runtime, "http:bulk") == []
    assert stub_llm.requests == []


async def test_merged_trailing_user_messages_respect_max_message_chars(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """Trailing user messages a session joins into one stored message obey the per-message limit."""
    settings = HttpChannelSettings(max_message_chars=100, max_request_chars=1000)
    async with in_process(stub_runtime, settings) as http:
        merged = {"messages": _users(3, 60), "user": "merge"}
        error = api_error(await http.post("/v1/chat/completions", json=merged), 400)
        assert error["code"] == "message_too_long"
        assert "max_message_chars" in error["message"]
        assert await _stored_user_messages(stub_runtime, "http:merge") == []
        # Stateless, the same messages stay separate messages and each fits.
        stateless = await http.post("/v1/chat/completions", json={"messages": _users(3, 60)})
        assert stateless.status_code == 200
        fits = {"messages": _users(2, 40), "user": "merge"}
        assert (await http.post("/v1/chat/completions", json=fits)).status_code == 200
    assert await _stored_user_messages(stub_runtime, "http:merge") == [82]


async def test_too_many_messages_are_refused(stub_runtime: Runtime, stub_llm: StubLLM) -> None:
    """More messages than max_messages is a 400 naming the limit; the limit itself passes."""
    settings = HttpChannelSettings(max_messages=5)
    async with in_process(stub_runtime, settings) as http:
        reply = await http.post("/v1/chat/completions", json={"messages": _users(6, 1)})
        error = api_error(reply, 400)
        assert (error["code"], error["param"]) == ("too_many_messages", "messages")
        assert "max_messages" in error["message"]
        assert stub_llm.requests == []
        assert (
            await http.post("/v1/chat/completions", json={"messages": _users(5, 1)})
        ).status_code == 200


@asynccontextmanager
async def _clients(
    runtime: Runtime, settings: HttpChannelSettings, *addresses: str
) -> AsyncIterator[list[httpx.AsyncClient]]:
    """One client per address, all on the same app."""
    app = build_app(runtime, settings, metrics=Metrics())
    clients = [
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, client=(address, 40000)),
            base_url=IN_PROCESS_URL,
        )
        for address in addresses
    ]
    try:
        yield clients
    finally:
        for client in clients:
            await client.aclose()


async def test_bad_token_flood_is_429_per_address(stub_runtime: Runtime) -> None:
    """200 bad tokens from one address end in 429 with Retry-After; another address still works."""
    settings = HttpChannelSettings(tokens=[SecretStr("right")])
    bad, good = {"Authorization": "Bearer wrong"}, {"Authorization": "Bearer right"}
    async with _clients(stub_runtime, settings, "203.0.113.7", "198.51.100.2") as (flood, other):
        statuses = [
            (await flood.post("/v1/chat/completions", json=HELLO, headers=bad)).status_code
            for _ in range(200)
        ]
        assert statuses[:10] == [401] * 10
        assert set(statuses[10:]) == {429}
        limited = await flood.get("/metrics", headers=bad)
        error = api_error(limited, 429)
        assert (error["type"], error["code"]) == ("rate_limit_error", "rate_limit_exceeded")
        assert 1 <= int(limited.headers["retry-after"]) <= 60
        # Over its budget, the address still gets the right token served: only failures count.
        assert (await flood.get("/v1/models", headers=good)).status_code == 200
        assert (await other.get("/v1/models", headers=good)).status_code == 200
        assert (await other.post("/v1/chat/completions", json=HELLO, headers=good)).is_success
        # The probes need no token and are not limited.
        assert (await flood.get("/healthz")).status_code == 200


async def test_loopback_flood_is_limited_and_successes_cost_nothing(
    stub_runtime: Runtime,
) -> None:
    """Loopback is limited like any address; only failures spend the budget."""
    settings = HttpChannelSettings(
        tokens=[SecretStr("right")], auth_failures=AuthFailureSettings(burst=3, per_minute=1)
    )
    bad, good = {"Authorization": "Bearer wrong"}, {"Authorization": "Bearer right"}
    async with _clients(stub_runtime, settings, "127.0.0.1") as (local,):
        for _ in range(20):
            assert (await local.get("/v1/models", headers=good)).status_code == 200
        statuses = [(await local.get("/v1/models", headers=bad)).status_code for _ in range(5)]
    assert statuses == [401, 401, 401, 429, 429]


async def test_the_right_token_is_served_after_a_local_flood(stub_runtime: Runtime) -> None:
    """30 bad tokens from a local process leave another local client with the token unaffected."""
    settings = HttpChannelSettings(tokens=[SecretStr("right")])
    bad, good = {"Authorization": "Bearer wrong"}, {"Authorization": "Bearer right"}
    async with _clients(stub_runtime, settings, "127.0.0.1", "127.0.0.1") as (flood, user):
        for _ in range(30):
            await flood.get("/v1/models", headers=bad)
        # 20: the principal's own rate limit (burst 20) is another matter.
        answers = [(await user.get("/v1/models", headers=good)).status_code for _ in range(20)]
        assert answers == [200] * 20
        api_error(await flood.get("/v1/models", headers=bad), 429)


async def test_every_loopback_address_is_one_source(stub_runtime: Runtime) -> None:
    """127.0.0.2..5, ::1 and ::ffff:127.0.0.1 share 127.0.0.1's budget: no fresh one each."""
    settings = HttpChannelSettings(
        tokens=[SecretStr("right")], auth_failures=AuthFailureSettings(burst=3, per_minute=1)
    )
    bad = {"Authorization": "Bearer wrong"}
    addresses = ["127.0.0.1", "127.0.0.2", "127.0.0.5", "::1", "::ffff:127.0.0.1"]
    async with _clients(stub_runtime, settings, *addresses) as clients:
        statuses = [(await c.get("/v1/models", headers=bad)).status_code for c in clients]
    assert statuses == [401, 401, 401, 429, 429]


async def test_ipv6_sources_count_by_their_64(stub_runtime: Runtime) -> None:
    """Addresses of one /64 share a budget; another /64 has its own."""
    settings = HttpChannelSettings(
        tokens=[SecretStr("right")], auth_failures=AuthFailureSettings(burst=2, per_minute=1)
    )
    bad = {"Authorization": "Bearer wrong"}
    addresses = ["2001:db8:1:2::1", "2001:db8:1:2::ff", "2001:db8:1:2:aaaa::9", "2001:db8:1:3::1"]
    async with _clients(stub_runtime, settings, *addresses) as clients:
        statuses = [(await c.get("/v1/models", headers=bad)).status_code for c in clients]
    assert statuses == [401, 401, 429, 401]


@pytest.mark.parametrize(
    ("peer", "separate"),
    [
        pytest.param("10.0.0.5", True, id="listed-proxy-forwards"),
        pytest.param("10.0.1.5", False, id="unlisted-peer-is-ignored"),
    ],
)
async def test_x_forwarded_for_only_from_trusted_proxies(
    stub_runtime: Runtime, peer: str, separate: bool
) -> None:
    """Behind a listed proxy each forwarded client has its own budget; others cannot choose one."""
    settings = HttpChannelSettings(
        tokens=[SecretStr("right")],
        trusted_proxies=["10.0.0.0/24"],
        auth_failures=AuthFailureSettings(burst=2, per_minute=1),
    )
    async with _clients(stub_runtime, settings, peer) as (proxy,):
        statuses = []
        for client in ("203.0.113.1", "203.0.113.1", "203.0.113.2"):
            headers = {"Authorization": "Bearer wrong", "X-Forwarded-For": f"{client}, 10.0.0.7"}
            statuses.append((await proxy.get("/v1/models", headers=headers)).status_code)
    assert statuses == ([401, 401, 401] if separate else [401, 401, 429])


def test_a_trusted_proxy_must_be_an_address() -> None:
    """A trusted_proxies entry that is not an address or network fails at start."""
    with pytest.raises(ValueError, match="is not an address or a network"):
        HttpChannelSettings(trusted_proxies=["proxy.example"])


async def test_without_tokens_nothing_is_counted(stub_runtime: Runtime) -> None:
    """With no tokens configured (loopback) there is no failure to count and no 429."""
    settings = HttpChannelSettings(auth_failures=AuthFailureSettings(burst=1, per_minute=1))
    async with in_process(stub_runtime, settings) as http:
        for _ in range(5):
            reply = await http.get("/v1/models", headers={"Authorization": "Bearer junk"})
            assert reply.status_code == 200
