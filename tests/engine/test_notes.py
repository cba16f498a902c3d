"""The notes a turn sends after the conversation for one model call."""

from __future__ import annotations

import pytest

from agentd.engine.language import language_of
from agentd.engine.notes import (
    REMINDER_HEAD,
    UNNAMED,
    after_change_read,
    answer_now,
    not_done,
    nothing_to_read,
    reminder,
)
from tests.engine.guards.conftest import make_state


def test_the_reminder_points_to_the_request_without_quoting_it() -> None:
    """After tool results the request above is to be answered, in its language; it is not
    quoted again (tokens read on every answer after a tool). A bare step (no tool on offer)
    is not told it may call one."""
    state = make_state("Cuenta las líneas de datos.txt con wc y dime cuántas hay.")
    note = reminder(state, (("exec", '{"command": "wc -l datos.txt"}'),))
    assert note.content.startswith(REMINDER_HEAD)
    assert "my request above" in note.content and "in Spanish" in note.content
    assert "Cuenta" not in note.content
    assert "names" not in note.content  # the call used the named file
    assert "call another tool" in note.content
    assert "call another tool" not in reminder(state, bare=True).content


def test_the_reminder_names_the_files_the_calls_missed() -> None:
    """Calls that used none of the request's workdir files (a translated name) are followed
    by the names the request gave."""
    state = make_state("Cuenta las líneas de datos.txt con wc.")
    state.named = ("datos.txt",)
    note = reminder(state, (("exec", '{"command": "wc -l data.txt"}'),))
    assert "The files my request names: datos.txt." in note.content
    assert "names" not in reminder(state).content  # no calls: nothing to compare


@pytest.mark.parametrize(
    ("request_text", "asked"),
    [
        ("Cuenta las líneas de datos.txt con wc y dime cuántas hay.", "in Spanish"),
        ("Erinnere mich in zwei Stunden daran, den Zahnarzt anzurufen.", "in German"),
        ("自転車の鍵の番号を教えてください。", "in Japanese"),
        ("Hi!", UNNAMED),  # too short to tell: the request's own language, unnamed
    ],
)
def test_the_notes_ask_for_the_answer_in_the_requests_language(
    request_text: str, asked: str
) -> None:
    """Every note that asks for words names the request's language when it can be told
    (after English notes a small model answered in English)."""
    state = make_state(request_text)
    for note in (
        reminder(state),
        answer_now(state),
        not_done(state),
        nothing_to_read(state),
        after_change_read(state, ()),
    ):
        assert asked in note.content


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Rappelle-moi d'appeler le plombier dans deux heures.", "French"),
        ("这是一个测试。请告诉我今天的天气如何。", "Chinese"),
        ("這是一個測試。請告訴我今天的天氣如何。", "Traditional Chinese"),
        ("Hi!", None),
        ("Hola\udc80 ¿qué tal estás, amigo mío? Cuéntame cómo te va.", "Spanish"),  # a blank
    ],
)
def test_the_language_of_a_request(text: str, name: str | None) -> None:
    assert language_of(text) == name


@pytest.mark.parametrize(
    ("text", "name"),
    [
        pytest.param(
            "Comment dit-on « papillon » en anglais, s'il te plaît ?", "French", id="quote"
        ),
        pytest.param(
            "Agrega una línea al final de riego.txt con el domingo, porfa.", "Spanish", id="file"
        ),
        pytest.param(
            "Hola\x00 que tal estas, amigo mío? Cuéntame cómo te va.", "Spanish", id="nul"
        ),
        pytest.param(
            "Lee https://example.com/horarios.html?x=1 y dime qué dice sobre los horarios de hoy.",
            "Spanish",
            id="url",
        ),
        pytest.param(
            "Was bedeutet \x1b[31m dieser Fehler in meinem Terminal genau?", "German", id="ansi"
        ),
        pytest.param(
            "x" * 100_000 + " Erkläre mir bitte, was dieser Fehler bedeutet.", "German", id="long"
        ),
        pytest.param(
            '"x ' * 50_000 + " Erkläre mir bitte, was dieser Fehler bedeutet.",
            "German",
            id="unclosed-quotes",
        ),
    ],
)
def test_the_language_is_read_from_the_requests_own_words(text: str, name: str) -> None:
    """Quotes and files' names are someone else's words; characters CLD2 refuses are blanks;
    only the end of a long request is read."""
    assert language_of(text) == name


def test_a_file_name_inside_a_japanese_sentence_leaves_the_sentence() -> None:
    """Japanese writes no space around a name: only the name's Latin letters go."""
    assert language_of("app.confのtimeoutはいくつに設定されていますか。") == "Japanese"
