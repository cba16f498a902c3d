"""Server-sent events, read as the OpenAI-style streams both of agentd's clients receive.

The LLM client reads a model server's stream and ``agentd chat`` reads the daemon's. Both yield
the ``data`` of each event: multi-line data joined with ``\\n``, comments (``:...``) and the
other fields (``event``, ``id``, ``retry``) ignored, lines ended by any of ``\\r\\n``, ``\\r``,
``\\n``. The ``data: [DONE]`` sentinel ends the stream here, in one place, so neither caller sees
it; a stream that simply ends is fine too, and its last event counts even without a closing
blank line. :func:`sse_data` takes lines (``httpx.Response.aiter_lines()``);
:func:`sse_batches` takes the response's bytes and yields, per piece received, the payloads it
completed: the model client's per-token loop then does not pass every line through a chain of
async generators.

A leaf module: it imports nothing of agentd, so the CLI can use it without pulling in the model
client.
"""

from __future__ import annotations

import codecs
from collections.abc import AsyncGenerator, AsyncIterable

__all__ = ["DONE", "SSEDecoder", "sse_batches", "sse_data"]

DONE = "[DONE]"


class SSEDecoder:
    """The events' rules, fed lines (:meth:`line`) or bytes (:meth:`feed`)."""

    def __init__(self) -> None:
        self._data: list[str] = []
        self._text = codecs.getincrementaldecoder("utf-8")("replace")
        #: The part of a line not ended yet.
        self._rest = ""
        #: The last piece ended with ``\r``: a ``\n`` that starts the next belongs to it.
        self._after_cr = False
        #: ``[DONE]`` was read: nothing after it counts.
        self.done = False

    def line(self, line: str) -> str | None:
        """One line (without its end); the payload of the event it ends, if any."""
        if self.done:
            return None
        if line:
            field, _, value = line.partition(":")
            if field == "data":
                self._data.append(value.removeprefix(" "))
            return None
        return self._dispatch()

    def feed(self, chunk: bytes) -> list[str]:
        """The payloads of the events the bytes ``chunk`` completes."""
        text = self._text.decode(chunk)
        if self._after_cr and text.startswith("\n"):
            text = text[1:]
        if text:
            self._after_cr = text.endswith("\r")
        text = self._rest + text
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        lines = text.split("\n")
        self._rest = lines.pop()
        out: list[str] = []
        for line in lines:
            data = self.line(line)
            if data is not None:
                out.append(data)
            if self.done:
                break
        return out

    def end(self) -> list[str]:
        """The stream ended: the payload of an event left without its blank line, if any."""
        rest = self._rest + self._text.decode(b"", final=True)
        self._rest = ""
        if rest:
            self.line(rest)
        data = self._dispatch()
        return [] if data is None else [data]

    def _dispatch(self) -> str | None:
        if not self._data or self.done:
            return None
        data = "\n".join(self._data)
        self._data = []
        if data == DONE:
            self.done = True
            return None
        return data


async def sse_data(lines: AsyncIterable[str]) -> AsyncGenerator[str, None]:
    """The ``data`` payloads of the events in ``lines``, up to ``[DONE]`` or the end."""
    decoder = SSEDecoder()
    async for line in lines:
        data = decoder.line(line)
        if data is not None:
            yield data
        if decoder.done:
            return
    for data in decoder.end():
        yield data


async def sse_batches(chunks: AsyncIterable[bytes]) -> AsyncGenerator[list[str], None]:
    """The payloads of the events in the bytes ``chunks``, a list per chunk that completed
    any, up to ``[DONE]`` or the end."""
    decoder = SSEDecoder()
    async for chunk in chunks:
        batch = decoder.feed(chunk)
        if batch:
            yield batch
        if decoder.done:
            return
    last = decoder.end()
    if last:
        yield last
