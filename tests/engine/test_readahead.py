"""A long prompt read ahead in pieces (:mod:`agentd.engine.readahead`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from agentd.engine.readahead import prefixes, read_ahead
from agentd.errors import LLMError
from agentd.messages import Message, ToolCall, assistant, system, tool_result, user
from agentd.model.usage import Usage

pytestmark = pytest.mark.anyio


def _text(messages: Sequence[Message]) -> str:
    return "".join(m.content for m in messages)


def _is_prefix(piece: Sequence[Message], whole: Sequence[Message]) -> bool:
    """All of ``piece`` but its last message as in ``whole``, and that one's text a prefix."""
    *before, last = piece
    counterpart = whole[len(before)]
    return (
        list(before) == list(whole[: len(before)])
        and last.role == counterpart.role
        and counterpart.content.startswith(last.content)
    )


def test_one_long_message_is_read_in_pieces_of_the_size_given() -> None:
    whole = [system("rules"), user("a" * 1000)]
    pieces = prefixes(whole, 300)
    assert [len(p[-1].content) for p in pieces] == [295, 595, 895]
    assert all(_is_prefix(p, whole) for p in pieces)


def test_a_prompt_within_one_piece_has_no_pieces() -> None:
    assert prefixes([system("rules"), user("short")], 300) == []
    assert prefixes([], 300) == []


def test_pieces_end_every_piece_size_across_messages() -> None:
    whole = [system("s" * 50), user("u" * 200), assistant("a" * 200), user("v" * 200)]
    pieces = prefixes(whole, 150)
    assert [len(_text(p)) for p in pieces] == [150, 300, 450, 600]
    assert all(_is_prefix(p, whole) for p in pieces)
    assert all(len(_text(p)) < len(_text(whole)) for p in pieces)


def test_a_system_message_is_cut_only_without_tools() -> None:
    """Templates render the tools after the system message's text: with tools, a piece ends
    after it, not inside it."""
    whole = [system("s" * 1000), user("u" * 100)]
    assert prefixes(whole, 300, tools=True) == [whole[:1]]
    assert [len(p[-1].content) for p in prefixes(whole, 300)] == [300, 600, 900]


def test_a_message_with_tool_calls_is_never_cut() -> None:
    call = ToolCall(id="c1", name="read_file", arguments='{"path": "a"}')
    whole = [
        system("s"),
        assistant("x" * 500, [call]),
        tool_result(call, "r" * 100),
        user("q"),
    ]
    pieces = prefixes(whole, 200)
    assert pieces == [whole[:2]]
    assert pieces[0][-1].tool_calls == (call,)


def test_a_piece_ends_at_a_message_boundary_when_that_is_where_it_falls() -> None:
    whole = [system("s"), user("u" * 299), assistant("a" * 10)]
    assert prefixes(whole, 300) == [whole[:2]]


def test_the_piece_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        prefixes([user("x")], 0)


class _Server:
    """Records what it was asked to read; refuses the request numbered ``refuse``."""

    def __init__(self, refuse: int | None = None) -> None:
        self.read: list[list[Message]] = []
        self.refuse = refuse

    async def __call__(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None
    ) -> Usage:
        if len(self.read) == self.refuse:
            raise LLMError("refused")
        self.read.append(list(messages))
        return Usage(prompt_tokens=len(_text(messages)), evaluated_tokens=100)


async def test_read_ahead_reads_each_piece_once_told_to_go_on() -> None:
    whole = [system("s"), user("u" * 1000)]
    server, asked = _Server(), []

    async def go_on() -> bool:
        asked.append(len(server.read))
        return True

    read = await read_ahead(server, whole, None, go_on, 300)
    assert server.read == prefixes(whole, 300) and len(server.read) == 3
    # Asked before each piece and once more before the request itself.
    assert asked == [0, 1, 2, 3]
    assert read.done and read.pieces == 3 and read.usage.evaluated_tokens == 300


async def test_read_ahead_stops_when_told_to() -> None:
    whole = [system("s"), user("u" * 1000)]
    server, answers = _Server(), iter([True, False])

    async def go_on() -> bool:
        return next(answers)

    read = await read_ahead(server, whole, None, go_on, 300)
    assert len(server.read) == 1 and read.pieces == 1 and not read.done


async def test_a_refused_piece_ends_the_reading_but_not_the_request() -> None:
    whole = [system("s"), user("u" * 1000)]
    server = _Server(refuse=1)

    async def go_on() -> bool:
        return True

    read = await read_ahead(server, whole, None, go_on, 300)
    assert len(server.read) == 1 and read.pieces == 1 and read.done
