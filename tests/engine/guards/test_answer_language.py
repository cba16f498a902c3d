"""The answer-language guard: an answer in another language than the request."""

from __future__ import annotations

import json

import pytest

from agentd.engine.asking import Asker
from agentd.engine.guards.answer_language import AnswerLanguage, question
from agentd.engine.guards.base import ACCEPT, Retry
from agentd.engine.language import tell, written_in
from agentd.engine.notes import OTHER_LANGUAGE_HEAD, REWRITTEN_CHARS
from agentd.messages import assistant, system
from tests.engine.guards.conftest import make_plan, make_state
from tests.support.fake_model import FakeModel

pytestmark = pytest.mark.anyio

GERMAN = (
    "Wie lange fährt der Zug von Köln nach Berlin, wenn er um 9:40 abfährt und um 13:05 ankommt?"
)
ENGLISH = "The train from Cologne to Berlin takes three hours and twenty-five minutes."
IN_GERMAN = "Der Zug von Köln nach Berlin braucht drei Stunden und fünfundzwanzig Minuten."
TRANSLATE = "Übersetze bitte ins Englische: Ich komme morgen etwas später ins Büro."
TRANSLATED = "I will come to the office a little later tomorrow, because the train is late."


def guard(*choices: str) -> tuple[AnswerLanguage, FakeModel]:
    model = FakeModel()
    model.choices.extend(choices)
    return AnswerLanguage(Asker(model)), model


async def test_an_answer_in_another_language_is_shown_again_to_be_written_in_the_request_s() -> (
    None
):
    rule, model = guard("none")
    state = make_state(GERMAN)
    verdict = await rule.judge(state, make_plan(state), assistant(ENGLISH))
    assert isinstance(verdict, Retry) and verdict.next.bare
    note = verdict.next.notes[0].content
    head = OTHER_LANGUAGE_HEAD.format(written="English")
    assert note == f"{head} {json.dumps(ENGLISH)}. Write that answer in German."
    assert model.options == [("text", "words", "none")]
    assert GERMAN in model.asked[0][-1].content
    assert rule.name in state.retried and state.requests.by_kind == {"language": 1}


async def test_a_text_the_model_says_was_asked_for_in_the_answer_s_language_stands() -> None:
    """A translation into English is rightly answered in English."""
    rule, model = guard("text")
    state = make_state(TRANSLATE)
    verdict = await rule.judge(state, make_plan(state), assistant(TRANSLATED))
    assert verdict is ACCEPT and state.fired == [("answer_language", "kept")]
    assert model.options == [("text", "words", "none")] and not state.retried


async def test_no_word_from_the_model_keeps_the_answer() -> None:
    rule, _ = guard()  # the question fails: choose says nothing
    state = make_state(GERMAN)
    assert await rule.judge(state, make_plan(state), assistant(ENGLISH)) is ACCEPT


@pytest.mark.parametrize(
    ("request_text", "answer"),
    [
        pytest.param(GERMAN, IN_GERMAN, id="same-language"),
        pytest.param(GERMAN, "OK.", id="answer-too-short-to-tell"),
        pytest.param("Hi!", ENGLISH, id="request-too-short-to-tell"),
        pytest.param(
            "Combien de commandes partent à Rochefort cette semaine, d'après le fichier ?",
            "Il y a 6 commandes qui partent à Rochefort.",
            id="not-a-language-the-model-drifts-into",  # CLD2 reads it as Romansh
        ),
        pytest.param(
            "日本語で答えてください。明日の会議は何時からですか？",
            "明日の会議は午前10時からです。「Weekly sync」という名前です。",
            id="japanese-quoting-english",
        ),
    ],
)
async def test_nothing_is_asked_when_the_languages_agree_or_cannot_be_told(
    request_text: str, answer: str
) -> None:
    rule, model = guard("none")
    state = make_state(request_text)
    assert await rule.judge(state, make_plan(state), assistant(answer)) is ACCEPT
    assert model.asked == [] and not state.fired


async def test_asked_once_a_turn_the_second_answer_stands() -> None:
    rule, model = guard("none", "words")
    state = make_state(GERMAN)
    assert isinstance(await rule.judge(state, make_plan(state), assistant(ENGLISH)), Retry)
    assert not rule.holds(state, make_plan(state))
    assert await rule.judge(state, make_plan(state), assistant(ENGLISH)) is ACCEPT
    assert len(model.asked) == 1


async def test_without_a_spare_request_nothing_is_asked() -> None:
    rule, model = guard("none")
    state = make_state(GERMAN, requests=1)
    assert not rule.holds(state, make_plan(state))
    assert await rule.judge(state, make_plan(state), assistant(ENGLISH)) is ACCEPT
    assert model.asked == []


async def test_a_caller_with_its_own_tools_is_not_judged() -> None:
    rule, model = guard("none")
    state = make_state(GERMAN, client=("lookup",))
    assert await rule.judge(state, make_plan(state), assistant(ENGLISH)) is ACCEPT
    assert model.asked == []


async def test_an_answer_already_streamed_stands() -> None:
    rule, model = guard("none")
    state = make_state(GERMAN)
    state.streamed = True
    assert await rule.judge(state, make_plan(state), assistant(ENGLISH)) is ACCEPT
    assert model.asked == []


async def test_a_long_answer_is_not_shown_again_the_request_is_answered_anew() -> None:
    rule, _ = guard("none")
    state = make_state(GERMAN)
    long = " ".join([ENGLISH] * (REWRITTEN_CHARS // len(ENGLISH) + 1))
    verdict = await rule.judge(state, make_plan(state), assistant(long))
    assert isinstance(verdict, Retry)
    note = verdict.next.notes[0].content
    assert ENGLISH not in note and note.endswith("again, in words and in German.")


def test_a_held_answer_clears_once_its_first_words_are_the_request_s_language() -> None:
    rule, _ = guard()
    state = make_state(GERMAN)
    assert rule.clears(state, IN_GERMAN)
    assert not rule.clears(state, ENGLISH)
    assert not rule.clears(state, "Der Zug")  # too little to tell: held on


def test_the_question_shows_worked_examples_then_the_request() -> None:
    messages = question(GERMAN, "English")
    assert messages[0].role == "system" and messages[-1].role == "user"
    assert GERMAN in messages[-1].content
    assert messages[-1].content.endswith("The other language: English. text, words or none?")
    replies = [m.content for m in messages if m.role == "assistant"]
    assert set(replies) == {"text", "words", "none"}  # each among the examples


@pytest.mark.parametrize(
    ("text", "code"),
    [
        pytest.param(GERMAN, "de", id="german"),
        pytest.param(ENGLISH, "en", id="english"),
        pytest.param("明日の会議は何時からですか？天気も教えてください。", "ja", id="japanese"),
        pytest.param(
            '"The train takes three hours" - stand das so in der Datei?', "de", id="quoted"
        ),
        pytest.param("OK", None, id="too-short"),
    ],
)
def test_the_language_of_a_text_is_told_by_cld2(text: str, code: str | None) -> None:
    told = tell(text)
    assert (told.code if told else None) == code


def test_written_in_reads_a_short_text_with_the_request_s_language_as_hint() -> None:
    german = tell(GERMAN)
    assert german is not None and german.name == "German"
    short = "Ein Meter hat 100 Zentimeter."
    assert tell(short) != german  # alone, CLD2 reads it as Norwegian Nynorsk
    assert written_in(short, german) is True
    assert written_in(ENGLISH, german) is False
    assert written_in("6", german) is None


async def test_the_instructions_language_is_one_the_model_drifts_into() -> None:
    """With a system prompt written in German, a German answer to a French request is
    judged too."""
    rule, model = guard("none")
    french = (
        "Combien de temps dure le trajet en train de Lyon à Paris ? Je pars demain matin "
        "à neuf heures et je dois arriver avant midi pour un rendez-vous."
    )
    state = make_state(french)
    state.conversation.messages[0] = system(
        "Du bist ein hilfreicher Assistent. Antworte kurz und freundlich, und frage nach, "
        "wenn etwas unklar ist. Du darfst Dateien lesen und schreiben."
    )
    verdict = await rule.judge(state, make_plan(state), assistant(IN_GERMAN))
    assert isinstance(verdict, Retry) and model.options == [("text", "words", "none")]
