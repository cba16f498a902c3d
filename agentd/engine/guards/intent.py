"""Intent: does the request ask for an action, for something looked up, or only for words?

Before the turn's first step, when tools that act are on offer (writing files, running
commands, saving to memory, scheduling), the model is asked about the request alone, in a
short prompt of its own, under a grammar: ``action``, ``lookup`` or ``answer``, in whatever
language the request came. A look-up's turn is then offered only the tools that look (reading
files, the time, memory search): a summary can no longer save a file. An answer's turn is
offered no tool at all: a translation or a capital city is answered in one request, with no
routing question and no call to check. A request that names the workdir's files is a look-up
whatever the word (:mod:`.read_first` holds its read). In the conversation itself the model
called every request a change; apart, with the request alone, it sorts them.

For a small local model only (``serves = "local"``); a capable model chooses its tools itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from agentd.engine.asking import Asker
from agentd.engine.guards.base import Serves
from agentd.engine.guards.read_first import READ_FIRST, READ_TOOL, release_read
from agentd.engine.turnstate import REQUEST_CHARS, StepPlan, TurnState
from agentd.messages import Message, assistant, system, user

log = structlog.get_logger("agentd.engine.guards.intent")

ACTION, LOOKUP, ANSWER = "action", "lookup", "answer"
#: The words the model may reply with, in the order the rules name them.
OPTIONS = (ACTION, LOOKUP, ANSWER)
INTENT_SYSTEM = (
    "You sort requests sent to an assistant that has tools. Reply with one word.\n"
    "action: the user wants something done now that changes or runs something: a file "
    "written, edited or added to; a fact saved to memory for later; a reminder scheduled or "
    "cancelled; a command or script run (also when the user wants to know its output).\n"
    "lookup: the user wants only a reply in words, and it needs something the assistant has "
    "to look up first: a file's content or a summary of it, the current time or date, a web "
    "page, something the user told it in an earlier conversation.\n"
    "answer: the user wants only a reply in words that needs nothing looked up: a fact "
    "everyone knows, arithmetic, an explanation, a translation of the words given, an example "
    "shown but not carried out, or just a chat."
)
#: Worked examples shown before each request (the same every time: the server keeps them in
#: its prompt cache). None is a case of the agentic suite.
INTENT_EXAMPLES = (
    ("Delete the second line of todo.md.", ACTION),
    ("What does this error message mean: permission denied?", ANSWER),
    ("Rename draft.txt to final.txt.", ACTION),
    ("How many days are there until Friday?", LOOKUP),
    ("Please keep in mind for later that I am vegetarian.", ACTION),
    ("Give me a short overview of report.txt.", LOOKUP),
    ("Run make test and tell me what fails.", ACTION),
    ("Sorry, long day at work today.", ANSWER),
    ("We just got back from a week in Portugal.", ANSWER),
    ("Remind me tomorrow at nine to call the dentist.", ACTION),
    ("Which reminders have I set?", LOOKUP),
    ("¿Qué significa la palabra «sobremesa»?", ANSWER),
    ("What is the largest planet in the solar system?", ANSWER),
    ("How do you say 'thank you' in Japanese?", ANSWER),
    ("Wie heißt meine Schwester noch mal?", LOOKUP),
    ("Use grep to find the lines of app.py that mention TODO.", ACTION),
    ("Écris « à demain » dans le fichier message.txt.", ACTION),
    ("What would a command to zip a folder look like? Don't run it.", ANSWER),
    ("今何時ですか？", LOOKUP),  # noqa: RUF001 (a Japanese question mark)
)
INTENT_QUESTION = 'Request: "{request}"\nAction, lookup or answer?'


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
            word = await self.asker.ask(state, "intent", prompt(state.request), OPTIONS)
            if word is not None:
                if word == ANSWER and plan.route == READ_FIRST:
                    word = LOOKUP  # the request names the workdir's files: they are read
                elif word == ACTION and plan.route == READ_FIRST:
                    # Routed first among what acts (and the read): a command needs no read,
                    # a change by path still reads first (route).
                    release_read(state, plan)
                    plan.only(state.acting | {READ_TOOL})
                state.may_act = word == ACTION
                state.words_only = word == ANSWER
                state.fire(self.name, word)
                log.info("turn.intent", intent=word)
        if state.words_only:
            plan.without_tools()
        elif state.may_act is False and plan.tools:
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
