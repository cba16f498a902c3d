"""The two ends of a running turn: the runtime's emitter and the channel's reader.

They meet at a bounded memory object stream. The emitter never makes the model wait for the
reader: text deltas that find the buffer full are merged into the next one. Only the last item
(the answer, or the failure) waits for room, and by then the turn holds no limiter slot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from agentd.engine.loop import TurnDone, TurnEvent, TurnResult
from agentd.errors import ShuttingDown
from agentd.model.client import TextDelta

#: Events buffered between a turn and its reader; beyond it, text deltas are merged.
EVENT_BUFFER = 64


@dataclass(slots=True)
class Failed:
    """The turn failed with ``error``; the reader raises it."""

    error: Exception


Item = TextDelta | TurnDone | Failed


class Turn:
    """The reader's side of a running turn: its events, ending with one :class:`TurnDone`.

    A failure of the turn is raised from the iteration, as the exception the turn met.
    """

    def __init__(self, receive: MemoryObjectReceiveStream[Item]) -> None:
        self._receive = receive
        self._ended = False
        #: An item taken by :meth:`buffered_text` that was not text: the next one read.
        self._held: Item | None = None

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> TurnEvent:
        if self._ended:
            raise StopAsyncIteration
        item, self._held = self._held, None
        if item is None:
            try:
                item = await self._receive.receive()
            except anyio.EndOfStream:
                # The runtime stopped the turn (shutdown) before it could answer.
                self._ended = True
                raise ShuttingDown() from None
        if isinstance(item, Failed):
            self._ended = True
            raise item.error
        self._ended = isinstance(item, TurnDone)
        return item

    @property
    def waiting(self) -> bool:
        """Whether the next item is there already (reading it does not wait)."""
        if self._held is not None:
            return True
        return self._receive.statistics().current_buffer_used > 0

    def buffered_text(self) -> str:
        """The text of the deltas already waiting, taken without waiting (a reader sends them
        in one write with the delta it holds); the first other item stays next."""
        parts: list[str] = []
        while self._held is None and not self._ended:
            try:
                item = self._receive.receive_nowait()
            except (anyio.WouldBlock, anyio.EndOfStream):
                break
            if isinstance(item, TextDelta):
                parts.append(item.text)
            else:
                self._held = item
        return "".join(parts)

    async def result(self) -> TurnResult:
        """Read the turn to its end and return its result."""
        result: TurnResult | None = None
        async for event in self:
            if isinstance(event, TurnDone):
                result = event.result
        assert result is not None, "a turn ends with TurnDone or raises"
        return result


class Emitter:
    """Sends a turn's events to its reader without ever waiting for it while the model works."""

    def __init__(self, send: MemoryObjectSendStream[Item]) -> None:
        self._send = send
        self._pending = ""
        self._gone = False

    async def delta(self, text: str) -> None:
        if self._gone:
            return
        self._pending += text
        try:
            self._send.send_nowait(TextDelta(self._pending))
        except anyio.WouldBlock:
            return  # merged into the next delta
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            self._gone = True
        self._pending = ""

    async def finish(self, item: TurnDone | Failed) -> None:
        """Send what is left and the last item, waiting for the reader if it must."""
        if self._gone:
            return
        try:
            if self._pending:
                await self._send.send(TextDelta(self._pending))
                self._pending = ""
            await self._send.send(item)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            self._gone = True
