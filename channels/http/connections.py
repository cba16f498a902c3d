"""Bounded connections: idle and slow sockets can never take the API down.

uvicorn's ``limit_concurrency`` counts open sockets, and a socket that never sends a byte stays
open for ever, so a thousand idle connections made every request, ``/healthz`` included, answer
503. :class:`BoundedH11Protocol` is uvicorn's h11 protocol with three changes:

- a connection must send a request's complete headers within ``header_timeout`` seconds of
  opening (or, between keep-alive requests, of its first byte), else it is closed: no
  slowloris;
- the open connections are capped by ``max_connections``, and a new one beyond the cap closes
  the one that has been idle longest (no request in flight), so a fresh client is always
  served however many idle sockets others hold;
- a malformed request gets its 400 in the OpenAI error shape;
- a reply leaves in one write, not its head and its body apart (:mod:`channels.http.coalesce`).

Requests in flight are bounded apart, by :class:`channels.http.capacity.Outermost`.
"""

from __future__ import annotations

import asyncio
import resource
from collections import OrderedDict
from typing import Any

import h11
import structlog
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from channels.http.capacity import bad_request
from channels.http.coalesce import CoalescingTransport

__all__ = ["BoundedConfig", "BoundedH11Protocol", "ConnectionPool", "raise_fd_limit"]

log = structlog.get_logger("channels.http")

#: File descriptors kept for everything but client connections (stores, the model client...).
FD_RESERVE = 128
#: The most the soft RLIMIT_NOFILE is raised to, however high the hard limit.
FD_CEILING = 65_536


class ConnectionPool:
    """The open connections of one server, the idle ones in least-recently-used order."""

    __slots__ = ("_idle", "_open", "evicted", "max_connections")

    def __init__(self, max_connections: int) -> None:
        self.max_connections = max_connections
        self._open: set[BoundedH11Protocol] = set()
        self._idle: OrderedDict[BoundedH11Protocol, None] = OrderedDict()
        self.evicted = 0

    def __len__(self) -> int:
        return len(self._open)

    @property
    def idle(self) -> int:
        """Open connections with no request in flight."""
        return len(self._idle)

    def opened(self, conn: BoundedH11Protocol) -> None:
        """Count a new (idle) connection; beyond the cap, close the longest idle ones."""
        self._open.add(conn)
        self._idle[conn] = None
        while len(self._open) > self.max_connections and self._idle:
            victim, _ = self._idle.popitem(last=False)
            self._open.discard(victim)
            self.evicted += 1
            victim.evict()

    def mark_idle(self, conn: BoundedH11Protocol) -> None:
        """``conn`` has no request in flight and was just used: the last to be evicted."""
        if conn in self._open:
            self._idle[conn] = None
            self._idle.move_to_end(conn)

    def mark_busy(self, conn: BoundedH11Protocol) -> None:
        """``conn`` has a request in flight: never evicted."""
        self._idle.pop(conn, None)

    def closed(self, conn: BoundedH11Protocol) -> None:
        self._open.discard(conn)
        self._idle.pop(conn, None)


class BoundedConfig(uvicorn.Config):
    """uvicorn's config with what :class:`BoundedH11Protocol` needs, shared by its connections."""

    def __init__(
        self, app: Any, *, pool: ConnectionPool, header_timeout: float, **kwargs: Any
    ) -> None:
        super().__init__(app, http=BoundedH11Protocol, **kwargs)
        self.pool = pool
        self.header_timeout = header_timeout


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header timeout and idle eviction (module docstring)."""

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if not isinstance(config, BoundedConfig):
            raise TypeError("BoundedH11Protocol needs a BoundedConfig")
        self._pool = config.pool
        self._header_timeout = config.header_timeout
        self._header_timer: asyncio.TimerHandle | None = None

    def _busy(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _arm_header_timer(self) -> None:
        self._header_timer = self.loop.call_later(self._header_timeout, self._headers_late)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if not self._busy():
            self.transport.close()

    def _sync(self) -> None:
        """Tell the pool whether a request is in flight; a started request needs no timer."""
        if self.transport.is_closing():
            return
        if self._busy():
            self._cancel_header_timer()
            self._pool.mark_busy(self)
        else:
            self._pool.mark_idle(self)

    def evict(self) -> None:
        """Close this idle connection to make room for a new one."""
        self._cancel_header_timer()
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        # A reply's head and body leave in one write (channels.http.coalesce).
        self._coalescing = CoalescingTransport(transport, self.loop)
        super().connection_made(self._coalescing)
        self._arm_header_timer()
        self._pool.opened(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        self._pool.closed(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        # The first bytes of the next request on a kept-alive connection start its clock.
        if self._header_timer is None and not self._busy():
            self._arm_header_timer()
        super().data_received(data)
        self._sync()

    def on_response_complete(self) -> None:
        self._coalescing.flush()  # the whole reply is written: it need not wait for the step
        super().on_response_complete()
        # A pipelined request may have started here; otherwise the keep-alive timer runs.
        self._sync()

    def send_400_response(self, msg: str) -> None:
        headers, body = bad_request(msg)
        try:
            for event in (
                h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                h11.Data(data=body),
                h11.EndOfMessage(),
            ):
                self.transport.write(self.conn.send(event) or b"")
        except h11.LocalProtocolError:
            # A response had started already: only closing is left.
            pass
        self.transport.close()


def raise_fd_limit(max_connections: int) -> int:
    """Raise the soft RLIMIT_NOFILE to the hard one (at most :data:`FD_CEILING`).

    Every connection is a file descriptor and the usual soft limit (1,024) is below what
    ``max_connections`` needs. Returns the connections the limit allows, keeping
    :data:`FD_RESERVE` descriptors for everything else.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FD_CEILING if hard == resource.RLIM_INFINITY else min(hard, FD_CEILING)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError) as exc:
            log.warning("http.fd_limit_unchanged", soft=soft, hard=hard, error=str(exc))
        else:
            log.info("http.fd_limit_raised", soft=wanted, was=soft, hard=hard)
            soft = wanted
    if soft == resource.RLIM_INFINITY or soft - FD_RESERVE >= max_connections:
        return max_connections
    allowed = max(1, soft - FD_RESERVE)
    log.warning(
        "http.max_connections_lowered",
        max_connections=max_connections,
        allowed=allowed,
        fd_limit=soft,
        hint="raise the hard limit (LimitNOFILE= in the systemd unit, ulimit -Hn)",
    )
    return allowed
