"""The read-first planner and policy: named files are read before anything else."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from agentd.engine.guards.base import StepRun
from agentd.engine.guards.read_first import READ_FIRST, ReadFirst
from agentd.engine.notes import CHANGE_HEAD, REMINDER_HEAD
from agentd.tools.registry import ToolOutcome
from tests.engine.guards.conftest import make_plan, make_state

pytestmark = pytest.mark.anyio


def mentions(*files: str) -> ReadFirst:
    async def named(request: str) -> Sequence[str]:
        return [f for f in files if f in request]

    return ReadFirst(named)


async def test_a_named_file_is_read_first_from_the_start() -> None:
    """A request naming a workdir file has the first step read it, from offset 0."""
    state = make_state("Fasse notes.md zusammen.")
    plan = make_plan(state)
    await mentions("notes.md").plan(state, plan)
    assert plan.route == READ_FIRST and plan.rule.name == "read_file" and plan.rule.single
    assert dict(plan.rule.values) == {"path": ("notes.md",)}
    assert plan.rule.given(plan.tools or ()) == {"path": "notes.md"}


async def test_the_read_s_other_arguments_are_held_to_their_defaults() -> None:
    """read_file's offset and length are held to the defaults its schema names (what the
    model wrote there every time): with one file named, the whole call is given."""
    state = make_state("Fasse notes.md zusammen.")
    plan = make_plan(state)
    props = {
        "path": {"type": "string"},
        "offset": {"type": "integer", "default": 0},
        "length": {"type": "integer", "default": 65536},
    }
    read = {"name": "read_file", "parameters": {"type": "object", "properties": props}}
    plan.tools = [{"type": "function", "function": read}]
    await mentions("notes.md").plan(state, plan)
    held = {"path": ("notes.md",), "offset": (0,), "length": (65536,)}
    assert dict(plan.rule.values) == held
    assert plan.rule.given(plan.tools) == {"path": "notes.md", "offset": 0, "length": 65536}
    both = make_state("Vergleiche notes.md und todo.md.")
    two = make_plan(both)
    two.tools = plan.tools
    await mentions("notes.md", "todo.md").plan(both, two)
    assert two.rule.given(two.tools or ()) is None  # the model picks the file


async def test_a_dotted_word_that_is_no_file_reads_nothing() -> None:
    """'e.g.' or 'example.com' name no workdir file: the step is left alone."""
    state = make_state("What does e.g. mean on example.com?")
    plan = make_plan(state)
    await mentions("notes.md").plan(state, plan)
    assert plan.route is None and not plan.rule.must_call


@pytest.mark.parametrize(
    ("may_act", "head", "route", "bare"),
    [
        pytest.param(True, CHANGE_HEAD, True, False, id="action"),
        pytest.param(False, REMINDER_HEAD, False, True, id="question"),
        pytest.param(None, REMINDER_HEAD, False, True, id="unknown"),
    ],
)
async def test_after_the_read(may_act: bool | None, head: str, route: bool, bare: bool) -> None:
    """After the read: an action's next step is routed (never a demanded call); a question's
    answers in words."""
    state = make_state("In config.ini change debug=true to debug=false")
    state.may_act = may_act
    plan = make_plan(state)
    plan.route = READ_FIRST
    run = StepRun(
        plan, (("read_file", '{"path": "config.ini"}'),), (ToolOutcome("debug=true"),), (False,)
    )
    following = await mentions("config.ini").after(state, run)
    assert following is not None
    assert following.notes[0].content.startswith(head)
    assert following.route is route and following.bare is bare
    if may_act:
        assert '"debug=true"' in following.notes[0].content  # the short file shown again
        assert following.tools == state.acting  # the read is done: what acts, or answer


async def test_a_failed_read_or_another_step_is_not_followed() -> None:
    """Only a successful read-first step has a say."""
    state = make_state("x")
    plan = make_plan(state)
    run = StepRun(plan, (("read_file", "{}"),), (ToolOutcome("ok"),), (False,))
    assert await mentions().after(state, run) is None
    plan.route = READ_FIRST
    failed = StepRun(
        plan, (("read_file", "{}"),), (ToolOutcome("no such file", error=True),), (False,)
    )
    assert await mentions().after(state, failed) is None
