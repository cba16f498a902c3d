"""Answer language: an answer written in another language than the request.

A small model drifts into the language of its instructions (English) or of what it just read:
in the agentic suite's recorded runs 92 of 3,048 answers (3%) were in another language than
the request, nearly all in English, and then mostly right in content ("You will arrive in
Görlitz at 16:37." to a German question). The turn's notes already name the request's
language (:func:`agentd.engine.notes.in_language`); a direct answer has none, and after tools
the model sometimes writes past it.

Both languages are told by CLD2 (:mod:`agentd.engine.language`, a statistical model over some
80 languages, no word list); the answer is read with the request's language as a hint, and a
text too short to tell is left alone. Only an answer in a language the model drifts into is
judged: that of its instructions (the system prompt, told the same way) or of agentd's notes
(English). Of the recorded answers told in another language than the request, 69 of 71 that
the suite's own judge (another detector) found wrong were in English; those in other
languages were the detector's errors on a short text (French read as Romansh). When the
answer is in such a language, the model says, under a grammar,
whether the request asks for a whole text in the answer's language (``text``: a translation,
a message to send), rightly answered in it whatever language the request is written in; about
words of it (``words``: what one means, how to say something), answered in the request's
language; or neither (``none``). Asked which of the two languages the reply belongs in, the
model named English for nearly every Japanese request; asked yes or no whether the request
wants a text in English, it said yes to reminders and to "how do you say ... in English?".
Asked this way it answered 17 of 18 requests rightly (those it had got wrong, and requests
written for the question; "how do you say ... in English? It is for an email" came out
``text``). On ``words`` or ``none`` the answer is asked for once more, shown to the model to be
written again in the request's language (what it says is kept). A second answer stands as it
comes.

The guard holds a streamed answer until it can tell the answer's language (see
:meth:`AnswerLanguage.clears`): an answer found in the request's language from its first
words streams on from there.
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from agentd.engine.asking import Asker
from agentd.engine.guards.base import ACCEPT, Retry, Serves, Verdict
from agentd.engine.language import Told, tell, written_in
from agentd.engine.notes import other_language
from agentd.engine.turnstate import REQUEST_CHARS, Next, StepPlan, TurnState
from agentd.messages import Message, assistant, system, user

#: The language agentd's own notes to the model are written in (:mod:`agentd.engine.notes`).
NOTES_LANGUAGE = "en"

log = structlog.get_logger("agentd.engine.guards.answer_language")

QUESTION_HEAD = (
    "You decide what an assistant's reply to a request must be. Reply 'text' when the user "
    "wants a whole text in the other language (a translation of a sentence or passage, a "
    "message or letter to send). Reply 'words' when the user asks what a word or phrase means "
    "or how to say it: the reply then explains it in the request's own language. Reply 'none' "
    "for any other request."
)
QUESTION = 'Request: "{request}"\nThe other language: {language}. text, words or none?'
TEXT, WORDS, NONE = "text", "words", "none"
#: Worked examples shown before each request: (request, the other language, the answer).
#: None is a case of the agentic suite.
EXAMPLES = (
    ('Was heißt "deadline" auf Deutsch?', "English", WORDS),
    ("Translate into Spanish: I will be late tomorrow.", "Spanish", TEXT),
    ("これを英語に訳して：明日は雨です。", "English", TEXT),  # noqa: RUF001
    ("Explique-moi ce que veut dire « kaizen ».", "Japanese", WORDS),
    ("¿Cuántos días tiene febrero este año?", "English", NONE),
    ("Schreib mir eine kurze E-Mail auf Englisch an meinen Vermieter.", "English", TEXT),
    ("Rappelle-moi dans une heure de sortir le gâteau du four.", "English", NONE),
    ("¿Cómo se dice «madrugar» en inglés?", "English", WORDS),
    ("Crea notas.txt con la lista de la compra: pan, leche y huevos.", "English", NONE),
)


def drifts(state: TurnState) -> frozenset[str]:
    """The languages (codes) a small model drifts into in this turn: its instructions' (the
    system prompt's, when told) and :data:`NOTES_LANGUAGE`."""
    messages = state.conversation.messages
    first = messages[0] if messages and messages[0].role == "system" else None
    told = tell(first.content) if first is not None else None
    return frozenset({NOTES_LANGUAGE, *([told.code] if told else [])})


def question(request: str, written: str) -> list[Message]:
    """Whether ``request`` asks for a whole text in ``written`` (the answer's language), about
    words of it, or neither: the rules, the worked examples, the request."""
    shots: list[Message] = []
    for example, language, reply in EXAMPLES:
        shots += [user(QUESTION.format(request=example, language=language)), assistant(reply)]
    asking = QUESTION.format(request=request[:REQUEST_CHARS], language=written)
    return [system(QUESTION_HEAD), *shots, user(asking)]


@dataclass(slots=True)
class AnswerLanguage:
    """The answer guard for answers in another language than the request."""

    asker: Asker
    name: str = "answer_language"
    serves: Serves = "local"
    calls: bool = False

    @staticmethod
    def _asked(state: TurnState) -> Told | None:
        return tell(state.request)

    def holds(self, state: TurnState, plan: StepPlan) -> bool:
        return (
            not state.client_led
            and self.name not in state.retried
            and state.requests.spare()
            and self._asked(state) is not None
        )

    def clears(self, state: TurnState, text: str) -> bool:
        """Whether a held answer's first ``text`` is told to be in the request's language:
        the rest may stream (the guard then lets the answer stand)."""
        asked = self._asked(state)
        return asked is not None and written_in(text, asked) is True

    async def judge(self, state: TurnState, plan: StepPlan, reply: Message) -> Verdict:
        if state.streamed or not self.holds(state, plan):
            return ACCEPT
        asked = self._asked(state)
        written = tell(reply.content, hint=asked.code) if asked is not None else None
        if asked is None or written is None or written.code == asked.code:
            return ACCEPT
        if written.code not in drifts(state):
            return ACCEPT  # not a language the model drifts into: the detector misread it
        asking = question(state.request, written.name)
        found = await self.asker.ask(state, "language", asking, (TEXT, WORDS, NONE), shared=True)
        if found not in (WORDS, NONE) or not state.requests.left:
            log.info("turn.answer_language_kept", asked=asked.code, written=written.code)
            state.fire(self.name, "kept")
            return ACCEPT
        log.warning("turn.answer_language", asked=asked.code, written=written.code)
        state.retried.add(self.name)
        note = other_language(state, reply.content, asked.name, written.name)
        return Retry(Next(notes=[note], bare=True))
