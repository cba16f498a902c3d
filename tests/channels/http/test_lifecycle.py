"""The channel inside a task group: ready on start, graceful and bounded stop on cancel."""

from __future__ import annotations

import socket

import anyio
import httpx
import pytest

from agentd.config import HttpChannelSettings
from agentd.engine.runtime import Runtime
from channels.base import Channel
from channels.http import HttpChannel
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio

HELLO = {"messages": [{"role": "user", "content": "hello"}]}


def _refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


async def _wait_for_request(stub: StubLLM) -> None:
    with anyio.fail_after(10):
        while not stub.requests:  # noqa: ASYNC110 - the stub runs in a thread: no event to wait on
            await anyio.sleep(0.01)


async def test_it_is_a_channel_and_reports_its_port(stub_runtime: Runtime) -> None:
    """The channel follows the protocol, is ready when tg.start returns, and frees its port."""
    channel = HttpChannel(HttpChannelSettings(port=0))
    assert isinstance(channel, Channel)
    async with channel, anyio.create_task_group() as tg:
        await tg.start(channel.serve, stub_runtime)
        assert channel.port
        async with httpx.AsyncClient(base_url=channel.url) as http:
            assert (await http.get("/healthz")).status_code == 200
        tg.cancel_scope.cancel()
    assert _refused(channel.port)


async def test_cancel_lets_an_in_flight_request_finish(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """Cancelling serve stops accepting but lets a running turn answer."""
    stub_llm.add(Reply(text="late answer", delay=0.5))
    channel = HttpChannel(HttpChannelSettings(port=0), shutdown_timeout=10)
    answers: list[httpx.Response] = []

    async def ask() -> None:
        async with httpx.AsyncClient(base_url=channel.url, timeout=20) as http:
            answers.append(await http.post("/v1/chat/completions", json=HELLO))

    async with anyio.create_task_group() as clients:
        async with channel, anyio.create_task_group() as tg:
            await tg.start(channel.serve, stub_runtime)
            clients.start_soon(ask)
            await _wait_for_request(stub_llm)
            tg.cancel_scope.cancel()
        stopped_port = channel.port
    assert stopped_port is not None and _refused(stopped_port)
    assert answers[0].status_code == 200
    assert answers[0].json()["choices"][0]["message"]["content"] == "late answer"
    assert stub_runtime.in_flight == 0


async def test_cancel_is_bounded_when_a_stream_runs_long(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """A stream longer than the shutdown timeout is cut off and its turn cancelled."""
    stub_llm.add(Reply(text=" ".join(["word"] * 200), chunk_delay=0.1))
    channel = HttpChannel(HttpChannelSettings(port=0), shutdown_timeout=0.5)
    body = {**HELLO, "stream": True, "user": "long"}
    with anyio.fail_after(30):
        async with channel, anyio.create_task_group() as tg:
            await tg.start(channel.serve, stub_runtime)
            async with (
                httpx.AsyncClient(base_url=channel.url, timeout=20) as http,
                http.stream("POST", "/v1/chat/completions", json=body) as response,
            ):
                async for line in response.aiter_lines():
                    if "word" in line:
                        tg.cancel_scope.cancel()
                        break
        await stub_runtime.wait_idle()
    history = await stub_runtime.history("http:long")
    assert [m.role for m in history] == ["system", "user"]


async def test_busy_port_is_an_oserror(stub_runtime: Runtime) -> None:
    """Binding a port in use fails with OSError instead of exiting the process."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        channel = HttpChannel(HttpChannelSettings(port=port))
        with pytest.raises(OSError):
            await channel.serve(stub_runtime)
