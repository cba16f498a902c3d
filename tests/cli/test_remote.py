"""The daemon client behind `agentd chat` and the `--remote` actions, through MockTransport."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from agentd.cli.remote import DaemonClient
from agentd.cli.remote_option import remote_failure
from agentd.config import HttpChannelSettings, daemon_url
from agentd.errors import DaemonError, DaemonUnavailable

pytestmark = pytest.mark.anyio

Handler = Callable[[httpx.Request], httpx.Response]


async def _collect(handler: Handler, token: str | None = "t") -> list[str]:
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        client = DaemonClient(http, "http://daemon", token=token)
        return [piece async for piece in client.chat("s1", "hi")]


def _sse(*lines: str) -> httpx.Response:
    body = "".join(f"{line}\n\n" for line in lines)
    return httpx.Response(200, text=body, headers={"content-type": "text/event-stream"})


async def test_streams_pieces_with_session_and_token() -> None:
    """Deltas are yielded in order; the session and bearer token travel as headers."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return _sse(
            ": comment",
            'data: {"choices":[{"delta":{"role":"assistant","content":""}}]}',
            'data: {"choices":[{"delta":{"content":"he"}}]}',
            'data: {"choices":[{"delta":{"content":"llo"}}]}',
            'data: {"choices":[],"usage":{"prompt_tokens":1}}',
            "data: [DONE]",
        )

    assert await _collect(handler) == ["he", "llo"]
    assert seen[0].headers["x-session-id"] == "s1"
    assert seen[0].headers["authorization"] == "Bearer t"


async def test_reads_events_through_the_shared_parser() -> None:
    """Events without the space after data: and split over lines are read like any other."""
    body = 'data:{"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"choices":\ndata: []}\n\n'
    response = httpx.Response(200, text=body, headers={"content-type": "text/event-stream"})
    assert await _collect(lambda request: response) == ["a"]


@pytest.mark.parametrize(
    ("response", "message"),
    [
        pytest.param(
            httpx.Response(401, json={"error": {"message": "missing or invalid bearer token"}}),
            "missing or invalid bearer token",
            id="status-with-openai-error",
        ),
        pytest.param(httpx.Response(502, text="Bad Gateway"), "Bad Gateway", id="status-text"),
        pytest.param(
            _sse(
                'data: {"choices":[{"delta":{"content":"a"}}]}',
                'data: {"error":{"message":"model failed"}}',
            ),
            "model failed",
            id="error-event",
        ),
        pytest.param(_sse('data: {"error":"overloaded"}'), "overloaded", id="error-string"),
        pytest.param(_sse("data: <html>"), "not JSON", id="not-json"),
        pytest.param(_sse("data: [1, 2]"), "not an object", id="not-an-object"),
    ],
)
async def test_errors_become_daemon_errors(response: httpx.Response, message: str) -> None:
    """HTTP errors and error events in the stream raise DaemonError with the daemon's words."""
    with pytest.raises(DaemonError, match=message):
        await _collect(lambda request: response)


async def test_nothing_listening_is_unavailable() -> None:
    """A refused connection is DaemonUnavailable, saying how to start the daemon."""

    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    with pytest.raises(DaemonUnavailable, match="agentd run"):
        await _collect(handler, token=None)


async def _call(handler: Handler, path: str, **params: str) -> dict[str, object]:
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        client = DaemonClient(http, "http://daemon/", token="t")
        return await client.call("GET", path, params=params)


async def test_call_sends_the_token_and_params_and_reads_json() -> None:
    """call() sends the bearer token and the query, and returns the JSON object answered."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"object": "list", "data": []})

    assert await _call(handler, "/v1/sessions", tenant="bob") == {"object": "list", "data": []}
    assert str(seen[0].url) == "http://daemon/v1/sessions?tenant=bob"
    assert seen[0].headers["authorization"] == "Bearer t"


@pytest.mark.parametrize(
    ("response", "message"),
    [
        pytest.param(
            httpx.Response(403, json={"error": {"message": "for admin principals only"}}),
            "for admin principals only",
            id="openai-error",
        ),
        pytest.param(httpx.Response(200, json=[1]), "did not answer a JSON object", id="a-list"),
        pytest.param(httpx.Response(200, text="<html>"), "did not answer a JSON", id="not-json"),
    ],
)
async def test_call_errors_are_daemon_errors(response: httpx.Response, message: str) -> None:
    """An error status or an answer that is no JSON object raises DaemonError saying so."""
    with pytest.raises(DaemonError, match=message) as caught:
        await _call(lambda request: response, "/v1/tenants")
    assert caught.value.status_code == (403 if response.status_code == 403 else None)


async def test_call_with_nothing_listening_is_unavailable() -> None:
    """A refused connection on call() is DaemonUnavailable, suggesting to drop --remote."""

    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    with pytest.raises(DaemonUnavailable, match="drop --remote"):
        await _call(handler, "/v1/sessions")


@pytest.mark.parametrize(
    ("host", "url"),
    [
        pytest.param("127.0.0.1", "http://127.0.0.1:8321", id="loopback"),
        pytest.param("0.0.0.0", "http://127.0.0.1:8321", id="all-ipv4"),
        pytest.param("::1", "http://[::1]:8321", id="ipv6"),
    ],
)
def test_daemon_url_from_settings(host: str, url: str) -> None:
    """The client reaches a daemon bound to every address through loopback."""
    assert daemon_url(HttpChannelSettings(host=host)) == url


@pytest.mark.parametrize(
    ("exc", "status", "said"),
    [
        pytest.param(DaemonUnavailable("no daemon at x"), 69, "agentd: no daemon at x", id="down"),
        pytest.param(DaemonError("403 admin_only"), 1, "the daemon refused: 403", id="refused"),
        pytest.param(KeyError("data"), 1, "the daemon's answer is malformed", id="malformed"),
    ],
)
def test_remote_failure_says_why_and_picks_the_status(
    exc: Exception, status: int, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A failed call to the daemon prints one line saying why and exits 69 or 1."""
    assert remote_failure(exc) == status
    assert said in capsys.readouterr().err
