"""A reply leaves in one write: the writes of one loop step are sent together."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from uvicorn.server import ServerState

from channels.http.coalesce import CoalescingTransport
from channels.http.connections import BoundedConfig, BoundedH11Protocol, ConnectionPool

pytestmark = pytest.mark.anyio


class Recording(asyncio.Transport):
    """A transport that keeps each write as it was made."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: Any) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def get_write_buffer_size(self) -> int:
        return 0

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def _step() -> None:
    await asyncio.sleep(0)


async def test_writes_of_one_step_leave_as_one_at_its_end() -> None:
    raw = Recording()
    out = CoalescingTransport(raw, asyncio.get_running_loop())
    out.write(b"head ")
    out.write(b"")
    out.write(bytearray(b"body"))
    assert raw.writes == [] and out.get_write_buffer_size() == 9
    await _step()
    assert raw.writes == [b"head body"]
    out.write(b"chunk")
    await _step()
    assert raw.writes == [b"head body", b"chunk"]


async def test_flush_sends_at_once_and_close_sends_what_is_held_first() -> None:
    raw = Recording()
    out = CoalescingTransport(raw, asyncio.get_running_loop())
    out.write(b"a")
    out.flush()
    assert raw.writes == [b"a"]
    out.write(b"b")
    out.close()
    assert raw.writes == [b"a", b"b"] and raw.closed
    out.write(b"late")
    await _step()
    assert raw.writes == [b"a", b"b"]  # nothing is written once the connection is closing


async def test_a_whole_reply_leaves_in_one_write() -> None:
    """uvicorn writes the head and the body apart; the connection sends them as one."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        head = [(b"content-length", b"11")]
        await send({"type": "http.response.start", "status": 200, "headers": head})
        await send({"type": "http.response.body", "body": b'{"ok":true}'})

    config = BoundedConfig(
        app,
        pool=ConnectionPool(8),
        header_timeout=5.0,
        lifespan="off",
        log_config=None,  # as the channel runs it: uvicorn's own logging config stays out
        access_log=False,
    )
    raw = Recording()
    protocol = BoundedH11Protocol(config, ServerState(), {}, asyncio.get_running_loop())
    protocol.connection_made(raw)
    protocol.data_received(b"GET /x HTTP/1.1\r\nHost: localhost\r\n\r\n")
    for _ in range(5):
        await _step()
    assert len(raw.writes) == 1
    head, _, body = raw.writes[0].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200") and body == b'{"ok":true}'
    protocol.connection_lost(None)
