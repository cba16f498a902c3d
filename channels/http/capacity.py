"""What the server answers by itself, in the OpenAI error shape: capacity and crashes.

:class:`Outermost` wraps the API's ASGI app. It bounds the requests handled at once: a request
beyond ``max_in_flight`` gets 503 at once and its connection is closed, instead of queueing in
memory (the probes ``/healthz`` and ``/readyz`` always pass). It answers 500 when the app fails
before it started a response. So no client ever sees uvicorn's plain-text ``Service
Unavailable`` or ``Internal Server Error``. Idle connections are not requests: they are bounded
apart (:mod:`channels.http.connections`).
"""

from __future__ import annotations

import json

import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from channels.http.wire import error_body

__all__ = ["Outermost", "bad_request", "json_error"]

log = structlog.get_logger("channels.http")

#: Paths outside the in-flight bound: liveness and readiness probes.
PROBES = frozenset({"/healthz", "/readyz"})


def json_error(
    status: int, message: str, type: str, code: str
) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """Headers and body of an OpenAI-shaped error that closes its connection."""
    body = json.dumps(error_body(message, type, code=code)).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    return headers, body


async def _answer(send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


class Outermost:
    """The ASGI app uvicorn runs: ``app`` behind an in-flight bound and a last-resort 500."""

    __slots__ = ("_app", "_in_flight", "_max_in_flight")

    def __init__(self, app: ASGIApp, *, max_in_flight: int) -> None:
        self._app = app
        self._max_in_flight = max_in_flight
        self._in_flight = 0

    @property
    def in_flight(self) -> int:
        """Requests being handled now."""
        return self._in_flight

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        # Probes answer at once and must answer while the API is saturated.
        counted = scope["path"] not in PROBES
        if counted and self._in_flight >= self._max_in_flight:
            headers, body = json_error(
                503,
                f"agentd is handling {self._max_in_flight} requests already: retry shortly",
                "server_error",
                "over_capacity",
            )
            await _answer(send, 503, [*headers, (b"retry-after", b"1")], body)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = True
            await send(message)

        self._in_flight += counted
        try:
            await self._app(scope, receive, tracking_send)
        except Exception:
            if started:
                raise
            log.exception("http.app_failed", path=scope.get("path"))
            await _answer(send, 500, *json_error(500, _CRASHED, "server_error", "internal_error"))
            return
        finally:
            self._in_flight -= counted
        if not started:
            log.error("http.no_response", path=scope.get("path"))
            await _answer(send, 500, *json_error(500, _CRASHED, "server_error", "internal_error"))


_CRASHED = "agentd failed before it could answer; see its log"


def bad_request(message: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The 400 uvicorn sends for bytes that are not an HTTP request, in the OpenAI shape."""
    return json_error(
        400, f"invalid HTTP request: {message}", "invalid_request_error", "bad_http_request"
    )
