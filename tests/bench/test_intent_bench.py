"""The intent probe's scoring: what each turn needs and which words give it that."""

from __future__ import annotations

from agentd.engine.guards.intent import ACTION, ANSWER, LOOKUP
from bench._agentic_cases import CASES
from bench._agentic_cases.script import EXEC, FILES, SAVE, act, chat, look
from bench.intent import ACT, LOOK, REPLY, leads_to, need, report, right


def test_each_turn_needs_what_it_declares() -> None:
    """An action asks for tools, a look-up needs one, a chat needs none."""
    assert need(act("Write hi to a.txt", FILES)) == ACT
    assert need(look("What is in a.txt?")) == LOOK
    assert need(chat("Hello!")) == REPLY


def test_which_words_give_a_turn_what_it_needs() -> None:
    """Only "action" lets an action act; a look-up keeps its tools; a chat may look."""
    assert right(ACT, ACTION) and not right(ACT, LOOKUP) and not right(ACT, ANSWER)
    assert right(LOOK, LOOKUP) and not right(LOOK, ANSWER) and not right(LOOK, ACTION)
    assert right(REPLY, ANSWER) and right(REPLY, LOOKUP) and not right(REPLY, ACTION)


def test_a_kind_must_be_the_kind_of_a_tool_the_turn_asks_for() -> None:
    """ "remember" lets a save act, not a file write; a copy may be a file or a command."""
    assert right(ACT, "remember", SAVE) and not right(ACT, "write", SAVE)
    assert right(ACT, "write", FILES | EXEC) and right(ACT, ACTION, FILES | EXEC)
    assert not right(LOOK, "remember") and not right(REPLY, "write")


def test_what_each_word_leads_to() -> None:
    """Each word leads to its own offer; no word (the question failed) takes nothing away."""
    assert [leads_to(w) for w in (ACTION, LOOKUP, ANSWER)] == [ACTION, LOOKUP, ANSWER]
    assert leads_to("remember") == ACTION
    assert leads_to("?") == ACTION


def test_the_report_counts_per_half_and_language() -> None:
    """The table has a row per half and language seen, with the turns it got right."""
    case = next(c for c in CASES if c.language == "de")
    say = chat("Hallo!")
    text = report([(case, say, ANSWER, True), (case, say, ACTION, False)], {case.name: "dev"})
    assert "dev" in text and "1/2 (50%)" in text
