"""The HTTP channel: the OpenAI-compatible API served by uvicorn inside the daemon's task group.

``serve`` binds the socket itself (so a busy port is an ordinary ``OSError`` and port 0 reports
the port it got), runs uvicorn on it without uvicorn's signal handlers (the daemon owns the
signals), reports ready once uvicorn accepts connections, and on cancellation stops it through
its own API: no new connections, in-flight requests get ``shutdown_timeout`` seconds, then they
are cancelled. The API itself is :mod:`channels.http.api`.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Self

import anyio
import structlog
import uvicorn
from anyio.abc import TaskStatus

from agentd.config import HttpChannelSettings, daemon_url
from agentd.metrics import Metrics
from channels.http.api import Readiness, build_app
from channels.http.guard import check_exposure

if TYPE_CHECKING:
    from agentd.engine.runtime import Runtime

__all__ = ["HttpChannel", "Readiness"]

log = structlog.get_logger("channels.http")


class _Server(uvicorn.Server):
    """uvicorn without its signal handlers, telling when it accepts connections."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.accepting = anyio.Event()

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.accepting.set()


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted sockets inherit it; without it Nagle and delayed ACKs add ~40 ms per reply.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(2048)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


class HttpChannel:
    """The ``http`` channel (see the module docstring)."""

    name = "http"

    def __init__(
        self,
        settings: HttpChannelSettings,
        *,
        metrics: Metrics | None = None,
        readiness: Readiness | None = None,
        shutdown_timeout: float = 10.0,
    ) -> None:
        check_exposure(settings)
        self.settings = settings
        self.metrics = metrics
        self.readiness = readiness
        self.shutdown_timeout = shutdown_timeout
        self.port: int | None = None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None

    @property
    def url(self) -> str:
        """The base URL clients on this machine use (loopback when bound to every address)."""
        return daemon_url(self.settings.model_copy(update={"port": self.port}))

    async def serve(
        self, runtime: Runtime, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED
    ) -> None:
        """Serve until cancelled; ready (``task_status.started()``) once accepting."""
        app = build_app(runtime, self.settings, metrics=self.metrics, readiness=self.readiness)
        sock = _bind(self.settings.host, self.settings.port)
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            app,
            lifespan="off",
            log_config=None,
            access_log=False,
            http="h11",
            ws="none",
            limit_concurrency=self.settings.max_connections,
            timeout_graceful_shutdown=max(1, round(self.shutdown_timeout)),
            timeout_keep_alive=15,
            server_header=False,
        )
        server = _Server(config)
        stopped = anyio.Event()
        # uvicorn stops through its own API, never by a cancellation from outside.
        shield = anyio.CancelScope(shield=True)

        async def run() -> None:
            try:
                with shield:
                    await server.serve(sockets=[sock])
            finally:
                server.accepting.set()
                stopped.set()
                sock.close()

        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await server.accepting.wait()
            if stopped.is_set():
                raise RuntimeError("the HTTP server stopped while starting")
            log.info("http.serving", url=self.url, auth=bool(self.settings.tokens))
            task_status.started()
            try:
                await stopped.wait()
                raise RuntimeError("the HTTP server stopped by itself")
            finally:
                server.should_exit = True
                with anyio.move_on_after(self.shutdown_timeout + 2, shield=True):
                    await stopped.wait()
                shield.cancel()
                log.info("http.stopped", url=self.url)
