"""Reroute: after a step whose calls all failed, the next step is routed, once a turn.

After a failed call a small model often made up what the tool would have said ("The file
says ...", when the error listed the file to read instead). Routed, it names the tool to try
next, or ``answer``.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentd.engine.guards.base import Serves, StepRun
from agentd.engine.notes import reminder
from agentd.engine.turnstate import Next, TurnState


@dataclass(slots=True)
class Reroute:
    """The after-tool policy that routes the step after a step of failed calls."""

    name: str = "reroute"
    serves: Serves = "local"

    async def after(self, state: TurnState, run: StepRun) -> Next | None:
        if state.rerouted or state.client_led or not run.calls:
            return None
        if not all(out.error for out in run.outcomes):
            return None
        state.rerouted = True
        state.fire(self.name, "routed")
        # The reminder names the request's workdir files when the calls used none of them
        # (asked to count datos.txt, the model ran `wc -l data.txt`, then answered that no
        # such file exists).
        return Next(notes=[reminder(state, run.calls)], route=True)
