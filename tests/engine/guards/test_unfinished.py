"""The unfinished guard: an answer after a change, when the request asked for more."""

from __future__ import annotations

from typing import Any

import pytest

from agentd.engine.asking import Asker
from agentd.engine.guards.base import ACCEPT, Retry
from agentd.engine.guards.unfinished import NO, UNFINISHED_HEAD, YES, Unfinished
from agentd.engine.turnstate import TurnState
from agentd.messages import ToolCall, assistant, tool_result
from agentd.model import pinning
from tests.engine.guards.conftest import KINDS, make_plan, make_state
from tests.support.fake_model import FakeModel

pytestmark = pytest.mark.anyio

REQUEST = "Change mode=slow to mode=fast in app.cfg, then read the file again."


def ran(state: TurnState, name: str, arguments: str, result: str, *, error: bool = False) -> None:
    """Add a step that called ``name`` and its result to the turn."""
    call = ToolCall(f"c{len(state.added)}", name, arguments)
    messages = [assistant("", [call]), tool_result(call, result, error=error)]
    state.conversation.extend(messages)
    state.added.extend(messages)


def changed(request: str = REQUEST) -> TurnState:
    """A turn that read app.cfg and wrote it."""
    state = make_state(request, kinds=KINDS)
    ran(state, "read_file", '{"path": "app.cfg"}', "mode=slow")
    ran(state, "write_file", '{"path": "app.cfg", "content": "mode=fast"}', "wrote 9 characters")
    return state


async def test_yes_routes_one_more_step_without_the_kind_already_done() -> None:
    """After a change, "yes" (a part is not done) routes once more among the turn's tools,
    the acting ones of the file kind left out (the change is not made twice; the file may be
    read again); asked apart with the
    request and the calls in order, once a turn."""
    model = FakeModel()
    model.choices.append(YES)
    state = changed()
    guard = Unfinished(Asker(model))
    assert guard.holds(state, make_plan(state))
    verdict = await guard.judge(state, make_plan(state), assistant("Done."))
    assert isinstance(verdict, Retry) and verdict.next.route
    looking = {"read_file", "list_dir", "current_time"}
    assert verdict.next.tools == frozenset({*looking, "exec", "memory_save"})
    assert verdict.next.notes[0].content.startswith(UNFINISHED_HEAD)
    question = model.asked[0][1].content
    assert REQUEST in question
    assert question.index("read_file(") < question.index("write_file(")
    assert "wrote 9 characters" in question
    assert model.options == [(YES, NO)] and ("unfinished", YES) in state.fired
    assert not guard.holds(state, make_plan(state))
    assert await guard.judge(state, make_plan(state), assistant("Done.")) is ACCEPT


async def test_asked_apart_from_the_session_s_slot() -> None:
    """The question shares nothing with the session's prompt: it goes to the quick slot."""
    seen: list[int | None] = []

    class Model(FakeModel):
        async def choose(self, *args: Any, **kwargs: Any) -> str | None:
            seen.append(pinning.current())
            return NO

    state = changed()
    with pinning.use(0, lambda: 2, 3):
        await Unfinished(Asker(Model())).judge(state, make_plan(state), assistant("Done."))
    assert seen == [3]


async def test_no_lets_the_answer_stand() -> None:
    """A "no" keeps the answer; nothing else is asked."""
    model = FakeModel()
    model.choices.append(NO)
    state = changed()
    assert (
        await Unfinished(Asker(model)).judge(state, make_plan(state), assistant("Done.")) is ACCEPT
    )
    assert ("unfinished", NO) in state.fired and len(model.asked) == 1


@pytest.mark.parametrize(
    "setup",
    [
        pytest.param("read only", id="no-acting-call"),
        pytest.param("failed", id="acting-call-failed"),
        pytest.param("client", id="client-led"),
        pytest.param("budget", id="too-few-requests-left"),
    ],
)
async def test_stays_out(setup: str) -> None:
    """No question when nothing acted (or the change failed), when the caller leads with its
    own tools, or when the requests left cannot carry the question, a step and an answer."""
    model = FakeModel()
    model.choices.append(YES)
    client = ("lookup",) if setup == "client" else ()
    state = make_state(REQUEST, kinds=KINDS, client=client, requests=3 if setup == "budget" else 16)
    ran(state, "read_file", '{"path": "app.cfg"}', "mode=slow")
    if setup != "read only":
        failed = setup == "failed"
        ran(state, "write_file", '{"path": "app.cfg"}', "error: no", error=failed)
    assert (
        await Unfinished(Asker(model)).judge(state, make_plan(state), assistant("Done.")) is ACCEPT
    )
    assert model.asked == []


async def test_a_tool_of_no_kind_leaves_only_itself_out() -> None:
    """After a tool of no kind acted, the turn's other tools stay on offer."""
    model = FakeModel()
    model.choices.append(YES)
    state = make_state(REQUEST, tools=("read_file", "write_file", "deploy"), kinds=KINDS)
    ran(state, "deploy", "{}", "deployed")
    verdict = await Unfinished(Asker(model)).judge(state, make_plan(state), assistant("Done."))
    assert isinstance(verdict, Retry)
    assert verdict.next.tools == frozenset({"read_file", "write_file"})
