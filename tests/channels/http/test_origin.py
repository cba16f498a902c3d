"""What a browser can forge is refused: foreign Host, foreign Origin, non-JSON POST (#15, 1).

In process through ``httpx.ASGITransport``, plus one request on a real socket with the exact
headers of the report.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from agentd.config import HttpChannelSettings
from agentd.engine.runtime import Runtime
from agentd.metrics import Metrics
from channels.http.api import build_app
from channels.http.origin import BrowserPolicy, host_name
from tests.support.http_channel import HELLO, JSON, api_error, in_process, serving
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio

FOREIGN = "http://attacker.example"
WRITE = Reply(tool_calls=[("write_file", {"path": "pwned.txt", "content": "owned"})])
DRIVE_BY = json.dumps({**HELLO, "user": "victim"}).encode()


def _script_write_file(stub_llm: StubLLM) -> None:
    stub_llm.add(WRITE, Reply(text="done"))


async def test_the_stub_would_write_the_file(
    stub_runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """Control: a proper JSON request with the same script does create the file."""
    _script_write_file(stub_llm)
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", content=DRIVE_BY, headers=JSON)
    assert reply.status_code == 200, reply.text
    assert (tmp_path / "pwned.txt").read_text() == "owned"


@pytest.mark.parametrize(
    "content_type",
    [
        pytest.param("text/plain", id="text-plain"),
        pytest.param("text/plain;charset=UTF-8", id="text-plain-charset"),
        pytest.param("application/x-www-form-urlencoded", id="form-urlencoded"),
        pytest.param("multipart/form-data; boundary=x", id="multipart"),
        pytest.param(None, id="none"),
    ],
)
@pytest.mark.parametrize(
    "origin", [pytest.param(FOREIGN, id="foreign"), pytest.param(None, id="no-origin")]
)
async def test_drive_by_post_is_refused_and_writes_nothing(
    stub_runtime: Runtime,
    stub_llm: StubLLM,
    tmp_path: Path,
    content_type: str | None,
    origin: str | None,
) -> None:
    """A simple (preflight-free) POST, as a web page can send it, never reaches the model."""
    _script_write_file(stub_llm)
    headers = {"Content-Type": content_type} if content_type is not None else {}
    if origin is not None:
        headers["Origin"] = origin
    async with in_process(stub_runtime) as http:
        reply = await http.post("/v1/chat/completions", content=DRIVE_BY, headers=headers)
    error = api_error(reply, 403 if origin is not None else 415)
    assert error["code"] == ("origin_not_allowed" if origin else "unsupported_media_type")
    assert "access-control-allow-origin" not in reply.headers
    assert stub_llm.requests == []
    assert not (tmp_path / "pwned.txt").exists()


async def test_the_reported_drive_by_on_a_socket(
    stub_runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """The exact request of the report, over TCP with a foreign Host too, is refused."""
    _script_write_file(stub_llm)
    async with serving(stub_runtime) as channel:
        assert channel.port is not None
        async with httpx.AsyncClient(base_url=channel.url, timeout=10) as http:
            for host in (f"127.0.0.1:{channel.port}", f"attacker.example:{channel.port}"):
                reply = await http.post(
                    "/v1/chat/completions",
                    content=DRIVE_BY,
                    headers={"Content-Type": "text/plain", "Origin": FOREIGN, "Host": host},
                )
                assert reply.status_code in (403, 421), reply.text
                assert set(reply.json()["error"]) == {"message", "type", "param", "code"}
    assert stub_llm.requests == []
    assert not (tmp_path / "pwned.txt").exists()


@pytest.mark.parametrize(
    ("method", "path"),
    [
        pytest.param("POST", "/v1/chat/completions", id="chat"),
        pytest.param("GET", "/v1/models", id="models"),
        pytest.param("GET", "/metrics", id="metrics"),
        pytest.param("GET", "/readyz", id="readyz"),
        pytest.param("GET", "/healthz", id="healthz"),
        pytest.param("GET", "/v1/nothing", id="unknown-path"),
    ],
)
@pytest.mark.parametrize(
    "host",
    [
        pytest.param("attacker.example:8321", id="rebinding"),
        pytest.param("attacker.example", id="no-port"),
        pytest.param("localhost.attacker.example", id="suffix"),
        pytest.param("127.0.0.1.attacker.example", id="ip-prefix"),
        pytest.param("192.168.1.20:8321", id="other-ip"),
        pytest.param("localhost:bad", id="bad-port"),
        pytest.param("[::1", id="unclosed-bracket"),
        pytest.param("", id="empty"),
    ],
)
async def test_foreign_host_is_421_everywhere(
    stub_runtime: Runtime, stub_llm: StubLLM, method: str, path: str, host: str
) -> None:
    """A Host that does not name this server (DNS rebinding) is refused on every route."""
    async with in_process(stub_runtime) as http:
        reply = await http.request(method, path, json=HELLO, headers={"Host": host})
    assert api_error(reply, 421)["code"] == "invalid_host"
    assert stub_llm.requests == []


@pytest.mark.parametrize(
    ("host", "settings"),
    [
        pytest.param("127.0.0.1:8321", {}, id="ipv4-loopback"),
        pytest.param("127.0.0.1", {}, id="ipv4-no-port"),
        pytest.param("127.5.6.7:1", {}, id="other-loopback"),
        pytest.param("localhost:8321", {}, id="localhost"),
        pytest.param("LocalHost", {}, id="localhost-case"),
        pytest.param("localhost.:8321", {}, id="localhost-dot"),
        pytest.param("[::1]:8321", {}, id="ipv6-loopback"),
        pytest.param("agent.lan:8321", {"allowed_hosts": ["agent.lan"]}, id="allowed-host"),
        pytest.param("Agent.LAN", {"allowed_hosts": ["agent.lan:443"]}, id="allowed-any-port"),
        pytest.param(
            "10.0.0.5:8321",
            {"host": "10.0.0.5", "tokens": ["t"]},
            id="bind-address",
        ),
    ],
)
async def test_hosts_naming_this_server_are_accepted(
    stub_runtime: Runtime, host: str, settings: dict[str, Any]
) -> None:
    """Loopback names, the bind address and configured hosts are accepted, any port."""
    config = HttpChannelSettings.model_validate(settings)
    auth = {"Authorization": "Bearer t"} if config.tokens else {}
    async with in_process(stub_runtime, config) as http:
        reply = await http.post("/v1/chat/completions", json=HELLO, headers={"Host": host, **auth})
        assert reply.status_code == 200, reply.text
        assert (await http.get("/readyz", headers={"Host": host})).status_code == 200


async def test_host_of_the_connection_is_accepted_on_a_wildcard_bind(
    stub_runtime: Runtime,
) -> None:
    """Bound to every address, the address a request arrived on names this server."""
    settings = HttpChannelSettings(host="0.0.0.0", tokens=["t"])  # type: ignore[list-item]
    app = build_app(stub_runtime, settings, metrics=Metrics())
    # ASGITransport says the connection arrived on the base URL's address.
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://192.168.1.10:8321"
    ) as http:
        auth = {"Authorization": "Bearer t"}
        assert (await http.get("/v1/models", headers=auth)).status_code == 200
        for other in ("192.168.1.20:8321", "0.0.0.0:8321"):
            refused = await http.get("/v1/models", headers={"Host": other, **auth})
            assert api_error(refused, 421)["code"] == "invalid_host"


async def test_missing_host_is_accepted_on_a_socket(stub_runtime: Runtime) -> None:
    """An HTTP/1.0 request without Host (no browser sends one) is served."""
    async with serving(stub_runtime) as channel:
        assert channel.port is not None
        port = channel.port

        def get() -> bytes:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(b"GET /v1/models HTTP/1.0\r\n\r\n")
                data = b""
                while piece := sock.recv(4096):
                    data += piece
                return data

        answer = await anyio.to_thread.run_sync(get)
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]


@pytest.mark.parametrize(
    "origin",
    [
        pytest.param(FOREIGN, id="foreign"),
        pytest.param("null", id="null"),
        pytest.param("http://127.0.0.1:9999", id="other-local-port"),
        pytest.param("http://localhost:8321.attacker.example", id="suffix"),
        pytest.param("file://", id="file"),
    ],
)
async def test_foreign_origin_is_403(stub_runtime: Runtime, origin: str) -> None:
    """An Origin that is not allowed (null included) is refused on GET and POST alike."""
    async with in_process(stub_runtime) as http:
        for reply in (
            await http.post("/v1/chat/completions", json=HELLO, headers={"Origin": origin}),
            await http.get("/v1/models", headers={"Origin": origin}),
            await http.get("/metrics", headers={"Origin": origin}),
        ):
            assert api_error(reply, 403)["code"] == "origin_not_allowed"
            assert "access-control-allow-origin" not in reply.headers
        # The probes skip the Origin check (they tell nothing a page could use).
        assert (await http.get("/healthz", headers={"Origin": origin})).status_code == 200


@pytest.mark.parametrize("path", ["/v1/models", "/readyz"])
async def test_two_origin_headers_are_400(stub_runtime: Runtime, path: str) -> None:
    """An allowed Origin followed by a foreign one is refused whole, not judged by the first."""
    allowed = "http://localhost:3000"
    settings = HttpChannelSettings(allowed_origins=[allowed])
    async with in_process(stub_runtime, settings) as http:
        reply = await http.get(path, headers=[("Origin", allowed), ("Origin", FOREIGN)])
    assert api_error(reply, 400)["code"] == "invalid_origin"
    assert "access-control-allow-origin" not in reply.headers


async def test_allowed_origin_gets_cors_headers(stub_runtime: Runtime) -> None:
    """An allowed origin is served, with Access-Control-Allow-Origin naming it."""
    origin = "http://localhost:3000"
    settings = HttpChannelSettings(allowed_origins=[origin])
    async with in_process(stub_runtime, settings) as http:
        reply = await http.post("/v1/chat/completions", json=HELLO, headers={"Origin": origin})
        assert reply.status_code == 200
        assert reply.headers["access-control-allow-origin"] == origin
        assert "Origin" in reply.headers["vary"]
        # Its errors are readable too, and a JSON content type is still required.
        refused = await http.post(
            "/v1/chat/completions",
            content=DRIVE_BY,
            headers={"Origin": origin, "Content-Type": "text/plain"},
        )
        assert api_error(refused, 415)["code"] == "unsupported_media_type"
        assert refused.headers["access-control-allow-origin"] == origin


async def test_same_origin_is_allowed(stub_runtime: Runtime) -> None:
    """A page served by this server itself (Origin = its Host) may call it."""
    async with in_process(stub_runtime) as http:
        reply = await http.post(
            "/v1/chat/completions", json=HELLO, headers={"Origin": "http://127.0.0.1:8321"}
        )
    assert reply.status_code == 200


async def test_preflight_is_answered_only_for_allowed_origins(stub_runtime: Runtime) -> None:
    """A CORS preflight from an allowed origin is 204 with the methods and headers; else 403."""
    allowed = "https://ui.example"
    settings = HttpChannelSettings(allowed_origins=[allowed])
    ask = {
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
    }
    async with in_process(stub_runtime, settings) as http:
        ok = await http.options("/v1/chat/completions", headers={"Origin": allowed, **ask})
        assert ok.status_code == 204
        assert ok.headers["access-control-allow-origin"] == allowed
        assert "Origin" in ok.headers["vary"]
        assert "POST" in ok.headers["access-control-allow-methods"]
        wanted = {"authorization", "content-type", "x-session-id", "idempotency-key"}
        offered = ok.headers["access-control-allow-headers"].lower().split(", ")
        assert wanted <= set(offered)
        foreign = await http.options("/v1/chat/completions", headers={"Origin": FOREIGN, **ask})
        assert api_error(foreign, 403)["code"] == "origin_not_allowed"
        assert "access-control-allow-origin" not in foreign.headers


@pytest.mark.parametrize(
    "content_type",
    [
        pytest.param("application/json", id="plain"),
        pytest.param("application/json; charset=utf-8", id="charset"),
        pytest.param("Application/JSON;charset=UTF-8", id="case"),
    ],
)
async def test_json_content_types_are_accepted(stub_runtime: Runtime, content_type: str) -> None:
    """application/json with or without parameters is accepted."""
    async with in_process(stub_runtime) as http:
        reply = await http.post(
            "/v1/chat/completions",
            content=json.dumps(HELLO).encode(),
            headers={"Content-Type": content_type},
        )
    assert reply.status_code == 200


@pytest.mark.parametrize(
    ("value", "name"),
    [
        pytest.param("LOCALHOST:80", "localhost", id="name-port"),
        pytest.param("[::1]:8321", "::1", id="ipv6"),
        pytest.param("[0:0:0:0:0:0:0:1]", "::1", id="ipv6-long"),
        pytest.param("[::ffff:127.0.0.1]", "127.0.0.1", id="ipv4-mapped"),
        pytest.param("host.", "host", id="trailing-dot"),
        pytest.param("a:b:c", None, id="bare-ipv6-like"),
        pytest.param("host:", None, id="empty-port"),
        pytest.param("[nothost]", None, id="bracketed-name"),
        pytest.param(":80", None, id="no-name"),
        pytest.param("localhost:65535", "localhost", id="highest-port"),
        pytest.param("localhost:99999", None, id="port-too-large"),
        pytest.param("localhost:0", None, id="port-zero"),
        pytest.param("[::1]:70000", None, id="ipv6-port-too-large"),
        pytest.param("localhost:\uff18\uff10", None, id="non-ascii-digits"),
    ],
)
def test_host_name(value: str, name: str | None) -> None:
    """Host headers are reduced to a canonical name without port, or refused when malformed."""
    assert host_name(value) == name


def test_policy_names_the_bind_address_unless_wildcard() -> None:
    """The bind address joins the accepted names, except 0.0.0.0 and ::."""
    assert (
        "10.1.2.3"
        in BrowserPolicy.build(bind_host="10.1.2.3", allowed_hosts=[], allowed_origins=[]).hosts
    )
    assert (
        "fd00::1"
        in BrowserPolicy.build(bind_host="fd00::1", allowed_hosts=[], allowed_origins=[]).hosts
    )
    for wildcard in ("0.0.0.0", "::", "[::]"):
        policy = BrowserPolicy.build(bind_host=wildcard, allowed_hosts=[], allowed_origins=[])
        assert policy.hosts == {"localhost"}


@pytest.mark.parametrize(
    "origin",
    [
        pytest.param("*", id="star"),
        pytest.param("null", id="null"),
        pytest.param("localhost:3000", id="no-scheme"),
        pytest.param("http://ui.example/app", id="path"),
    ],
)
def test_allowed_origins_must_be_origins(origin: str) -> None:
    """channels.http.allowed_origins takes scheme://host[:port] only (no wildcard, no null)."""
    with pytest.raises(ValueError, match="is not an origin"):
        HttpChannelSettings(allowed_origins=[origin])


@pytest.mark.parametrize(
    ("method", "path", "headers", "status"),
    [
        pytest.param("GET", "/v1/nothing", {}, 404, id="unknown-path"),
        pytest.param("GET", "/v1/chat/completions", {}, 405, id="wrong-method"),
        pytest.param("OPTIONS", "/v1/models", {}, 405, id="options-not-preflight"),
        pytest.param("POST", "/v1/chat/completions", {"Content-Type": "text/plain"}, 415, id="415"),
        pytest.param("GET", "/v1/models", {"Host": "attacker.example"}, 421, id="421"),
        pytest.param("GET", "/v1/models", {"Origin": FOREIGN}, 403, id="403"),
    ],
)
async def test_refusals_are_in_the_openai_error_shape(
    stub_runtime: Runtime, method: str, path: str, headers: dict[str, str], status: int
) -> None:
    """Errors of the app itself, not only of the handlers, carry the OpenAI error object."""
    async with in_process(stub_runtime) as http:
        reply = await http.request(method, path, content=b"{}", headers=headers)
    assert reply.headers["content-type"] == "application/json"
    error = api_error(reply, status)
    assert error["message"]
