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
from agentd.messages import Message, assistant, system, user

log = structlog.get_logger("agentd.engine.guards.intent")

ACTION, QUESTION = "action", "question"
INTENT_SYSTEM = (
    "You sort requests sent to an assistant that has tools. Reply with one word.\n"
    "action: the user wants something done now that changes or runs something: a file "
    "written, edited or added to; a fact saved to memory for later; a reminder scheduled or "
    "cancelled; a command or script run.\n"
    "question: the user wants only a reply in words: an answer, a fact, the time or a date, "
    "an explanation, a translation, a summary of a file, a file's content, an example shown "
    "but not carried out, or just a chat."
)
#: Worked examples shown before each request (the same every time: the server keeps them in
#: its prompt cache). None is a case of the agentic suite.
INTENT_EXAMPLES = (
    ("Delete the second line of todo.md.", ACTION),
    ("What does this error message mean: permission denied?", QUESTION),
    ("Rename draft.txt to final.txt.", ACTION),
    ("How many days are there until Friday?", QUESTION),
    ("Please keep in mind for later that I am vegetarian.", ACTION),
    ("Give me a short overview of report.txt.", QUESTION),
    ("Run make test and tell me what fails.", ACTION),
    ("Sorry, long day at work today.", QUESTION),
    ("Remind me tomorrow at nine to call the dentist.", ACTION),
    ("Which reminders have I set?", QUESTION),
)
INTENT_QUESTION = 'Request: "{request}"\nAction or question?'


def prompt(request: str) -> list[Message]:
    """The intent question for ``request``: the rules, the worked examples, the request."""
    shots: list[Message] = []
    for example, word in INTENT_EXAMPLES:
        shots += [user(INTENT_QUESTION.format(request=example)), assistant(word)]
    question = INTENT_QUESTION.format(request=request[:REQUEST_CHARS])
    return [system(INTENT_SYSTEM), *shots, user(question)]


@dataclass(slots=True)
class Intent:
    """The step planner that asks, once a turn, whether the request asks for an action."""

    asker: Asker
    name: str = "intent"
    serves: Serves = "local"

    async def plan(self, state: TurnState, plan: StepPlan) -> None:
        if state.may_act is None and self._asks(state, plan):
            word = await self.asker.ask(state, "intent", prompt(state.request), (ACTION, QUESTION))
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
