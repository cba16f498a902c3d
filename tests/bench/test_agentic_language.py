"""The agentic suite's judge of an answer's language: its own words, quotes left out."""

from __future__ import annotations

import datetime as dt

import pytest

from bench._agentic_cases import TurnTrace
from bench._agentic_cases.script import FILES, act
from bench._agentic_language import answer_language
from bench._agentic_score import turn_flags

NOW = dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("There are 5 lines in daten.txt.", "en"),
        ("Il y a 6 lignes dans donnees.txt.", "fr"),
        ("Die Teambesprechung wurde auf Donnerstag verschoben.", "de"),
        ("Mi perro se llama Canela.", "es"),
        ("ファイルには5行あります。", "ja"),
        ('I saved the memory "Meine Kundennummer beim Stromanbieter lautet 9114."', "en"),
        ('I wrote "山本さんの荷物を受け取る" to your memo file.', "en"),
        ("La commande est `ls -la /tmp/des/fichiers`, elle liste le dossier.", "fr"),
        ("The meeting is with 山田さん tomorrow at the office.", "en"),  # a name in kana
    ],
)
def test_the_language_of_the_answers_own_words(text: str, language: str) -> None:
    assert answer_language(text) == language


@pytest.mark.parametrize(
    "text",
    [
        "Brunhilde",
        "`ln -s version_3 aktuell`",
        '"Mi perro se llama Canela."',
        "宿題一覧 英語 数学",  # ideographs alone: Japanese or Chinese
        "3/4 kg = 750 g",
        "I've written hello.txt.",  # a file's name is no word
        "",
    ],
)
def test_too_little_of_its_own_to_tell(text: str) -> None:
    assert answer_language(text) is None


def test_a_turn_answered_in_another_language_is_flagged() -> None:
    say = act("Schreib »Hallo« in a.txt", FILES)
    english = TurnTrace(say, "I wrote the greeting to a.txt for you.", [], NOW, NOW, "", None)
    german = TurnTrace(say, "Ich habe den Gruß in a.txt geschrieben.", [], NOW, NOW, "", None)
    flagged = turn_flags(english, missing=False, language="de")
    assert (flagged.said_in, flagged.other_language) == ("en", True)
    kept = turn_flags(german, missing=False, language="de")
    assert (kept.said_in, kept.other_language) == ("de", False)
