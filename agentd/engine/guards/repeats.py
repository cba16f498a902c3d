"""Repeats: a step that asks nothing new is followed by an answer in words.

When every call of a step was served from the turn's call cache (:mod:`agentd.engine.callcache`)
or failed just as a call failed before (the same error), what the model needs is above: the
next step offers no tools and asks for the answer. Structural: it serves every model.
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
        if not run.calls:
            return None
        pairs = zip(run.calls, run.outcomes, strict=True)
        failed = {(name, out.content) for (name, _), out in pairs if out.error}
        failed_again = len(failed) == len(run.calls) and failed <= run.earlier_failures
        if run.cached < len(run.calls) and not failed_again:
            return None
        state.fire(self.name, "failed_again" if failed_again else "cached")
        return Next(notes=[answer_now(state)], bare=True)
