"""The after-tool policies: repeats and reroute."""

from __future__ import annotations

import pytest

from agentd.engine.guards.base import StepRun
from agentd.engine.guards.repeats import Repeats
from agentd.engine.guards.reroute import Reroute
from agentd.engine.notes import ANSWER_NOW, REMINDER_HEAD
from agentd.tools.registry import ToolOutcome
from tests.engine.guards.conftest import make_plan, make_state

pytestmark = pytest.mark.anyio

CALL = ("read_file", '{"path": "a.txt"}')


async def test_repeats_answers_after_a_step_of_cached_calls() -> None:
    state = make_state("x")
    run = StepRun(make_plan(state), (CALL,), (ToolOutcome("text"),), cached=1)
    following = await Repeats().after(state, run)
    assert following is not None and following.bare
    assert following.notes[0].content == ANSWER_NOW


async def test_repeats_answers_after_the_same_failure_again() -> None:
    state = make_state("x")
    failed = (ToolOutcome("no such file", error=True),)
    first = StepRun(make_plan(state), (CALL,), failed, 0)
    assert await Repeats().after(state, first) is None
    again = StepRun(
        make_plan(state), (CALL,), failed, 0, frozenset({("read_file", "no such file")})
    )
    following = await Repeats().after(state, again)
    assert following is not None and following.bare


async def test_reroute_routes_once_after_failed_calls() -> None:
    state = make_state("x")
    failed = StepRun(make_plan(state), (CALL,), (ToolOutcome("no", error=True),), 0)
    following = await Reroute().after(state, failed)
    assert following is not None and following.route
    assert following.notes[0].content.startswith(REMINDER_HEAD)
    assert await Reroute().after(state, failed) is None  # once a turn
    ok = StepRun(make_plan(state), (CALL,), (ToolOutcome("fine"),), 0)
    assert await Reroute().after(make_state("y"), ok) is None
