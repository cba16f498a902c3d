"""Edit lines: ``edit_file``'s text to replace is one line.

Asked to change one setting, the small local model copied two lines of the file into
``old`` and wrote them again into ``new`` with the change on the wrong one, or with a third
line added after them ("passe heure_depart de 07:15 à 06:45": ``old`` "heure_depart =
07:15\\nmaintien_chaud = 64\\n", ``new`` the same with "heure_depart = 06:45" after it). Over
the agentic suite's recorded runs, 6 of the 7 distinct such calls left the file wrong (three
of them edits of a file the user only asked to have summarised), 2 of the 42 whose ``old`` was
one line did (both those unasked edits). A step that offers agentd's own ``edit_file`` holds ``old``
to one line under the grammar (:attr:`~agentd.model.choice.CallRule.lines`); ``new`` stays
free. Once an ``edit_file`` call of the turn failed (its line appears twice in the file, or
not at all), the hold is let go: the tool's error asks for the lines around it. A caller's own
``edit_file`` is the caller's: never held.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from agentd.engine.guards.base import Serves
from agentd.engine.turnstate import StepPlan, TurnState, may_call_own

#: The tool and its argument held to one line.
EDIT_TOOL = "edit_file"
OLD = "old"


@dataclass(slots=True)
class EditLines:
    """The step planner that holds ``edit_file``'s ``old`` to one line."""

    name: str = "edit_lines"
    serves: Serves = "local"

    async def plan(self, state: TurnState, plan: StepPlan) -> None:
        if not may_call_own(state, plan, EDIT_TOOL):
            return
        if any(tool == EDIT_TOOL for tool, _ in state.failures):
            return  # refused (the line appears twice, or is not there): more lines may help
        plan.rule = replace(plan.rule, lines=plan.rule.lines | {(EDIT_TOOL, OLD)})
        state.fire(self.name, "held")
