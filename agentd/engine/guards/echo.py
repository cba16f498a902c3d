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

from agentd.engine.guards.answered_earlier import WORD, tokens
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
#: How alike, letter by letter, a word must be to one of the request's to count as it.
NEAR = 0.75
#: The fewest letters of a word that can count as another written otherwise; past
#: :data:`NEAR_MOST_LETTERS` (a hash, a long code) only the same word counts.
NEAR_LETTERS = 4
NEAR_MOST_LETTERS = 40
#: A request or an answer longer than this, in characters or words, is not judged (a bound on
#: what comparing their words costs: the echoes seen were all under 60 words).
MOST_CHARS = 4000
MOST_WORDS = 120
#: Marks that end a question: Latin, full-width (Chinese, Japanese), Arabic, Greek.
QUESTION_MARKS = frozenset("?\uff1f\u061f\u037e")
#: Heads the tool results that stand in for a second echo, or says there were none.
FROM_RESULTS = "(The model only repeated the request; here is what the tools returned.)"
NO_ANSWER = "(The model only repeated the request. Please ask again or rephrase.)"


def _plain(text: str) -> str:
    """``text`` without accents and other combining marks (compared the same on both sides),
    composed again (Hangul syllables stay syllables)."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare)


def _near(word: str, asked: frozenset[str]) -> bool:
    """Whether ``word`` is one of ``asked`` written a little otherwise."""
    if not NEAR_LETTERS <= len(word) <= NEAR_MOST_LETTERS:
        return False
    for other in asked:
        shorter, longer = sorted((len(word), len(other)))
        if shorter < NEAR_LETTERS or 2 * shorter < NEAR * (shorter + longer):
            continue  # too short, or too unlike in length to reach NEAR
        alike = difflib.SequenceMatcher(None, word, other, autojunk=False)
        if alike.quick_ratio() >= NEAR and alike.ratio() >= NEAR:
            return True
    return False


def _asks(text: str) -> bool:
    return not QUESTION_MARKS.isdisjoint(text)


def _letters(text: str) -> str:
    """``text``'s letters and digits in order, lower-cased, accents aside: what is left when
    spaces and punctuation are dropped."""
    return "".join(WORD.findall(_plain(text).casefold()))


def repeats(answer: str, request: str, *, acted: bool = False) -> bool:
    """Whether ``answer`` only repeats ``request``: each of its words is one of the request's
    (or one written a little otherwise), and it holds at least :data:`MOST` of them. A question
    answered without a question mark is an answer ("17 is a prime number." to "Is 17 a prime
    number?"; in Japanese, the question's particle and mark dropped), unless a tool ``acted``
    and the answer is the request letter for letter, its punctuation aside: a Japanese request
    asked as a question ("...してくれる" and a full-width mark) came back after its reminder
    was set, its commas dropped and its question mark made a full stop. After look-ups only,
    "Está la palabra manzana en el archivo." answers "¿Está la palabra manzana en el archivo?"."""
    if len(request) > MOST_CHARS or len(answer) > MOST_CHARS:
        return False
    said, asked = tokens(_plain(answer)), tokens(_plain(request))
    if not FEWEST <= len(asked) <= MOST_WORDS:
        return False
    if _asks(request) and not _asks(answer):
        # The request asked as a question, made a statement letter for letter, repeats it
        # only when a tool acted: a yes/no question's answer may restate it after a look-up.
        return acted and _letters(answer) == _letters(request)
    if not MOST * len(asked) <= len(said) <= 2 * len(asked):
        return False  # too few of the request's words, or too many of its own
    return all(_near(word, asked) for word in said - asked)


@dataclass(slots=True)
class Echo:
    """The answer guard for answers that repeat the request after tools ran."""

    name: str = "echo"
    serves: Serves = "local"
    calls: bool = False

    def holds(self, state: TurnState, plan: StepPlan) -> bool:
        return state.turn_start() is not None and not state.client_led

    async def judge(self, state: TurnState, plan: StepPlan, reply: Message) -> Verdict:
        if not self.holds(state, plan) or not repeats(
            reply.content, state.request, acted=state.acted()
        ):
            return ACCEPT
        log.warning("turn.echo", step=state.step)
        if self.name not in state.retried and state.requests.spare():
            state.retried.add(self.name)
            return Retry(Next(notes=[echoed(state)], bare=True))
        text = answer_from_results(state.added, head=FROM_RESULTS, none=NO_ANSWER)
        return Replace(assistant(text))
