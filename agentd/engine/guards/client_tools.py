"""Client tools: a caller that brings its own tools leads the tool loop.

An OpenAI client that sends ``tools`` (an agent framework, a benchmark) expects calls of its
functions: offered agentd's own tools beside them, a small model called ``web_fetch`` for a
client's function and answered in prose where it should have called one. So a step of such a
turn offers the client's tools only, and the guards that steer a small model's own choices
(intent, routing, yes/no checks, asking again) stand aside (``TurnState.client_led``). The
caller's ``tool_choice`` holds for the first step (later steps may answer); its
``parallel_tool_calls: false`` for all of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentd.engine.guards.base import Serves
from agentd.engine.turnstate import StepPlan, TurnState


@dataclass(slots=True)
class ClientTools:
    """The step planner that offers a client-led turn the client's tools only."""

    name: str = "client_tools"
    serves: Serves = "any"

    async def plan(self, state: TurnState, plan: StepPlan) -> None:
        if not state.client_led or not plan.tools:
            return
        if plan.names - state.client_names:
            plan.only(state.client_names)
            if state.step == 1:
                state.fire(self.name, "client_only")
