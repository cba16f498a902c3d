"""Shown: a planned command that the user wants written out, not run.

Asked "what command would list the cards I still have to post? Only tell me, I'll run it
myself", the 1.5B planned ``exec``, and the intent question put to it (:mod:`.intent`) found an
``action`` in most such requests (124 of the suite's 166 requests to be shown a command; all 23
whose plan named ``exec``, 3 as a look-up that ran it read-only): the command ran, on files that
were not there, and the answer reported its error. The intent question weighs seven words; this
one weighs one thing, whether the user wants only the command itself and not what it would
output, and is asked only when a planned command is about to run. A ``yes`` leaves the command
unplanned and the turn to words (tools that only look stay planned); ``no`` or no answer leaves
the plan as it was.

Its prompt (rules and worked examples, then the request) shares nothing with any other request:
it goes to the quick slot after the intent question. llama-server's host-memory prompt cache
(``--cache-ram``, on by default) keeps the prompt a slot last held when another replaces it and
restores it for the next request that shares it: the intent question asked after another prompt
had taken its slot read 27 tokens, its other 1,067 from that cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from agentd.engine.asking import Asker
from agentd.engine.guards.base import Serves
from agentd.engine.turnstate import REQUEST_CHARS, TurnState
from agentd.messages import Message, assistant, system, user

YES, NO = "yes", "no"
SHOWN_HEAD = (
    "You read a request sent to an assistant that can run commands. Reply yes or no: does the "
    "user want only the command itself written out (to run it themselves, or not now), and not "
    "what it would output?"
)
#: Worked examples (request, reply). None is a case of the agentic suite.
SHOWN_EXAMPLES = (
    ("How many lines does guests.csv have?", NO),
    ("What's the command to list hidden files? I'll type it myself.", YES),
    ("Run the tests and tell me what fails.", NO),
    ("How many lines of orders.csv mention Porto? Count them with a command.", NO),
    (
        "Wie finde ich heraus, welche Prozesse am meisten Speicher brauchen? "
        "Nur den Befehl, bitte.",
        YES,
    ),
    ("Cuenta las palabras de informe.txt con wc -w.", NO),
    ("Quelle commande affiche les dix dernières lignes de journal.log ? Ne la lance pas.", YES),
    ("ディスクの空き容量を確認して。", NO),
    ("Wie viele Dateien liegen im Ordner fotos? Zähl sie bitte mit einem Befehl.", NO),
    ("Show me how to delete empty lines from notes.txt with sed, without running it.", YES),
)
SHOWN_QUESTION = 'Request: "{request}"\nOnly the command, not its output?'


@cache
def _opening() -> tuple[Message, ...]:
    shots: list[Message] = []
    for example, reply in SHOWN_EXAMPLES:
        shots += [user(SHOWN_QUESTION.format(request=example)), assistant(reply)]
    return (system(SHOWN_HEAD), *shots)


def prompt(request: str) -> list[Message]:
    """The question for ``request``: the rules, the worked examples, the request."""
    return [*_opening(), user(SHOWN_QUESTION.format(request=request[:REQUEST_CHARS]))]


@dataclass(slots=True)
class Shown:
    """The question that tells a command to be written out from one to be run, asked by the
    intent rule (:mod:`.intent`) when a planned command is about to run."""

    asker: Asker
    name: str = "shown"
    serves: Serves = "local"

    async def only(self, state: TurnState) -> bool:
        """Whether the model finds that the turn's request wants the command written out,
        not run (no answer: it runs as planned)."""
        question = prompt(state.request)
        answer = await self.asker.ask(state, "shown", question, (YES, NO), apart=True)
        return answer == YES
