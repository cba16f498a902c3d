"""The outermost ASGI layer: the in-flight bound and the last-resort 500, in the OpenAI shape."""

from __future__ import annotations

import anyio
import httpx
import pytest
from starlette.types import Receive, Scope, Send

from channels.http.capacity import Outermost
from tests.channels.conftest import wait_until
from tests.support.http_channel import IN_PROCESS_URL, api_error

pytestmark = pytest.mark.anyio


async def _crash(scope: Scope, receive: Receive, send: Send) -> None:
    raise RuntimeError("boom")


async def _silent(scope: Scope, receive: Receive, send: Send) -> None:
    return None


async def _ok(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def _client(outer: Outermost) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=outer), base_url=IN_PROCESS_URL)


@pytest.mark.parametrize(
    "app", [pytest.param(_crash, id="raises"), pytest.param(_silent, id="no-response")]
)
async def test_an_app_that_fails_before_answering_gets_a_json_500(app: object) -> None:
    """An exception or a missing response becomes an OpenAI-shaped 500, not uvicorn's text."""
    outer = Outermost(app, max_in_flight=4)  # type: ignore[arg-type]
    async with _client(outer) as http:
        reply = await http.get("/v1/models")
    assert reply.headers["content-type"] == "application/json"
    assert api_error(reply, 500)["code"] == "internal_error"
    assert outer.in_flight == 0


async def test_in_flight_is_counted_and_released() -> None:
    """A request holds a slot while it runs; probes hold none; the slot is back afterwards."""
    release = anyio.Event()
    seen: list[int] = []
    outer: Outermost

    async def wait(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(outer.in_flight)
        if scope["path"] != "/healthz":
            await release.wait()
        await _ok(scope, receive, send)

    outer = Outermost(wait, max_in_flight=1)
    async with _client(outer) as http, anyio.create_task_group() as tg:
        tg.start_soon(http.get, "/v1/models")
        await wait_until(lambda: outer.in_flight)
        assert api_error(await http.get("/v1/models"), 503)["type"] == "server_error"
        assert (await http.get("/healthz")).status_code == 200
        release.set()
    assert seen == [1, 1]
    assert outer.in_flight == 0
