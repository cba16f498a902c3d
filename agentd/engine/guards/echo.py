"""Echo: an answer that only repeats the request.

After its tools ran, a small model sometimes answers with the user's own message, word for
word ("Erinnere mich in 2 Stunden daran, den Zahnarzt anzurufen." after scheduling that very
reminder; "I missed book club last night. Can you sum up what happened? ..." after reading
the notes it was asked to sum up): in the agentic suite's runs, 6% of the turns that ran a
tool, in every language. The user cannot tell from it whether anything was done. Such an
answer says no word the request does not hold and holds nearly all of the request's words
(compared as written, in any script; Chinese and Japanese by character pairs, as
:func:`~agentd.engine.guards.answered_earlier.tokens` splits them). Found, the answer is asked
for once more in words; a second echo is replaced by what the tools returned.

A word of the answer's own keeps it ("I copied the contents of source.txt into a new file
backup.txt." answers "Copy the contents of ..."): a report, not an echo. A word that is one of
the request's written a little otherwise is the request's: a verb's other form ("Rappelez-moi"
for "Rappelle-moi", "Recuerda" for "Recuérdame"), an accent dropped ("Acuerdate"): 75% alike
letter by letter, accents aside, both of four letters or more (so "I", "je" or "yes" are a
word of its own).
"""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass

import structlog

from agentd.engine.guards.answered_earlier import tokens
from agentd.engine.guards.base import ACCEPT, Replace, Retry, Serves, Verdict
from agentd.engine.guards.empty import answer_from_results
from agentd.engine.notes import echoed
from agentd.engine.turnstate import Next, StepPlan, TurnState
from agentd.messages import Message, assistant

log = structlog.get_logger("agentd.engine.guards.echo")

#: The share of the request's words an echo holds.
MOST = 0.9
#: A request of fewer words is not judged ("Hi!" answered "Hi!" is a greeting).
FEWEST = 4
#: Heads the tool results that stand in for a second echo.
FROM_RESULTS = "(The model only repeated the request; here is what the tools returned.)"


#: How alike, letter by letter, a word must be to one of the request's to count as it.
NEAR = 0.75
#: The fewest letters of a word that can count as another written otherwise.
NEAR_LETTERS = 4


def _plain(text: str) -> str:
    """``text`` without accents and other combining marks (compared the same on both sides)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _near(word: str, asked: frozenset[str]) -> bool:
    """Whether ``word`` is one of ``asked`` written a little otherwise."""
    if len(word) < NEAR_LETTERS:
        return False
    return any(
        len(other) >= NEAR_LETTERS
        and difflib.SequenceMatcher(None, word, other, autojunk=False).ratio() >= NEAR
        for other in asked
    )


def repeats(answer: str, request: str) -> bool:
    """Whether ``answer`` only repeats ``request``: each of its words is one of the request's
    (or one written a little otherwise), and it holds at least :data:`MOST` of them."""
    said, asked = tokens(_plain(answer)), tokens(_plain(request))
    if len(asked) < FEWEST or not said:
        return False
    if any(not _near(word, asked) for word in said - asked):
        return False
    return len(said) >= MOST * len(asked)


@dataclass(slots=True)
class Echo:
    """The answer guard for answers that repeat the request after tools ran."""

    name: str = "echo"
    serves: Serves = "local"
    calls: bool = False

    def holds(self, state: TurnState, plan: StepPlan) -> bool:
        return state.turn_start() is not None and not state.client_led

    async def judge(self, state: TurnState, plan: StepPlan, reply: Message) -> Verdict:
        if not self.holds(state, plan) or not repeats(reply.content, state.request):
            return ACCEPT
        log.warning("turn.echo", step=state.step)
        if self.name not in state.retried and state.requests.spare():
            state.retried.add(self.name)
            return Retry(Next(notes=[echoed(state)], bare=True))
        return Replace(assistant(answer_from_results(state.added, head=FROM_RESULTS)))
