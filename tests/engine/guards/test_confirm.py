"""The confirm guard: a turn's first acting call runs only when the model says it was asked."""

from __future__ import annotations

from typing import Any

import pytest

from agentd.engine.asking import Asker
from agentd.engine.guards.base import ACCEPT, Retry
from agentd.engine.guards.confirm import CONFIRM_SYSTEM, NO, NOT_ASKED_HEAD, YES, Confirm
from agentd.messages import ToolCall, assistant, tool_result
from agentd.model import pinning
from agentd.model.choice import CallRule
from tests.engine.guards.conftest import KINDS, make_plan, make_state
from tests.support.fake_model import FakeModel

pytestmark = pytest.mark.anyio

REQUEST = "Which command would delete the .log files here? Only show it, do not run it."
WRITE = ToolCall("c1", "write_file", '{"path": ".log", "content": "rm *.log"}')
READ = ToolCall("c2", "read_file", '{"path": "a.txt"}')


async def test_no_drops_the_call_and_asks_for_words() -> None:
    """A "no" drops the step's calls and asks for the answer in words; the turn is a question
    from then on (no rule asks for an action again); asked apart with the request and the
    call, once a turn."""
    model = FakeModel()
    model.choices.append(NO)
    state = make_state(REQUEST, kinds=KINDS)
    state.may_act = True
    guard = Confirm(Asker(model))
    verdict = await guard.judge(state, make_plan(state), assistant("", [WRITE]))
    assert isinstance(verdict, Retry) and verdict.next.bare
    assert verdict.next.notes[0].content.startswith(NOT_ASKED_HEAD)
    assert state.may_act is False and ("confirm", NO) in state.fired
    asked = model.asked[0]
    assert asked[0].content == CONFIRM_SYSTEM
    assert REQUEST in asked[1].content and 'write_file({"path": ".log"' in asked[1].content
    assert model.options == [(YES, NO)]
    assert await guard.judge(state, make_plan(state), assistant("", [WRITE])) is ACCEPT
    assert len(model.asked) == 1


@pytest.mark.parametrize("word", [YES, None])
async def test_yes_or_unsure_lets_the_call_run(word: str | None) -> None:
    """A "yes" (or no answer from the model) lets the call run."""
    model = FakeModel()
    model.choices.append(word)
    state = make_state("Write rm *.log into cleanup.sh.", kinds=KINDS)
    assert (
        await Confirm(Asker(model)).judge(state, make_plan(state), assistant("", [WRITE])) is ACCEPT
    )
    assert state.may_act is None


async def test_a_routed_step_held_to_the_call_is_asked_about() -> None:
    """A step the route held to write_file (the engine's own rule, not the caller's) is
    still asked about."""
    model = FakeModel()
    model.choices.append(NO)
    state = make_state(REQUEST, kinds=KINDS)
    plan = make_plan(state)
    plan.rule = CallRule(name="write_file")
    assert isinstance(await Confirm(Asker(model)).judge(state, plan, assistant("", [WRITE])), Retry)


async def test_the_first_acting_call_is_asked_about_even_after_reads() -> None:
    """Reads run unasked; the question comes with the first call that acts, about it."""
    model = FakeModel()
    model.choices.append(YES)
    state = make_state(REQUEST, kinds=KINDS)
    guard = Confirm(Asker(model))
    assert await guard.judge(state, make_plan(state), assistant("", [READ])) is ACCEPT
    assert model.asked == []
    reply = assistant("", [READ, WRITE])
    assert await guard.judge(state, make_plan(state), reply) is ACCEPT
    assert "write_file(" in model.asked[0][1].content


@pytest.mark.parametrize("setup", ["client", "demanded", "acted"])
async def test_stays_out(setup: str) -> None:
    """No question when the caller leads with its own tools or demands a call, or when a
    tool that acts already ran in the turn."""
    model = FakeModel()
    model.choices.append(NO)
    client = ("lookup",) if setup == "client" else ()
    rule = CallRule(required=True) if setup == "demanded" else CallRule()
    state = make_state(REQUEST, kinds=KINDS, client=client, rule=rule)
    if setup == "acted":
        call = ToolCall("c0", "append_file", '{"path": "a.txt"}')
        messages = [assistant("", [call]), tool_result(call, "appended")]
        state.added.extend(messages)
    verdict = await Confirm(Asker(model)).judge(state, make_plan(state), assistant("", [WRITE]))
    assert verdict is ACCEPT and model.asked == []


async def test_asked_apart_from_the_session_s_slot() -> None:
    """The question shares nothing with the session's prompt: it goes to the quick slot."""
    seen: list[int | None] = []

    class Model(FakeModel):
        async def choose(self, *args: Any, **kwargs: Any) -> str | None:
            seen.append(pinning.current())
            return YES

    state = make_state(REQUEST, kinds=KINDS)
    with pinning.use(0, lambda: 2, 3):
        await Confirm(Asker(Model())).judge(state, make_plan(state), assistant("", [WRITE]))
    assert seen == [3]
