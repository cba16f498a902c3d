"""Intent: does the request ask for an action, or for words? The model decides.

Before the turn's first step, when tools that act are on offer (writing files, running
commands, saving to memory, scheduling), the model is asked about the request alone, in a
short prompt of its own, under a grammar: ``action`` or ``question``, in whatever language
the request came. A question's turn is then offered only the tools that look (reading files,
the time, memory search): a translation can no longer write a file, a summary can no longer
save one. In the conversation itself the model called every request a change; apart, with
the request alone, it sorts them.

For a small local model only (``serves = "local"``); a capable model chooses its tools itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from agentd.engine.asking import Asker
from agentd.engine.guards.base import Serves
from agentd.engine.turnstate import REQUEST_CHARS, StepPlan, TurnState
from agentd.messages import system, user

log = structlog.get_logger("agentd.engine.guards.intent")

ACTION, QUESTION = "action", "question"
INTENT_SYSTEM = (
    "You sort requests sent to an assistant that has tools. Reply with one word: action or "
    "question."
)
INTENT_QUESTION = (
    'Request: "{request}"\n\n'
    "Does it ask the assistant to change something now: write, edit or add to a file, save or "
    "remember something for later, schedule or cancel a reminder, run a command (action)? Or "
    "does it ask only for words: an answer, an explanation, a translation, a summary, an "
    "example, something looked up or read (question)?"
)


@dataclass(slots=True)
class Intent:
    """The step planner that asks, once a turn, whether the request asks for an action."""

    asker: Asker
    name: str = "intent"
    serves: Serves = "local"

    async def plan(self, state: TurnState, plan: StepPlan) -> None:
        if state.may_act is None and self._asks(state, plan):
            question = INTENT_QUESTION.format(request=state.request[:REQUEST_CHARS])
            word = await self.asker.ask(
                state, "intent", [system(INTENT_SYSTEM), user(question)], (ACTION, QUESTION)
            )
            if word is not None:
                state.may_act = word == ACTION
                state.fire(self.name, word)
                log.info("turn.intent", intent=word)
        if state.may_act is False and plan.tools:
            plan.only(plan.names & state.looking)

    @staticmethod
    def _asks(state: TurnState, plan: StepPlan) -> bool:
        """Only a turn's first step that answers a user's message, with tools that act on
        offer and no call demanded by the caller, asks."""
        return (
            state.step == 1
            and state.fresh
            and not state.client_led
            and not state.rule.must_call
            and bool(plan.names & state.acting)
        )
