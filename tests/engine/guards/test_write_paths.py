"""The write-paths planner: a routed write goes to a path the request names."""

from __future__ import annotations

import pytest

from agentd.engine.guards.write_paths import WritePaths
from agentd.model.choice import CallRule
from tests.engine.guards.conftest import make_plan, make_state

pytestmark = pytest.mark.anyio


async def test_a_routed_write_is_held_to_the_named_path() -> None:
    """'Schreib das in reise.txt': the call's path is held to reise.txt."""
    state = make_state("Schreib die Reise in reise.txt auf.")
    plan = make_plan(state)
    plan.rule = CallRule(name="write_file")
    await WritePaths().plan(state, plan)
    assert dict(plan.rule.values) == {"path": ("reise.txt",)}


@pytest.mark.parametrize(
    ("rule", "request_text"),
    [
        pytest.param(CallRule(name="write_file"), "Write it down somewhere.", id="no-path"),
        pytest.param(CallRule(name="read_file"), "Read trip.txt", id="not-a-write"),
        pytest.param(CallRule(), "Write trip.txt", id="unrouted"),
    ],
)
async def test_nothing_is_held_otherwise(rule: CallRule, request_text: str) -> None:
    """No path named, a tool that does not write, or an unrouted step: left alone."""
    state = make_state(request_text)
    plan = make_plan(state)
    plan.rule = rule
    await WritePaths().plan(state, plan)
    assert plan.rule == rule
