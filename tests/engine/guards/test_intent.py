"""The intent planner: the model decides whether the request asks for an action."""

from __future__ import annotations

import pytest

from agentd.engine.asking import Asker
from agentd.engine.guards.intent import ACTION, INTENT_EXAMPLES, INTENT_SYSTEM, QUESTION, Intent
from tests.engine.guards.conftest import ACTING, LOOKING, make_plan, make_state
from tests.support.fake_model import FakeModel

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "request_text",
    [
        pytest.param("Translate 'good morning' into Spanish.", id="en"),
        pytest.param("Übersetze 'guten Morgen' ins Französische.", id="de"),
        pytest.param("「おはよう」を英語に訳してください。", id="ja"),
    ],
)
async def test_a_question_is_offered_only_the_tools_that_look(request_text: str) -> None:
    """Found a question (in any language), the step offers no tool that acts."""
    model = FakeModel()
    model.choices.append(QUESTION)
    state = make_state(request_text)
    plan = make_plan(state)
    await Intent(Asker(model)).plan(state, plan)
    assert state.may_act is False
    assert plan.names == frozenset(LOOKING)
    [asked] = model.asked
    assert asked[0].content == INTENT_SYSTEM and request_text in asked[-1].content
    assert len(asked) == 2 + 2 * len(INTENT_EXAMPLES)  # the rules, worked examples, request
    assert model.options == [(ACTION, QUESTION)]
    assert state.fired == [("intent", QUESTION)] and state.requests.used == 1


async def test_an_action_keeps_every_tool() -> None:
    """Found an action, every tool stays on offer."""
    model = FakeModel()
    model.choices.append(ACTION)
    state = make_state("Recuerda que mi color favorito es el verde.")
    plan = make_plan(state)
    await Intent(Asker(model)).plan(state, plan)
    assert state.may_act is True and plan.names == frozenset((*LOOKING, *ACTING))


async def test_a_later_step_of_a_question_stays_without_acting_tools() -> None:
    """The decision holds for the whole turn: a later step asks nothing and acts nothing."""
    model = FakeModel()
    state = make_state("What is in notes.md?", step=2)
    state.may_act = False
    plan = make_plan(state)
    await Intent(Asker(model)).plan(state, plan)
    assert model.asked == [] and plan.names == frozenset(LOOKING)


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        pytest.param({"client": ("mul",)}, "client-led", id="client"),
        pytest.param({"tools": LOOKING}, "nothing acts", id="looking-only"),
        pytest.param({"requests": 1}, "no spare request", id="budget"),
        pytest.param({"step": 2}, "not the first step", id="later"),
    ],
)
async def test_it_does_not_ask_when_there_is_nothing_to_decide(
    kwargs: dict[str, object], why: str
) -> None:
    """No question when the caller leads, no tool acts, no request is spare, or later."""
    model = FakeModel()
    model.choices.append(QUESTION)
    state = make_state("Write hi to a.txt", **kwargs)  # type: ignore[arg-type]
    plan = make_plan(state)
    before = set(plan.names)
    await Intent(Asker(model)).plan(state, plan)
    assert model.asked == [], why
    assert state.may_act is None and set(plan.names) == before


async def test_no_answer_leaves_the_tools() -> None:
    """When the model cannot say, nothing is taken away."""
    model = FakeModel()
    model.choices.append(None)
    state = make_state("Write hi to a.txt")
    plan = make_plan(state)
    await Intent(Asker(model)).plan(state, plan)
    assert state.may_act is None and plan.names == state.names
