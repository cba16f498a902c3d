"""The one SSE parser: data payloads of events, comments and other fields ignored, [DONE] ends."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from agentd.sse import DONE, sse_data

pytestmark = pytest.mark.anyio


async def lines_of(*lines: str) -> AsyncIterator[str]:
    for line in lines:
        yield line


async def parse(*lines: str) -> list[str]:
    return [data async for data in sse_data(lines_of(*lines))]


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        pytest.param(("data: a", "", "data: b", ""), ["a", "b"], id="two-events"),
        pytest.param(("data: a", "data: b", ""), ["a\nb"], id="multi-line-joined"),
        pytest.param(("data:tight", ""), ["tight"], id="no-space"),
        pytest.param(("data:  two", ""), [" two"], id="only-one-space-removed"),
        pytest.param(("data", "data: x", ""), ["\nx"], id="bare-field-is-empty-line"),
        pytest.param((": keep-alive", "", "data: a", ""), ["a"], id="comment"),
        pytest.param(
            ("event: message", "id: 7", "retry: 10", "data: a", ""), ["a"], id="other-fields"
        ),
        pytest.param(("datum: a", "", "data: b", ""), ["b"], id="unknown-field"),
        pytest.param(("", "", "data: a", "", ""), ["a"], id="extra-blank-lines"),
        pytest.param(("data: a", "", "data: b"), ["a", "b"], id="last-event-unterminated"),
        pytest.param(("data: {", 'data: "x": 1}', ""), ['{\n"x": 1}'], id="json-split"),
    ],
)
async def test_data_payloads(lines: tuple[str, ...], expected: list[str]) -> None:
    """Each event's data lines become one payload joined with newlines; the rest is ignored."""
    assert await parse(*lines) == expected


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(("data: a", "", f"data: {DONE}", "", "data: after", ""), id="terminated"),
        pytest.param(("data: a", "", f"data: {DONE}"), id="unterminated"),
    ],
)
async def test_done_ends_the_stream(lines: tuple[str, ...]) -> None:
    """data: [DONE] is never yielded and nothing after it is read."""
    assert await parse(*lines) == ["a"]


async def test_done_inside_other_data_is_data() -> None:
    """[DONE] only ends the stream as a whole payload, not as one line of a larger one."""
    assert await parse("data: [DONE]", "data: more", "") == ["[DONE]\nmore"]


async def test_reads_an_httpx_response() -> None:
    """Fed by httpx's aiter_lines, CRLF and CR line ends work like LF."""
    body = b"data: a\r\n\r\ndata: b\rdata: c\r\r: ping\n\ndata: [DONE]\n\n"
    response = httpx.Response(200, content=body)
    assert [data async for data in sse_data(response.aiter_lines())] == ["a", "b\nc"]
