"""The client-tools planner: a caller's own tools are all a client-led step offers."""

from __future__ import annotations

import pytest

from agentd.engine.guards.client_tools import ClientTools
from tests.engine.guards.conftest import make_plan, make_state

pytestmark = pytest.mark.anyio


async def test_a_client_led_step_offers_only_the_clients_tools() -> None:
    """With client tools, the agent's own (web_fetch...) are not offered."""
    state = make_state("What is the Dorian scale of C sharp?", client=("get_scale",))
    plan = make_plan(state)
    await ClientTools().plan(state, plan)
    assert plan.names == frozenset({"get_scale"})
    assert [t["function"]["name"] for t in plan.tools or ()] == ["get_scale"]


async def test_without_client_tools_nothing_changes() -> None:
    """A turn without client tools keeps the agent's tools."""
    state = make_state("hi")
    plan = make_plan(state)
    await ClientTools().plan(state, plan)
    assert plan.names == state.names
