"""The HTTP channel for a test: in process through ``httpx.ASGITransport``, or on a socket.

Use :func:`in_process` for what the API answers (auth, validation, rate limits, probes): no
server starts. Use :func:`serving` for what needs a real connection (streaming, disconnects,
slow clients, connection limits, the server's own start and stop).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx

from agentd.config import HttpChannelSettings
from agentd.engine.runtime import Runtime
from agentd.memory.longterm import MemoryStore
from agentd.metrics import Metrics
from channels.http import HttpChannel, Readiness
from channels.http.api import build_app
from channels.http.sessions_api import ListTenants

# What the client sees as the server; nothing listens there.
IN_PROCESS_URL = "http://127.0.0.1:8321"
HELLO = {"messages": [{"role": "user", "content": "hello"}]}
# What a raw ``content=`` body needs to be read as JSON (``json=`` sets it).
JSON = {"Content-Type": "application/json"}


def api_error(response: httpx.Response, status: int) -> dict[str, Any]:
    """The OpenAI-shaped error of ``response``, after checking its status and shape."""
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    return error


async def still_serving(http: httpx.AsyncClient) -> None:
    """A plain completion still gets its answer."""
    reply = await http.post("/v1/chat/completions", json=HELLO)
    assert reply.status_code == 200
    assert reply.json()["choices"][0]["message"]["content"] == "echo: hello"


@asynccontextmanager
async def in_process(
    runtime: Runtime,
    settings: HttpChannelSettings | None = None,
    *,
    metrics: Metrics | None = None,
    readiness: Readiness | None = None,
    tenants: ListTenants | None = None,
    memory: MemoryStore | None = None,
) -> AsyncIterator[httpx.AsyncClient]:
    """A client whose requests go straight to the channel's ASGI app, with no socket."""
    app = build_app(
        runtime,
        settings or HttpChannelSettings(),
        metrics=metrics or Metrics(),
        readiness=readiness,
        tenants=tenants,
        memory=memory,
    )
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url=IN_PROCESS_URL, timeout=10
    ) as client:
        yield client


@asynccontextmanager
async def serving(
    runtime: Runtime, settings: HttpChannelSettings | None = None, **kwargs: Any
) -> AsyncIterator[HttpChannel]:
    """The channel serving ``runtime`` on a free loopback port; stopped on exit.

    ``channel.url`` is its base URL and ``channel.port`` the port it bound.
    """
    settings = (settings or HttpChannelSettings()).model_copy(
        update={"host": "127.0.0.1", "port": 0}
    )
    async with HttpChannel(settings, **kwargs) as channel, anyio.create_task_group() as tg:
        await tg.start(channel.serve, runtime)
        try:
            yield channel
        finally:
            tg.cancel_scope.cancel()
