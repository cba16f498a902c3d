"""The reader's side of a turn: deltas already waiting are taken together, nothing is lost."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import anyio
import pytest

from agentd.engine.loop import TurnDone, TurnResult
from agentd.engine.turn import Failed, Item, Turn
from agentd.messages import assistant
from agentd.model.client import TextDelta

pytestmark = pytest.mark.anyio


@contextmanager
def turn_of(*items: Item) -> Iterator[Turn]:
    """A turn whose emitter already sent ``items`` and is still running."""
    send, receive = anyio.create_memory_object_stream[Item](16)
    with send, receive:
        for item in items:
            send.send_nowait(item)
        yield Turn(receive)


async def test_buffered_text_joins_waiting_deltas_and_keeps_the_end() -> None:
    """The deltas behind the one read come back joined; the answer is still read next."""
    done = TurnDone(TurnResult(assistant("abc")))
    with turn_of(TextDelta("a"), TextDelta("b"), TextDelta("c"), done) as turn:
        assert await anext(turn) == TextDelta("a")
        assert turn.buffered_text() == "bc"
        assert turn.buffered_text() == ""
        assert await anext(turn) is done
        with pytest.raises(StopAsyncIteration):
            await anext(turn)


async def test_buffered_text_is_empty_while_the_model_works() -> None:
    """With nothing waiting (the turn still running) it returns empty and loses nothing."""
    with turn_of(TextDelta("a"), TextDelta("b")) as turn:
        assert await anext(turn) == TextDelta("a")
        assert turn.buffered_text() == "b"
        assert turn.buffered_text() == ""
        with anyio.move_on_after(0.05) as waited:
            await anext(turn)  # the next delta is not there yet
        assert waited.cancelled_caught


async def test_a_failure_behind_the_deltas_is_raised_next() -> None:
    """A failure met while taking the waiting deltas is held and raised by the next read."""
    failed = Failed(RuntimeError("boom"))
    with turn_of(TextDelta("a"), TextDelta("b"), failed, TextDelta("x")) as turn:
        await anext(turn)
        assert turn.buffered_text() == "b"
        with pytest.raises(RuntimeError, match="boom"):
            await anext(turn)
        with pytest.raises(StopAsyncIteration):
            await anext(turn)


async def test_waiting_says_whether_the_next_read_is_there() -> None:
    """``waiting`` is true while an item is buffered or held, false once all are read."""
    done = TurnDone(TurnResult(assistant("a")))
    with turn_of(TextDelta("a"), done) as turn:
        assert turn.waiting
        await anext(turn)
        assert turn.buffered_text() == ""
        assert turn.waiting  # the answer, held
        assert await anext(turn) is done
        assert not turn.waiting
