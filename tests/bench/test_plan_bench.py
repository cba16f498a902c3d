"""The plan probe's scoring: which plans give each turn what it needs."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from agentd.engine.guards import intent, shown
from agentd.messages import Message
from bench._agentic_cases import Case
from bench._agentic_cases.script import EXEC, FILES, SAVE, Kind, Script, act, chat, look
from bench.plan import LOOKING, Tools, _written_out, decided, right


def _unplayed(rng: random.Random) -> Script:
    raise AssertionError("the scoring never plays a case")


def case(kind: Kind) -> Case:
    return Case(f"probe_{kind}", kind, "en", _unplayed)


def test_an_action_needs_a_tool_it_asks_for() -> None:
    say = act("Remember my locker is 1900.", SAVE)
    assert right(case("action"), say, ("memory_save",))
    assert not right(case("action"), say, ("write_file",)) and not right(case("action"), say, ())


def test_a_command_needs_exec_and_a_redo_the_command_after_the_change() -> None:
    count = act("Count the lines of a.txt with wc.", EXEC)
    assert right(case("command"), count, ("exec",))
    assert not right(case("command"), count, ("read_file",))
    redo = act("Count, add a line, count again.", FILES | EXEC | {"read_file"})
    assert right(case("redo"), redo, ("exec", "append_file", "exec"))
    assert right(case("redo"), redo, ("append_file", "read_file"))
    assert not right(case("redo"), redo, ("exec", "append_file"))


def test_a_turn_that_asks_no_action_plans_none() -> None:
    """Tools that look are fine; one that acts is not."""
    assert right(case("info"), look("What is in a.txt?"), ("read_file",))
    assert not right(case("no-tool"), chat("12 times 7?"), ("exec",))
    assert right(case("no-tool"), chat("12 times 7?"), ())


def test_the_engine_keeps_a_planned_command_only_for_an_action() -> None:
    """What the engine follows: exec leaves a plan unless the intent word is action or a
    look-up (then it runs read-only: it changes nothing); of a plan of two kinds, the kind
    the word names stays."""
    kinds = {"exec": "command", "write_file": "file", "memory_save": "memory"}
    tools = Tools([], frozenset(kinds), kinds)
    summary = ("read_file", "exec")
    assert decided(summary, "answer", tools) == (("read_file",), LOOKING)
    assert decided(summary, "action", tools) == (summary, LOOKING)
    assert decided(summary, "lookup", tools) == (summary, LOOKING | {"exec"})
    assert decided(("write_file",), "lookup", tools) == (("write_file",), LOOKING)  # not asked
    both = ("write_file", "memory_save")
    assert decided(both, "write", tools)[0] == ("write_file",)
    assert decided(both, "action", tools)[0] == both
    past = case("past-summary"), look("Summarise a.txt.")
    assert not right(*past, summary)
    assert right(*past, *decided(summary, "?", tools))
    assert right(*past, *decided(summary, "lookup", tools))


class _Shown:
    """A client that answers the shown question with ``answer`` and records what it asked."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.asked: list[str] = []

    async def choose(self, messages: Sequence[Message], options: Sequence[str]) -> str:
        self.asked.append(messages[0].content)
        return self.answer


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("planned", "word", "answer", "out", "asks"),
    [
        (("exec",), intent.ACTION, shown.YES, True, True),
        (("read_file", "exec"), intent.LOOKUP, shown.YES, True, True),
        (("exec",), intent.ACTION, shown.NO, False, True),
        (("exec",), intent.ANSWER, shown.YES, False, False),
        (("write_file",), intent.ACTION, shown.YES, False, False),
    ],
)
async def test_the_probe_asks_the_shown_question_as_the_engine_does(
    planned: tuple[str, ...], word: str, answer: str, out: bool, asks: bool
) -> None:
    client = _Shown(answer)
    assert await _written_out(client, "Which command? Just show it.", planned, word) is out  # type: ignore[arg-type]
    assert client.asked == ([shown.SHOWN_HEAD] if asks else [])
