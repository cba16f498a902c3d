"""The one SSE parser: data payloads of events, comments and other fields ignored, [DONE] ends."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from agentd.sse import DONE, sse_batches, sse_data

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


async def batches_of(*chunks: bytes) -> list[list[str]]:
    async def pieces() -> AsyncIterator[bytes]:
        for chunk in chunks:
            yield chunk

    return [batch async for batch in sse_batches(pieces())]


async def test_bytes_give_a_batch_per_piece_received() -> None:
    """Every event a piece of bytes completes comes back in one list, in order."""
    assert await batches_of(b"data: a\n\ndata: b\n\ndata: c", b"\n\n") == [["a", "b"], ["c"]]


@pytest.mark.parametrize(
    "split",
    [
        pytest.param(b"data: a\r\n\r\ndata: b\rdata: c\r\r: ping\n\ndata: [DONE]\n\n", id="whole"),
        pytest.param(
            b"data: a\r|\n\r|\ndata: b\r|data: c\r\r|: ping\n\ndata: [DONE]\n\n", id="crlf"
        ),
        pytest.param(
            b"da|ta: a\r\n\r\nd|ata: b\rdata: c|\r\r: pi|ng\n\ndata: [DO|NE]\n\n", id="mid"
        ),
    ],
)
async def test_bytes_split_anywhere_parse_as_lines_do(split: bytes) -> None:
    """However the bytes are cut (a CRLF across two pieces too), the payloads are the same as
    the lines' parse gives."""
    batches = await batches_of(*split.split(b"|"))
    assert [data for batch in batches for data in batch] == ["a", "b\nc"]


async def test_bytes_cut_inside_a_character() -> None:
    """A UTF-8 character cut between two pieces is put together again."""
    raw = "data: grüße 日本\n\n".encode()
    cut = raw.index("日".encode()) + 1
    assert await batches_of(raw[:cut], raw[cut:]) == [["grüße 日本"]]


async def test_bytes_stop_at_done_and_keep_an_unterminated_last_event() -> None:
    """Nothing after [DONE] is yielded; a stream that ends without a blank line keeps its
    last event."""
    assert await batches_of(b"data: a\n\ndata: [DONE]\n\ndata: after\n\n") == [["a"]]
    assert await batches_of(b"data: a\n\ndata: b") == [["a"], ["b"]]
