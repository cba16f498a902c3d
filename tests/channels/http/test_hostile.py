"""Malformed and hostile requests get the right 4xx, and the channel keeps serving."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from pydantic import SecretStr

from agentd.config import HttpChannelSettings, RateLimitSettings
from agentd.engine.runtime import Runtime
from agentd.metrics import Metrics
from tests.support.http_channel import serving
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio

HELLO = {"messages": [{"role": "user", "content": "hello"}]}


async def _still_serving(http: httpx.AsyncClient) -> None:
    reply = await http.post("/v1/chat/completions", json=HELLO)
    assert reply.status_code == 200
    assert reply.json()["choices"][0]["message"]["content"] == "echo: hello"


def _error(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    return error


@pytest.fixture
async def http(stub_runtime: Runtime) -> AsyncIterator[httpx.AsyncClient]:
    """A plain HTTP client on a channel with small limits."""
    settings = HttpChannelSettings(max_body_bytes=2048, max_message_chars=100, body_timeout=0.5)
    async with serving(stub_runtime, settings) as channel:
        async with httpx.AsyncClient(base_url=channel.url, timeout=10) as client:
            yield client


async def test_bad_json_is_400(http: httpx.AsyncClient) -> None:
    """A body that is not JSON is a 400 saying so."""
    reply = await http.post("/v1/chat/completions", content=b'{"messages": [')
    error = _error(reply, 400)
    assert error["code"] == "invalid_json"
    await _still_serving(http)


@pytest.mark.parametrize(
    ("body", "param"),
    [
        pytest.param({"messages": "hello"}, "messages", id="messages-not-a-list"),
        pytest.param({"messages": []}, "messages", id="no-messages"),
        pytest.param({}, "messages", id="messages-missing"),
        pytest.param([1, 2], None, id="not-an-object"),
        pytest.param(
            {"messages": [{"role": "user", "content": 5}]},
            "messages.0.content",
            id="content-a-number",
        ),
        pytest.param(
            {"messages": [{"role": "wizard", "content": "x"}]}, "messages.0.role", id="unknown-role"
        ),
        pytest.param({**HELLO, "stream": "yes"}, "stream", id="stream-a-string"),
        pytest.param({**HELLO, "n": 2}, "n", id="n-above-one"),
        pytest.param({**HELLO, "user": 42}, "user", id="user-a-number"),
        pytest.param(
            {"messages": [{"role": "user", "content": [{"type": "image_url"}]}]},
            "messages.0.content",
            id="image-part",
        ),
        pytest.param(
            {"messages": [{"role": "user", "content": "x" * 101}]},
            "messages.0.content",
            id="message-too-long",
        ),
        pytest.param(
            {"messages": [{"role": "tool", "content": "x"}]},
            "messages.0.tool_call_id",
            id="tool-without-id",
        ),
        pytest.param({**HELLO, "user": "../etc/passwd"}, "user", id="bad-session-id"),
    ],
)
async def test_schema_violations_are_400_naming_the_field(
    http: httpx.AsyncClient, body: Any, param: str | None
) -> None:
    """A wrong type or value is a 400 whose param names the field."""
    reply = await http.post("/v1/chat/completions", json=body)
    error = _error(reply, 400)
    assert error["param"] == param
    assert error["type"] == "invalid_request_error"
    await _still_serving(http)


async def test_session_request_must_end_with_a_user_message(http: httpx.AsyncClient) -> None:
    """A session request whose last message is not the user's has nothing to append: 400."""
    body = {"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]}
    reply = await http.post("/v1/chat/completions", json=body, headers={"X-Session-Id": "s"})
    assert _error(reply, 400)["code"] == "no_user_message"


async def test_huge_declared_body_is_413(http: httpx.AsyncClient) -> None:
    """A Content-Length above the limit is refused with 413 before the body is read."""
    body = json.dumps({"messages": [{"role": "user", "content": "x" * 5000}]}).encode()
    reply = await http.post("/v1/chat/completions", content=body)
    assert _error(reply, 413)["code"] == "request_too_large"
    await _still_serving(http)


async def test_huge_chunked_body_is_413(http: httpx.AsyncClient) -> None:
    """A chunked body (no Content-Length) is cut off at the limit with 413."""

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(8):
            yield b" " * 1000

    reply = await http.post("/v1/chat/completions", content=chunks())
    assert _error(reply, 413)["code"] == "request_too_large"
    await _still_serving(http)


async def test_unknown_route_and_wrong_method(http: httpx.AsyncClient) -> None:
    """Unknown paths are 404 and wrong methods 405, both in the OpenAI error shape."""
    assert _error(await http.get("/v1/nothing"), 404)["type"] == "not_found_error"
    _error(await http.get("/v1/chat/completions"), 405)


async def test_slow_body_is_408_and_frees_the_connection(stub_runtime: Runtime) -> None:
    """A client that sends headers then stalls its body gets 408 within body_timeout."""
    settings = HttpChannelSettings(body_timeout=0.3)
    async with serving(stub_runtime, settings) as channel:
        assert channel.port is not None

        def stall() -> bytes:
            with socket.create_connection(("127.0.0.1", channel.port), timeout=10) as sock:
                sock.sendall(
                    b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                    b'Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{"mess'
                )
                data = b""
                while b"\r\n\r\n" not in data:
                    piece = sock.recv(4096)
                    if not piece:
                        break
                    data += piece
                return data

        head = await anyio.to_thread.run_sync(stall)
        assert head.startswith(b"HTTP/1.1 408")
        async with httpx.AsyncClient(base_url=channel.url) as http:
            await _still_serving(http)


async def test_missing_and_wrong_token_are_401(stub_runtime: Runtime) -> None:
    """No token or a wrong one is 401 with WWW-Authenticate; the health probe stays open."""
    settings = HttpChannelSettings(tokens=[SecretStr("right")])
    async with (
        serving(stub_runtime, settings) as channel,
        httpx.AsyncClient(base_url=channel.url) as http,
    ):
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "right"}):
            reply = await http.post("/v1/chat/completions", json=HELLO, headers=headers)
            assert _error(reply, 401)["type"] == "authentication_error"
            assert reply.headers["www-authenticate"].startswith("Bearer")
        _error(await http.get("/metrics"), 401)
        _error(await http.get("/v1/models"), 401)
        assert (await http.get("/healthz")).status_code == 200
        assert (await http.get("/metrics", headers={"Authorization": "Bearer right"})).is_success


async def test_rate_limit_is_429_with_retry_after_per_token(stub_runtime: Runtime) -> None:
    """Past its burst a token gets 429 with Retry-After; another token is not affected."""
    settings = HttpChannelSettings(
        tokens=[SecretStr("a"), SecretStr("b")],
        rate_limit=RateLimitSettings(requests_per_minute=6, burst=2),
    )
    async with (
        serving(stub_runtime, settings) as channel,
        httpx.AsyncClient(base_url=channel.url) as http,
    ):
        a = {"Authorization": "Bearer a"}
        statuses = [(await http.get("/v1/models", headers=a)).status_code for _ in range(3)]
        assert statuses == [200, 200, 429]
        limited = await http.get("/v1/models", headers=a)
        assert _error(limited, 429)["code"] == "rate_limit_exceeded"
        assert 1 <= int(limited.headers["retry-after"]) <= 10
        assert (await http.get("/v1/models", headers={"Authorization": "Bearer b"})).is_success


async def test_client_disconnect_mid_stream_cancels_the_turn(
    stub_runtime: Runtime, stub_llm: StubLLM, metrics: Metrics
) -> None:
    """A client leaving mid-stream cancels its turn; history stays consistent and usable."""
    stub_llm.add(Reply(text=" ".join(f"w{i}" for i in range(40)), chunk_delay=0.05))
    async with (
        serving(stub_runtime, metrics=metrics) as channel,
        httpx.AsyncClient(base_url=channel.url, timeout=10) as http,
    ):
        body = {**HELLO, "stream": True, "user": "carol"}
        async with http.stream("POST", "/v1/chat/completions", json=body) as response:
            assert response.status_code == 200
            async for line in response.aiter_lines():
                if '"content":"w0' in line or '"content":" w1' in line:
                    break
        with anyio.fail_after(10):
            await stub_runtime.wait_idle()
        assert (
            metrics.registry.get_sample_value(
                "agentd_turns_total", {"channel": "http", "status": "cancelled"}
            )
            == 1.0
        )
        history = await stub_runtime.history("http:carol")
        assert [(m.role, m.content) for m in history[1:]] == [("user", "hello")]

        again = await http.post(
            "/v1/chat/completions",
            json={"messages": [{"role": "user", "content": "again"}], "user": "carol"},
        )
        assert again.json()["choices"][0]["message"]["content"] == "echo: again"
    history = await stub_runtime.history("http:carol")
    assert [m.role for m in history] == ["system", "user", "user", "assistant"]
    assert (
        metrics.registry.get_sample_value("agentd_turns_total", {"channel": "http", "status": "ok"})
        == 1.0
    )


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        pytest.param("127.0.0.1", True, id="ipv4-loopback"),
        pytest.param("::1", True, id="ipv6-loopback"),
        pytest.param("localhost", True, id="localhost"),
        pytest.param("0.0.0.0", False, id="all-ipv4"),
        pytest.param("192.168.1.10", False, id="lan"),
        pytest.param("example.org", False, id="hostname"),
    ],
)
def test_non_loopback_needs_a_token(host: str, allowed: bool) -> None:
    """The channel refuses a non-loopback address without tokens, naming the key."""
    from agentd.errors import ConfigError
    from channels.http import HttpChannel

    if allowed:
        HttpChannel(HttpChannelSettings(host=host))
    else:
        with pytest.raises(ConfigError) as caught:
            HttpChannel(HttpChannelSettings(host=host))
        assert caught.value.key == "channels.http.tokens"
        HttpChannel(HttpChannelSettings(host=host, tokens=[SecretStr("t")]))


async def test_shutting_down_is_503_with_retry_after(stub_runtime: Runtime) -> None:
    """While the daemon drains, new turns get 503 with Retry-After, session or not."""
    async with serving(stub_runtime) as channel, httpx.AsyncClient(base_url=channel.url) as http:
        stub_runtime.accepting = False
        for extra in ({}, {"user": "dora"}, {"stream": True}):
            reply = await http.post("/v1/chat/completions", json={**HELLO, **extra})
            assert _error(reply, 503)["code"] == "shutting_down"
            assert reply.headers["retry-after"] == "5"


def test_enabled_off_loopback_without_tokens_is_a_config_error(tmp_path: Path) -> None:
    """Loading settings that enable the channel off loopback without tokens fails (exit 78)."""
    from agentd.config import load_settings
    from agentd.errors import ConfigError

    env = {"AGENTD_CHANNELS__HTTP__ENABLED": "true", "AGENTD_CHANNELS__HTTP__HOST": "0.0.0.0"}
    with pytest.raises(ConfigError) as caught:
        load_settings(None, env)
    assert caught.value.key == "channels.http"
    assert "channels.http.tokens" in caught.value.reason
    ok = load_settings(None, {**env, "AGENTD_CHANNELS__HTTP__TOKENS": '["t"]'})
    assert ok.settings.channels.http.tokens[0].get_secret_value() == "t"
