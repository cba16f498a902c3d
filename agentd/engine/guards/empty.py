"""Empty answers: asked for once more in words, then made from the tool results.

A small model sometimes ends a turn with no text at all (after tools ran, mostly). The turn
must end in words: the answer is asked for again once, without tools; a second empty answer
is replaced by what the tools returned, or by a plain message saying there was no answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import structlog

from agentd.engine.guards.base import ACCEPT, Replace, Retry, Serves, Verdict
from agentd.engine.notes import answer_now
from agentd.engine.turnstate import Next, StepPlan, TurnState
from agentd.messages import Message, assistant

log = structlog.get_logger("agentd.engine.guards.empty")

FROM_RESULTS = "(The model gave no answer; here is what the tools returned.)"
NO_ANSWER = "(The model gave no answer, twice. Please ask again or rephrase.)"
FALLBACK_CHARS = 1500


def answer_from_results(
    added: Sequence[Message], *, head: str = FROM_RESULTS, none: str = NO_ANSWER
) -> str:
    """The words a turn ends with when the model gave none: its tool results, briefly, under
    ``head``; ``none`` when they returned nothing."""
    results = [m.content for m in added if m.role == "tool" and m.content.strip()]
    if not results:
        return none
    text = "\n".join(results[-3:])
    if len(text) > FALLBACK_CHARS:
        text = text[:FALLBACK_CHARS] + " ..."
    return f"{head}\n{text}"


@dataclass(slots=True)
class Empty:
    """The answer guard for replies without text or calls."""

    name: str = "empty"
    serves: Serves = "any"
    calls: bool = False

    def holds(self, state: TurnState, plan: StepPlan) -> bool:
        return False  # an empty answer streamed nothing

    async def judge(self, state: TurnState, plan: StepPlan, reply: Message) -> Verdict:
        if reply.content.strip():
            return ACCEPT
        log.warning("turn.empty_answer", step=state.step, after_tools=bool(state.added))
        if self.name not in state.retried and state.requests.left > 0:
            state.retried.add(self.name)
            return Retry(Next(notes=[answer_now(state)], bare=True))
        return Replace(assistant(answer_from_results(state.added)))
