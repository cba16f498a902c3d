"""Server-sent events, read as the OpenAI-style streams both of agentd's clients receive.

The LLM client reads a model server's stream and ``agentd chat`` reads the daemon's; both go
through :func:`sse_data`. It takes lines (``httpx.Response.aiter_lines()`` splits them on any of
``\\r\\n``, ``\\r``, ``\\n``) and yields the ``data`` of each event: multi-line data joined with
``\\n``, comments (``:...``) and the other fields (``event``, ``id``, ``retry``) ignored. The
``data: [DONE]`` sentinel ends the stream here, in one place, so neither caller sees it; a stream
that simply ends is fine too, and its last event counts even without a closing blank line.

A leaf module: it imports nothing, so the CLI can use it without pulling in the model client.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterable

__all__ = ["DONE", "sse_data"]

DONE = "[DONE]"


async def sse_data(lines: AsyncIterable[str]) -> AsyncGenerator[str, None]:
    """The ``data`` payloads of the events in ``lines``, up to ``[DONE]`` or the end."""
    buffer: list[str] = []
    async for line in lines:
        if line:
            field, _, value = line.partition(":")
            if field == "data":
                buffer.append(value.removeprefix(" "))
            continue
        if buffer:
            data = "\n".join(buffer)
            buffer = []
            if data == DONE:
                return
            yield data
    if buffer and (data := "\n".join(buffer)) != DONE:
        yield data
