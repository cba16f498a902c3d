"""Hostile clients on a real socket: chunked floods, stalled bodies, vanishing streams.

Requests the API refuses by their content alone (401, 400, 413 by Content-Length, 429, 503)
are tested in process in test_api.py.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import httpx
import pytest
from pydantic import SecretStr

from agentd.config import HttpChannelSettings
from agentd.engine.runtime import Runtime
from agentd.metrics import Metrics
from tests.support.http_channel import HELLO, JSON, api_error, serving, still_serving
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio


async def test_huge_chunked_body_is_413(stub_runtime: Runtime) -> None:
    """A chunked body (no Content-Length) is cut off at the limit with 413."""

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(8):
            yield b" " * 1000

    settings = HttpChannelSettings(max_body_bytes=2048)
    async with (
        serving(stub_runtime, settings) as channel,
        httpx.AsyncClient(base_url=channel.url, timeout=10) as http,
    ):
        reply = await http.post("/v1/chat/completions", content=chunks(), headers=JSON)
        assert api_error(reply, 413)["code"] == "request_too_large"
        await still_serving(http)


async def test_slow_body_is_408_and_frees_the_connection(stub_runtime: Runtime) -> None:
    """A client that sends headers then stalls its body gets 408 within body_timeout."""
    settings = HttpChannelSettings(body_timeout=0.3)
    async with serving(stub_runtime, settings) as channel:
        assert channel.port is not None

        def stall() -> bytes:
            with socket.create_connection(("127.0.0.1", channel.port), timeout=10) as sock:
                sock.sendall(
                    b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
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
            await still_serving(http)


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
