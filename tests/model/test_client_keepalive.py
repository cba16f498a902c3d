"""The LLM client's streamed calls over a real loopback socket keep their connection."""

from __future__ import annotations

import json

import anyio
import httpx
import pytest
from anyio.abc import SocketStream

from agentd.messages import user
from agentd.model.client import Completed, LLMClient, TextDelta

pytestmark = pytest.mark.anyio


def _chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def _stream_body(done_then: bytes = b"") -> bytes:
    """A streamed answer as llama-server writes it: chunked SSE events, ``[DONE]``, the end."""
    events = [
        {"choices": [{"index": 0, "delta": {"content": "Hello"}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ]
    body = b"".join(_chunk(b"data: " + json.dumps(e).encode() + b"\n\n") for e in events)
    return body + _chunk(b"data: [DONE]\n\n") + done_then + b"0\r\n\r\n"


class SseServer:
    """Answers every POST with a chunked SSE stream, keep-alive; counts the connections."""

    def __init__(self, after_done: bytes = b"") -> None:
        self.connections = 0
        self.after_done = after_done

    async def handle(self, stream: SocketStream) -> None:
        self.connections += 1
        buffer = b""
        async with stream:
            while True:
                while b"\r\n\r\n" not in buffer:
                    try:
                        buffer += await stream.receive()
                    except (anyio.EndOfStream, anyio.BrokenResourceError):
                        return
                head, _, buffer = buffer.partition(b"\r\n\r\n")
                length = next(
                    int(line.split(b":", 1)[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
                while len(buffer) < length:
                    buffer += await stream.receive()
                buffer = buffer[length:]
                await stream.send(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                    b"Transfer-Encoding: chunked\r\n\r\n" + _stream_body(self.after_done)
                )


async def _answers(client: LLMClient, times: int) -> list[str]:
    texts = []
    for _ in range(times):
        shown = ""
        async for event in client.stream([user("hi")]):
            if isinstance(event, TextDelta):
                shown += event.text
            else:
                assert isinstance(event, Completed)
        texts.append(shown)
    return texts


@pytest.mark.parametrize(
    "after_done",
    [
        pytest.param(b"", id="ends-at-done"),
        pytest.param(_chunk(b": a comment after the end\n\n"), id="a-comment-after-done"),
    ],
)
async def test_streamed_calls_reuse_one_connection(after_done: bytes) -> None:
    """Three streamed calls in a row go over one connection: the end after [DONE] is read."""
    server = SseServer(after_done)
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
    port = listener.extra(anyio.abc.SocketAttribute.local_port)
    async with listener, anyio.create_task_group() as tg:
        tg.start_soon(listener.serve, server.handle)
        async with httpx.AsyncClient() as http:
            client = LLMClient(http, base_url=f"http://127.0.0.1:{port}", model="m")
            assert await _answers(client, 3) == ["Hello"] * 3
        tg.cancel_scope.cancel()
    assert server.connections == 1


async def test_a_server_talking_past_done_is_cut_off() -> None:
    """A server that goes on sending after [DONE] does not hold the call: it ends, answered."""
    endless = b"".join(_chunk(b": more\n\n") for _ in range(50))
    server = SseServer(endless)
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
    port = listener.extra(anyio.abc.SocketAttribute.local_port)
    async with listener, anyio.create_task_group() as tg:
        tg.start_soon(listener.serve, server.handle)
        async with httpx.AsyncClient() as http:
            client = LLMClient(http, base_url=f"http://127.0.0.1:{port}", model="m")
            assert await _answers(client, 2) == ["Hello"] * 2
        tg.cancel_scope.cancel()
    assert server.connections == 2
