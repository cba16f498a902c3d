"""The HTTP channel: the OpenAI-compatible API served by uvicorn inside the daemon's task group.

``serve`` binds the socket itself (so a busy port is an ordinary ``OSError`` and port 0 reports
the port it got), runs uvicorn on it without uvicorn's signal handlers (the daemon owns the
signals), reports ready once uvicorn accepts connections, and on cancellation stops it through
its own API: no new connections, in-flight requests get ``shutdown_timeout`` seconds, then they
are cancelled. The API itself is :mod:`channels.http.api`; what bounds connections and
requests is :mod:`channels.http.connections` and :mod:`channels.http.capacity`.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Self

import anyio
import structlog
import uvicorn
from anyio.abc import TaskStatus

from agentd.config import HttpChannelSettings, daemon_url
from agentd.metrics import Metrics
from channels.http.api import Readiness, build_app
from channels.http.capacity import Outermost
from channels.http.connections import BoundedConfig, ConnectionPool, raise_fd_limit
from channels.http.guard import check_exposure
from channels.http.sessions_api import ListTenants

if TYPE_CHECKING:
    from agentd.engine.runtime import Runtime
    from agentd.memory.longterm import MemoryStore
    from channels.http.console import ConsoleParts

__all__ = ["HttpChannel", "Readiness"]

log = structlog.get_logger("channels.http")

NO_TOKEN_WARNING = (
    "channels.http.no_token_on_loopback is set: every local user and process, and any web "
    "page a local browser opens that reaches it, can drive the agent"
)


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
        token_file: Path | None = None,
        tenants: ListTenants | None = None,
        console: ConsoleParts | None = None,
        memory: MemoryStore | None = None,
    ) -> None:
        check_exposure(settings)
        self.console = console
        self.memory = memory
        self.settings = settings
        self.metrics = metrics
        self.readiness = readiness
        self.shutdown_timeout = shutdown_timeout
        self.token_file = token_file
        self.tenants = tenants
        self.port: int | None = None
        self.pool: ConnectionPool | None = None

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

    def _log_serving(self) -> None:
        if self.settings.no_token_on_loopback and not self.settings.authenticated:
            log.warning("http.serving", url=self.url, auth=False, warning=NO_TOKEN_WARNING)
        elif self.token_file is not None:
            # The path, never the token: logs are read by more people than the state dir.
            log.info(
                "http.serving",
                url=self.url,
                auth=True,
                bearer_file=str(self.token_file),
                example=f'curl -H "Authorization: Bearer $(cat {self.token_file})" '
                f"{self.url}/v1/models",
            )
        else:
            log.info("http.serving", url=self.url, auth=self.settings.authenticated)

    async def serve(
        self, runtime: Runtime, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED
    ) -> None:
        """Serve until cancelled; ready (``task_status.started()``) once accepting."""
        # The web console (channels.http.console), unless channels.http.console is false.
        console = self.console if self.settings.console else None
        samples = None
        if console is not None:
            from channels.http.console import MinuteSamples

            self.metrics = self.metrics or Metrics()
            samples = MinuteSamples(self.metrics)
        app = build_app(
            runtime,
            self.settings,
            metrics=self.metrics,
            readiness=self.readiness,
            tenants=self.tenants,
            console=console,
            samples=samples,
            memory=self.memory,
        )
        settings = self.settings
        self.pool = ConnectionPool(raise_fd_limit(settings.max_connections))
        sock = _bind(settings.host, settings.port)
        self.port = sock.getsockname()[1]
        config = BoundedConfig(
            Outermost(app, max_in_flight=settings.max_in_flight),
            pool=self.pool,
            header_timeout=settings.header_timeout,
            lifespan="off",
            log_config=None,
            access_log=False,
            ws="none",
            timeout_graceful_shutdown=max(1, round(self.shutdown_timeout)),
            timeout_keep_alive=settings.keep_alive_timeout,
            server_header=False,
            # The client address is the socket's peer: a local process could otherwise pick
            # the address the auth-failure limiter counts by with an X-Forwarded-For header.
            proxy_headers=False,
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
            if samples is not None:
                tg.start_soon(samples.run)
            await server.accepting.wait()
            if stopped.is_set():
                raise RuntimeError("the HTTP server stopped while starting")
            self._log_serving()
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
