"""Delays: ``schedule_task``'s ``in`` is a number with its unit, hours always with minutes.

Asked to remind the user "in two and a half hours", "in an hour and a half" or "in half an
hour", the small local model wrote ``in`` as "2h", "1h", "1h": the hours, then the closing
quote, the fraction lost (16 of the 19 wrong reminders of 60 played from spent halves). A
step that offers agentd's own ``schedule_task`` holds ``in`` under the grammar to
:data:`~agentd.model.grammar.DELAY` (:attr:`~agentd.model.choice.CallRule.shapes`): seconds
("10s"), minutes ("45m"), hours with their minutes ("2h0m", "2h30m") or days ("3d"). Made to
go on after the hours, the model wrote the minutes it had left out. The prompt's schema is
unchanged (the server's cached prefix holds) and the tool still reads any delay it read
before. A caller's own ``schedule_task`` is the caller's: never held.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from agentd.engine.guards.base import Serves
from agentd.engine.turnstate import StepPlan, TurnState, may_call_own
from agentd.model.grammar import DELAY

#: The tool and its argument held to a delay.
TASK_TOOL = "schedule_task"
IN = "in"


@dataclass(slots=True)
class Delays:
    """The step planner that holds ``schedule_task``'s ``in`` to a delay."""

    name: str = "delays"
    serves: Serves = "local"

    async def plan(self, state: TurnState, plan: StepPlan) -> None:
        if not may_call_own(state, plan, TASK_TOOL):
            return
        plan.rule = replace(plan.rule, shapes=plan.rule.shapes | {(TASK_TOOL, IN, DELAY)})
        state.fire(self.name, "held")
