"""One turn answered over HTTP: a JSON completion, or an SSE stream of chunks.

The turn runs as a task of the runtime; the response reads its events in the request's own task,
beside a watcher of the connection. When the client goes away the response stops reading and the
runtime cancels the turn at once (history stays consistent), and a client that stops reading for
``send_timeout`` is treated the same way. The runtime never waits for this reader while the model
works, so a slow client holds no slot that other turns need.
Nothing is sent before the first event of the turn, so a model server that is down is answered
with a real HTTP status rather than an error inside a stream that already said 200.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from typing import Any

import anyio
import anyio.lowlevel
import structlog
from starlette.responses import Response
from starlette.types import Message as AsgiMessage
from starlette.types import Receive, Scope, Send

from agentd.engine.loop import TurnDone, TurnEvent
from agentd.engine.turn import Turn
from agentd.errors import (
    LLMError,
    LLMStatusError,
    LLMUnavailable,
    QuotaExceeded,
    RetryConflict,
    ShuttingDown,
    ToolResultMismatch,
)
from agentd.messages import ToolCall
from agentd.model.client import TextDelta, Usage
from channels.http.idempotency import retry_error
from channels.http.wire import DONE, ApiError, Reply

log = structlog.get_logger("channels.http")


def llm_error(exc: LLMError) -> ApiError:
    """The HTTP face of a model-server failure: 503 when unreachable, 502 otherwise."""
    if isinstance(exc, LLMUnavailable):
        return ApiError(
            503,
            f"the model server is unavailable: {exc}",
            type="server_error",
            code="model_unavailable",
        )
    code = "model_error" if isinstance(exc, LLMStatusError) else "model_bad_response"
    return ApiError(502, f"the model server failed: {exc}", type="server_error", code=code)


def quota_error(exc: QuotaExceeded) -> ApiError:
    """The HTTP face of a tenant over its quota: 429 with Retry-After (whole seconds)."""
    return ApiError(
        429,
        str(exc),
        type="rate_limit_error",
        code="tenant_quota_exceeded",
        headers={"Retry-After": str(max(1, math.ceil(exc.retry_after)))},
    )


def _json_bytes(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


class TurnResponse(Response):
    """Starts a runtime turn with ``open_turn`` and answers with its events; see the module
    docstring."""

    def __init__(
        self,
        open_turn: Callable[[], AbstractAsyncContextManager[Turn]],
        reply: Reply,
        *,
        stream: bool,
        include_usage: bool,
        send_timeout: float,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.open_turn = open_turn
        self.reply = reply
        self.stream = stream
        self.include_usage = include_usage
        self.send_timeout = send_timeout
        self.extra_headers = [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
        self.status_code = 200
        self.disconnected = False
        self._sent_all = False
        self._scope: anyio.CancelScope | None = None
        self.on_finish: Callable[[int], None] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async with anyio.create_task_group() as tg:
            self._scope = tg.cancel_scope
            tg.start_soon(self._watch, receive, tg.cancel_scope)
            try:
                async with AsyncExitStack() as stack:
                    try:
                        events = await stack.enter_async_context(self.open_turn())
                    except Exception as exc:  # shutting down: no turn started
                        await self._fail(send, exc)
                        return
                    if self.stream:
                        await self._stream(send, events)
                    else:
                        await self._complete(send, events)
            finally:
                tg.cancel_scope.cancel()
        if self.disconnected:
            log.info("http.client_gone", stream=self.stream)
        if self.on_finish is not None:
            self.on_finish(499 if self.disconnected else self.status_code)

    async def _watch(self, receive: Receive, scope: anyio.CancelScope) -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                # The server also says "disconnect" once the response is complete.
                self.disconnected = not self._sent_all
                scope.cancel()
                return

    async def _send(self, send: Send, message: AsgiMessage) -> None:
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            self._sent_all = True
        try:
            with anyio.fail_after(self.send_timeout):
                await send(message)
        except TimeoutError:
            # A client that stops reading holds a session and a turn slot: let it go.
            self.disconnected = True
            assert self._scope is not None
            self._scope.cancel()
            await anyio.lowlevel.checkpoint()

    async def _start(self, send: Send, status: int, content_type: bytes) -> None:
        self.status_code = status
        headers = [(b"content-type", content_type), *self.extra_headers]
        if content_type.startswith(b"text/event-stream"):
            headers += [(b"cache-control", b"no-cache"), (b"x-accel-buffering", b"no")]
        await self._send(
            send, {"type": "http.response.start", "status": status, "headers": headers}
        )

    async def _whole(
        self, send: Send, status: int, body: dict[str, Any], headers: dict[str, str] | None = None
    ) -> None:
        raw = _json_bytes(body)
        self.status_code = status
        head = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(raw)).encode()),
            *self.extra_headers,
            *((k.lower().encode(), v.encode()) for k, v in (headers or {}).items()),
        ]
        await self._send(send, {"type": "http.response.start", "status": status, "headers": head})
        await self._send(send, {"type": "http.response.body", "body": raw, "more_body": False})

    async def _fail(self, send: Send, exc: Exception) -> None:
        error = self._as_api_error(exc)
        await self._whole(send, error.status, error.body(), error.headers)

    @staticmethod
    def _as_api_error(exc: Exception) -> ApiError:
        if isinstance(exc, ApiError):
            return exc
        if isinstance(exc, LLMError):
            return llm_error(exc)
        if isinstance(exc, RetryConflict):
            return retry_error(exc)
        if isinstance(exc, QuotaExceeded):
            return quota_error(exc)
        if isinstance(exc, ToolResultMismatch):
            return ApiError(400, str(exc), param="messages", code="invalid_tool_results")
        if isinstance(exc, ShuttingDown):
            return ApiError(
                503,
                str(exc),
                type="server_error",
                code="shutting_down",
                headers={"Retry-After": "5"},
            )
        log.exception("http.turn_failed")
        return ApiError(500, "the turn failed inside agentd; see its log", type="server_error")

    async def _complete(self, send: Send, events: Turn) -> None:
        done: TurnDone | None = None
        try:
            async for event in events:
                if isinstance(event, TurnDone):
                    done = event
        except Exception as exc:
            await self._fail(send, exc)
            return
        assert done is not None
        result = done.result
        body = self.reply.completion(
            result.message.content, result.usage, result.message.tool_calls
        )
        await self._whole(send, 200, body)

    async def _stream(self, send: Send, events: Turn) -> None:
        try:
            first = await anext(events)
        except Exception as exc:
            await self._fail(send, exc)
            return
        await self._start(send, 200, b"text/event-stream; charset=utf-8")
        usage_too = self.include_usage
        # What is ready goes out in one write: the role chunk with the first text, the deltas
        # already waiting with the one read, the last text with the end when that is there too.
        out = self.reply.chunk({"role": "assistant", "content": ""}, with_usage=usage_too)
        usage = Usage()
        calls: tuple[ToolCall, ...] = ()
        event: TurnEvent | None = first
        try:
            while event is not None:
                if isinstance(event, TextDelta):
                    text = event.text + events.buffered_text()
                    if text:
                        out += self.reply.chunk({"content": text}, with_usage=usage_too)
                    if out and not events.waiting:
                        await self._body(send, out)
                        out = b""
                else:  # the end: it goes out with what is left
                    usage = event.result.usage
                    calls = event.result.message.tool_calls
                event = await anext(events, None)
        except Exception as exc:
            error = self._as_api_error(exc)
            failure = b"data: " + _json_bytes(error.body()) + b"\n\n"
            await self._body(send, out + failure + DONE, more=False)
            return
        # The end: the calls, the finish, the usage and [DONE].
        tail = [out]
        if calls:
            tail.append(self.reply.tool_call_chunks(calls, with_usage=usage_too))
        finish = "tool_calls" if calls else "stop"
        tail.append(self.reply.chunk({}, finish, with_usage=usage_too))
        if usage_too:
            tail.append(self.reply.usage_chunk(usage))
        tail.append(DONE)
        await self._body(send, b"".join(tail), more=False)

    async def _body(self, send: Send, data: bytes, *, more: bool = True) -> None:
        await self._send(send, {"type": "http.response.body", "body": data, "more_body": more})
