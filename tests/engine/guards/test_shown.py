"""The shown question: a planned command that the user wants written out is not run."""

from __future__ import annotations

from typing import Any

import pytest

from agentd.engine.asking import Asker
from agentd.engine.guards import build
from agentd.engine.guards.intent import ACTION, ANSWER, INTENT_HEAD, LOOKUP, Intent
from agentd.engine.guards.shown import NO, SHOWN_EXAMPLES, SHOWN_HEAD, YES, Shown, prompt
from agentd.model import pinning
from tests.engine.guards.conftest import KINDS, LOOKING, SlotRecording, make_plan, make_state
from tests.support.fake_model import FakeModel

pytestmark = pytest.mark.anyio


async def planned(request: str, *choices: str | None, shown: bool = True):  # type: ignore[no-untyped-def]
    """The state, plan and model of a first step whose plan, intent and shown questions got
    ``choices`` in turn."""
    model = SlotRecording()
    model.choices.extend(choices)
    state = make_state(request, kinds=KINDS)
    plan = make_plan(state)
    rule = Intent(Asker(model), by_plan=True, shown=Shown(Asker(model)) if shown else None)
    with pinning.use(0, questions=lambda: 2, apart=3):
        await rule.plan(state, plan)
    return state, plan, model


@pytest.mark.parametrize(
    "request_text",
    [
        pytest.param("Which command would count the lines of a.txt? Just show it.", id="en"),
        pytest.param("Mit welchem Befehl zähle ich die Zeilen von a.txt? Nur zeigen.", id="de"),
        pytest.param("a.txtの行数を数えるコマンドを教えて。実行しないで。", id="ja"),
    ],
)
@pytest.mark.parametrize("word", [ACTION, LOOKUP])
async def test_a_command_to_be_written_out_is_not_run(request_text: str, word: str) -> None:
    """Planned as exec and confirmed (an action, or a look-up that would run it read-only), a
    request the shown question finds wants only the command gets words alone: no tool runs,
    the command is not among the tools that look."""
    state, plan, model = await planned(request_text, "exec", word, YES)
    assert model.asked[2][0].content == SHOWN_HEAD and request_text in model.asked[2][-1].content
    assert model.options[2] == (YES, NO)
    assert model.slots == [2, 3, 3]  # plan: the questions' slot; intent and shown: the quick one
    assert state.planned == () and state.words_only and state.may_act is False
    assert not plan.tools and "exec" not in state.looking
    assert ("shown", "written out") in state.fired and ("intent", ANSWER) in state.fired
    assert state.requests.used == 3


async def test_a_read_planned_beside_the_command_stays() -> None:
    """A plan that reads a file and runs a command keeps the read when the command is only
    to be written out: the turn is a look-up of the file."""
    state, plan, _ = await planned(
        "What command would sort votes.txt? Read it first, don't run anything.",
        "read_file, exec",
        ACTION,
        YES,
    )
    assert state.planned == ("read_file",) and state.may_act is False
    assert plan.names <= frozenset(LOOKING) and "exec" not in plan.names


@pytest.mark.parametrize("answer", [NO, None])
async def test_a_command_to_be_run_runs_as_planned(answer: str | None) -> None:
    """``no``, or no answer (the question failed, no spare request), leaves the plan as it
    was: the command runs."""
    state, plan, _ = await planned("Count the lines of a.txt with wc.", "exec", ACTION, answer)
    assert state.planned == ("exec",) and state.may_act is True and "exec" in plan.names
    assert not any(guard == "shown" for guard, _ in state.fired)


@pytest.mark.parametrize(
    ("choices", "asked"),
    [
        pytest.param(("exec", ANSWER), 2, id="the-intent-found-words"),
        pytest.param(("write_file",), 1, id="no-command-planned"),
        pytest.param(("exec, write_file", "write"), 2, id="the-intent-kept-the-file-tools"),
    ],
)
async def test_asked_only_when_a_planned_command_would_run(
    choices: tuple[str, ...], asked: int
) -> None:
    """No command planned, or one the intent question already left out: no third question."""
    _, _, model = await planned("Put hello in a.txt.", *choices)
    assert len(model.asked) == asked
    assert not any(m[0].content == SHOWN_HEAD for m in model.asked)


async def test_switched_off_the_question_is_not_asked() -> None:
    state, _, model = await planned(
        "Which command counts lines? Just show it.", "exec", ACTION, shown=False
    )
    assert len(model.asked) == 2 and model.asked[1][0].content.startswith(INTENT_HEAD)
    assert state.planned == ("exec",)


def test_the_prompt_is_the_rules_the_examples_and_the_request() -> None:
    messages = prompt("Which command counts lines? Just show it.")
    assert messages[0].content == SHOWN_HEAD
    assert len(messages) == 2 + 2 * len(SHOWN_EXAMPLES)
    assert {e[1] for e in SHOWN_EXAMPLES} == {YES, NO}
    assert "Which command counts lines? Just show it." in messages[-1].content


@pytest.mark.parametrize(
    ("switches", "asks"),
    [
        pytest.param({}, True, id="auto"),
        pytest.param({"shown": "off"}, False, id="off"),
        pytest.param({"plan": "off"}, False, id="without-the-plan"),
    ],
)
def test_build_gives_the_intent_rule_the_question(switches: dict[str, Any], asks: bool) -> None:
    """``default.guards.shown`` switches the question; it runs only with the plan rule."""
    guards = build(Asker(FakeModel()), switches, local=True)
    [rule] = [g for g in guards.planners if isinstance(g, Intent)]
    assert (rule.shown is not None) is asks and ("shown" in guards.names) is asks
