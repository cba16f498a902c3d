"""Claims: an answer to a request for an action when no tool carried it out.

A small model that has read a file or the time often ends there and answers as if it had
also done the rest ("The theme has been changed to dark." after ``read_file`` alone). No word
of the answer is looked at: when the model itself found that the request asks for an action
(:mod:`.intent`), tools that act were offered, and none ran successfully in the turn, the
answer is held and the model asked once more in a routed step, told that nothing has changed
yet: it names the tool that makes the change, or ``answer`` (to say plainly that it cannot).
No call is ever demanded.

Only when the model named what the request changes (a kind: a file, a fact to remember, a
task); then the step is routed among that kind's tools. For the other actions (``action``:
a command, several things) it stays out: measured, in action turns it rescued nothing (dev,
three fires: "show the command, don't run it" answered right, asked again, answered again)
and routed among every acting tool it wrote files nobody asked for (held-out, three of three
fires: a show-only request wrote ``.log``).
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from agentd.engine.guards.base import ACCEPT, Retry, Serves, Verdict
from agentd.engine.notes import not_done
from agentd.engine.turnstate import Next, StepPlan, TurnState
from agentd.messages import Message

log = structlog.get_logger("agentd.engine.guards.claims")


@dataclass(slots=True)
class Claims:
    """The answer guard for action requests answered without any action."""

    name: str = "claims"
    serves: Serves = "local"
    calls: bool = False

    def holds(self, state: TurnState, plan: StepPlan) -> bool:
        return (
            state.may_act is True
            and state.doing is not None
            and not state.client_led
            and self.name not in state.retried
            and bool(state.acting)
            and not state.acted()
        )

    async def judge(self, state: TurnState, plan: StepPlan, reply: Message) -> Verdict:
        if not self.holds(state, plan) or state.step + 1 >= state.max_steps:
            return ACCEPT
        if state.requests.left < 3:  # the route, the step, and the answer after it
            return ACCEPT
        log.warning("turn.no_action", step=state.step)
        state.retried.add(self.name)
        # Routed among the tools that act on what the request changes, or answer: routed
        # among all, the model read the same file again, six times; among every acting
        # tool, a fact to remember was written to notes.txt.
        return Retry(Next(notes=[not_done(state)], route=True, tools=state.doing))
