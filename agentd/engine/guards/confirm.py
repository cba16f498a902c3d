"""Confirm: before the turn's first call of a tool that acts runs, the model says whether the
user asked for it to be done.

The small local model wrote files nobody asked for: a request to show a command without
running it wrote the command's output to a file, a summary was saved next to its source, a
question about a customer number saved a memory. Whatever sent the turn there (the intent
word, the route, a rule asking again), the call itself is the last point before the side
effect. Before the first step of the turn that calls an acting tool, the model is asked
apart, under a grammar, yes or no, in whatever language the request came, with the request
and the call: did the user ask for this to be carried out now? "no" drops the step and asks
for the answer in words, and the turn is a question from then on (no rule asks for an action
again). Asked once a turn: after a "yes" the turn's later calls run unasked.

For a small local model only (``serves = "local"``); a capable model is not second-guessed.
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from agentd.engine.asking import Asker
from agentd.engine.guards.base import ACCEPT, Retry, Serves, Verdict
from agentd.engine.turnstate import REQUEST_CHARS, Next, StepPlan, TurnState
from agentd.messages import Message, system, user

log = structlog.get_logger("agentd.engine.guards.confirm")

YES, NO = "yes", "no"
CONFIRM_SYSTEM = "You check whether a user asked for something to be done. Answer only yes or no."
CONFIRM_QUESTION = (
    'The user wrote: "{request}"\n\nThe assistant is about to run:\n{call}\n\nDid the user '
    "ask for this to be carried out now (not only shown, explained or described)?"
)
#: Opens the note of the step after a "no".
NOT_ASKED_HEAD = "(That call was not made: my request does not ask for it.)"
#: A call's arguments in the question, at most.
ARGUMENT_CHARS = 300


@dataclass(slots=True)
class Confirm:
    """The answer guard for a turn's first acting call (see the module docstring)."""

    asker: Asker
    name: str = "confirm"
    serves: Serves = "local"
    calls: bool = True

    def holds(self, state: TurnState, plan: StepPlan) -> bool:
        return (
            state.fresh
            and not state.client_led
            and not state.rule.must_call
            and self.name not in state.retried
            and not state.acted()
        )

    async def judge(self, state: TurnState, plan: StepPlan, reply: Message) -> Verdict:
        acting = [c for c in reply.tool_calls if c.name in state.acting]
        if not acting or not self.holds(state, plan):
            return ACCEPT
        state.retried.add(self.name)
        call = acting[0]
        question = CONFIRM_QUESTION.format(
            request=state.request[:REQUEST_CHARS],
            call=f"{call.name}({call.arguments[:ARGUMENT_CHARS]})",
        )
        asked = [system(CONFIRM_SYSTEM), user(question)]
        word = await self.asker.ask(state, self.name, asked, (YES, NO), apart=True)
        if word is None:
            return ACCEPT
        state.fire(self.name, word)
        log.info("turn.confirm", asked=word == YES, tool=call.name)
        if word != NO:
            return ACCEPT
        # The model found the request asks for no such action: no rule asks for one again.
        state.may_act = False
        return Retry(Next(notes=[_note(state)], bare=True))


def _note(state: TurnState) -> Message:
    return user(
        f'{NOT_ASKED_HEAD} My request was: "{state.short_request}". Answer it in words, in '
        "the language I wrote it in."
    )
