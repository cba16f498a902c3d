"""Repeats: a step that asks nothing new is followed by an answer in words.

When each call of a step was served from the turn's call cache (:mod:`agentd.engine.callcache`),
copied another call of the step, or failed just as a call failed before (the same error), what
the model needs is above: the next step offers no tools and asks for the answer. A step that
lists a folder again beside the same failing call five times is such a step. Structural: it
serves every model.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentd.engine.guards.base import Serves, StepRun
from agentd.engine.notes import answer_now
from agentd.engine.turnstate import Next, TurnState


@dataclass(slots=True)
class Repeats:
    """The after-tool policy for steps that repeat earlier calls."""

    name: str = "repeats"
    serves: Serves = "any"

    async def after(self, state: TurnState, run: StepRun) -> Next | None:
        if not run.calls or not run.brought_nothing_new():
            return None
        state.fire(self.name, "cached" if all(run.served) else "failed_again")
        return Next(notes=[answer_now(state)], bare=True)
