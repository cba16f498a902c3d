"""Write paths: a routed call that writes a file writes one the request names.

"Write that trip down in trip.txt" was written to ``trips/trip.txt``. When a step is held to a
tool that writes the file at its ``path`` and the request names paths (:func:`named_paths`:
words with an extension, inside the workdir), the call's ``path`` is held to one of them
under the grammar. A request that names no path leaves the choice to the model.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from agentd.engine.guards.base import Serves
from agentd.engine.turnstate import StepPlan, TurnState
from agentd.tools.mentions import named_paths

#: Tools that write the file at their ``path``.
WRITE_TOOLS = frozenset({"write_file", "append_file", "edit_file"})


@dataclass(slots=True)
class WritePaths:
    """The step planner that holds a routed write to the request's paths."""

    name: str = "write_paths"
    serves: Serves = "local"

    async def plan(self, state: TurnState, plan: StepPlan) -> None:
        rule = plan.rule
        if rule.name not in WRITE_TOOLS or rule.values or state.client_led:
            return
        paths = named_paths(state.request)
        if paths:
            plan.rule = replace(rule, values=(("path", tuple(paths)),))
            state.fire(self.name, "held")
