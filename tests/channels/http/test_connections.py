"""Connection floods on a real socket: idle sockets, slowloris, saturation, garbage bytes.

Issue #15, finding 4: 1,023 idle connections made every request answer 503 for as long as
they were held. The server's own answers (400, 503) leave in the OpenAI error shape.
"""

from __future__ import annotations

import json
import resource
import socket
import time
from collections.abc import Iterator

import anyio
import httpx
import pytest
from anyio.abc import SocketStream
from pydantic import SecretStr

from agentd.config import HttpChannelSettings
from agentd.engine.runtime import Runtime
from channels.http.connections import ConnectionPool
from tests.channels.conftest import wait_until
from tests.support.http_channel import HELLO, api_error, serving
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio

IDLE = 2000
TOKEN = "flood-test-token"


@pytest.fixture
def many_fds() -> Iterator[None]:
    """Room for the flood's sockets on both ends in this one process; the limit is restored."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * IDLE + 512
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"the hard RLIMIT_NOFILE ({hard}) is below the {wanted} this test needs")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def _open_idle(port: int, count: int) -> list[SocketStream]:
    streams: list[SocketStream] = []

    async def one(limiter: anyio.CapacityLimiter) -> None:
        async with limiter:
            streams.append(await anyio.connect_tcp("127.0.0.1", port))

    limiter = anyio.CapacityLimiter(100)
    async with anyio.create_task_group() as tg:
        for _ in range(count):
            tg.start_soon(one, limiter)
    return streams


async def test_idle_connections_never_take_the_api_down(
    stub_runtime: Runtime, many_fds: None
) -> None:
    """With 2,000 idle sockets held open, /healthz and an authenticated chat still answer 200."""
    settings = HttpChannelSettings(tokens=[SecretStr(TOKEN)])
    async with serving(stub_runtime, settings) as channel:
        assert channel.port is not None and channel.pool is not None
        started = time.monotonic()
        streams = await _open_idle(channel.port, IDLE)
        try:
            headers = {"Authorization": f"Bearer {TOKEN}"}
            async with httpx.AsyncClient(base_url=channel.url, timeout=10) as http:
                health = await http.get("/healthz")
                chat = await http.post("/v1/chat/completions", json=HELLO, headers=headers)
                unauthenticated = await http.post("/v1/chat/completions", json=HELLO)
            assert health.status_code == 200, health.text
            assert chat.status_code == 200, chat.text
            assert chat.json()["choices"][0]["message"]["content"] == "echo: hello"
            assert unauthenticated.status_code == 401
            # The server kept at most its cap open and closed the longest idle ones.
            assert len(channel.pool) <= settings.max_connections
            assert channel.pool.evicted >= IDLE - settings.max_connections
        finally:
            for stream in streams:
                await stream.aclose()
        assert time.monotonic() - started < 30


def _closed_by_server(sock: socket.socket, within: float) -> tuple[bool, float]:
    """Whether the server closes ``sock`` within ``within`` seconds, and when it did."""
    started = time.monotonic()
    sock.settimeout(within)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return False, time.monotonic() - started
    except ConnectionResetError:
        pass
    return True, time.monotonic() - started


async def test_silent_and_slow_headers_are_cut_at_the_header_timeout(
    stub_runtime: Runtime,
) -> None:
    """A socket that sends nothing, or trickles a header and stalls, is closed in header_timeout."""
    settings = HttpChannelSettings(header_timeout=0.5)
    async with serving(stub_runtime, settings) as channel:
        port = channel.port
        assert port is not None

        def silent() -> tuple[bool, float]:
            with socket.create_connection(("127.0.0.1", port)) as sock:
                return _closed_by_server(sock, 5)

        def trickle() -> tuple[bool, float]:
            with socket.create_connection(("127.0.0.1", port)) as sock:
                for piece in (b"GET /healthz HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n", b"X-Slow: 1"):
                    sock.sendall(piece)
                    time.sleep(0.15)
                return _closed_by_server(sock, 5)

        def after_keep_alive() -> tuple[bool, float]:
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                first = sock.recv(4096)
                assert first.startswith(b"HTTP/1.1 200"), first
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                return _closed_by_server(sock, 5)

        for probe in (silent, trickle, after_keep_alive):
            closed, after = await anyio.to_thread.run_sync(probe)
            assert closed, f"{probe.__name__}: still open after {after:.1f} s"
            assert after < 2.0, f"{probe.__name__}: closed only after {after:.1f} s"
        async with httpx.AsyncClient(base_url=channel.url) as http:
            assert (await http.get("/healthz")).status_code == 200


async def test_requests_beyond_max_in_flight_get_a_json_503(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """At max_in_flight, another request gets the OpenAI-shaped 503; the probes still answer."""
    stub_llm.fallback = lambda body: Reply(text="slow", delay=1.0)
    settings = HttpChannelSettings(max_in_flight=1)
    async with (
        serving(stub_runtime, settings) as channel,
        httpx.AsyncClient(base_url=channel.url, timeout=10) as http,
        anyio.create_task_group() as tg,
    ):
        answers: list[httpx.Response] = []

        async def busy() -> None:
            answers.append(await http.post("/v1/chat/completions", json=HELLO))

        tg.start_soon(busy)
        await wait_until(lambda: stub_llm.requests)
        refused = await http.post("/v1/chat/completions", json=HELLO)
        assert refused.headers["content-type"] == "application/json"
        assert refused.headers["retry-after"] == "1"
        assert api_error(refused, 503)["code"] == "over_capacity"
        assert (await http.get("/healthz")).status_code == 200
    assert [a.status_code for a in answers] == [200]


@pytest.mark.parametrize(
    "garbage",
    [
        pytest.param(b"HELLO\r\n\r\n", id="not-http"),
        pytest.param(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n", id="bad-header"),
        pytest.param(b"GET / HTTP/1.1\r\nX: " + b"a" * 20_000, id="headers-too-large"),
    ],
)
async def test_a_malformed_request_gets_a_json_400(stub_runtime: Runtime, garbage: bytes) -> None:
    """Bytes that are not HTTP get uvicorn's 400 as JSON in the OpenAI shape, then a close."""
    async with serving(stub_runtime) as channel:
        port = channel.port
        assert port is not None

        def send() -> bytes:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.sendall(garbage)
                data = b""
                while piece := sock.recv(4096):
                    data += piece
                return data

        raw = await anyio.to_thread.run_sync(send)
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), raw
    assert b"content-type: application/json" in head.lower()
    error = json.loads(body)["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["code"] == "bad_http_request"


class _Conn:
    """Stands in for a connection: records that the pool evicted it."""

    def __init__(self, name: str, evicted: list[str]) -> None:
        self.name, self._evicted = name, evicted

    def evict(self) -> None:
        self._evicted.append(self.name)


def test_the_pool_evicts_the_longest_idle_and_never_a_busy_one() -> None:
    """Beyond the cap the least recently used idle connection goes; busy ones stay."""
    evicted: list[str] = []
    pool = ConnectionPool(max_connections=3)
    a, b, c, d, e = (_Conn(n, evicted) for n in "abcde")
    for conn in (a, b, c):
        pool.opened(conn)  # type: ignore[arg-type]
    pool.mark_busy(a)  # type: ignore[arg-type]
    pool.mark_idle(b)  # type: ignore[arg-type]  # b was just used: c is now the oldest idle
    pool.opened(d)  # type: ignore[arg-type]
    assert evicted == ["c"]
    pool.mark_busy(b)  # type: ignore[arg-type]
    pool.mark_busy(d)  # type: ignore[arg-type]
    pool.opened(e)  # type: ignore[arg-type]  # everyone else is busy: the newcomer has no room
    assert evicted == ["c", "e"]
    assert (len(pool), pool.idle, pool.evicted) == (3, 0, 2)
    pool.closed(a)  # type: ignore[arg-type]
    assert len(pool) == 2


async def test_forwarded_headers_do_not_choose_the_client_address(stub_runtime: Runtime) -> None:
    """A bad-token flood varying X-Forwarded-For is still limited as one address (the peer's)."""
    settings = HttpChannelSettings(tokens=[SecretStr(TOKEN)])
    async with serving(stub_runtime, settings) as channel:
        statuses: list[int] = []
        async with httpx.AsyncClient(base_url=channel.url, timeout=10) as http:
            for n in range(settings.auth_failures.burst + 5):
                response = await http.get(
                    "/v1/models",
                    headers={
                        "Authorization": "Bearer wrong",
                        "X-Forwarded-For": f"203.0.113.{n}",
                        "Forwarded": f"for=203.0.113.{n}",
                    },
                )
                statuses.append(response.status_code)
        assert statuses[: settings.auth_failures.burst] == [401] * settings.auth_failures.burst
        assert set(statuses[settings.auth_failures.burst :]) == {429}
