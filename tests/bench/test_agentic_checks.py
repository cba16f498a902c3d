"""The agentic benchmark's detectors, on the faults of the original report and their near misses."""

from __future__ import annotations

import pytest

from bench._agentic_checks import (
    Call,
    action_ran,
    canonical_arguments,
    claimed_action,
    is_empty,
    leaked_call,
    mentions,
    repeated_calls,
    turn_calls,
)

TOOLS = ("current_time", "read_file", "write_file", "list_dir", "memory_save", "memory_search")


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param('{{"name": "current_time", "arguments": {}}}}', id="doubled-braces"),
        pytest.param(
            'Let me check the time.\n```json\n{"name": "current_time", "arguments": '
            '{"timezone": "Asia/Tokyo"}}\n```',
            id="fenced-after-prose",
        ),
        pytest.param(
            'Sure.\n```json\n{"name": "list_dir"}\n```', id="fenced-name-without-arguments"
        ),
        pytest.param(
            '<tools><function name=current_time arguments=\'{"timezone": "UTC"}\'/></tools>',
            id="tools-function-tag",
        ),
        pytest.param(
            '<tool_call>\n{"name": "write_file", "arguments": {"path": "a.txt"}}\n</tool_call>',
            id="tool_call-block",
        ),
        pytest.param("I will call <tool_call>", id="unclosed-tag"),
        pytest.param(
            'The call is {"name": "memory_save", "parameters": {"content": "x"}}', id="parameters"
        ),
        pytest.param('current_time(timezone="Asia/Tokyo")', id="python-style"),
        pytest.param('{"tool_calls": [{"id": "1"}]}', id="openai-shape"),
    ],
)
def test_leaked_calls_are_found(answer: str) -> None:
    """Each form of a tool call written as text from the report is recognised."""
    assert leaked_call(answer, TOOLS) is not None


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param("It is Tuesday in Tokyo.", id="prose"),
        pytest.param('```json\n{"port": 8080}\n```', id="fenced-json-without-name"),
        pytest.param("Use {{ name }} in the Jinja template.", id="jinja-braces"),
        pytest.param('Your name is "Ana" and the file says hello.', id="quoted-words"),
        pytest.param("The files are notes.txt, todo.txt and a.md.", id="file-names"),
        pytest.param("", id="empty"),
    ],
)
def test_plain_answers_are_not_leaks(answer: str) -> None:
    """Ordinary answers, JSON without a call shape and template braces are no leaked calls."""
    assert leaked_call(answer, TOOLS) is None


@pytest.mark.parametrize(
    ("answer", "empty"),
    [
        pytest.param("", True, id="blank"),
        pytest.param("  \n\t", True, id="whitespace"),
        pytest.param("...", True, id="punctuation"),
        pytest.param("4", False, id="digit"),
        pytest.param("Buenos días", False, id="words"),
    ],
)
def test_empty_answers(answer: str, empty: bool) -> None:
    """An answer without a letter or digit is empty."""
    assert is_empty(answer) is empty


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param("hello.py has been created with the content.", id="has-been-created"),
        pytest.param("I've saved your note to memory.", id="ive-saved"),
        pytest.param("I have successfully written the file.", id="have-successfully-written"),
        pytest.param("I wrote it to notes.txt.", id="i-wrote"),
        pytest.param("Your note was saved to notes.txt.", id="was-saved-to"),
        pytest.param("The birthday is now stored.", id="is-now-stored"),
        pytest.param("Done! The line is in todo.txt.", id="done"),
        pytest.param("Saved.", id="saved"),
        pytest.param("OK. Appended the line to log.txt.", id="appended-sentence-start"),
        pytest.param("I\u2019ve noted that.", id="curly-apostrophe"),
    ],
)
def test_claims_of_actions_are_found(answer: str) -> None:
    """Saying something was saved, written, created... is a claim of an action."""
    assert claimed_action(answer) is not None


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param("I have not saved anything yet.", id="negated"),
        pytest.param("The note has not been saved.", id="has-not-been"),
        pytest.param("Would you like me to save it to a file?", id="offer"),
        pytest.param("I'll remember that.", id="future"),
        pytest.param("2 + 2 = 4.", id="arithmetic"),
        pytest.param("The timeout in app.conf is 42 seconds.", id="info"),
        pytest.param("Buenos días means good morning.", id="translation"),
        pytest.param("I see you added a file earlier.", id="someone-else-added"),
    ],
)
def test_non_claims(answer: str) -> None:
    """Offers, negations, the future tense and plain facts claim nothing."""
    assert claimed_action(answer) is None


def test_turn_calls_pairs_results_and_failures() -> None:
    """Calls come in order with their results; an error result or a missing one is a failure."""
    rows = [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "a", "name": "read_file", "arguments": '{"path": "x"}'},
                {"id": "b", "name": "memory_save", "arguments": '{"content": "y"}'},
            ],
        },
        {"role": "tool", "tool_call_id": "a", "content": "no file", "metadata": {"error": True}},
        {"role": "tool", "tool_call_id": "b", "content": "memory unavailable: down"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c", "name": "list_dir"}]},
        {"role": "assistant", "content": "done"},
    ]
    calls = turn_calls(rows)
    assert [(c.name, c.failed) for c in calls] == [
        ("read_file", True),
        ("memory_save", True),
        ("list_dir", True),
    ]
    assert calls[0].result == "no file"


@pytest.mark.parametrize(
    ("calls", "ran"),
    [
        pytest.param([Call("write_file", "{}")], True, id="write"),
        pytest.param([Call("memory_save", "{}", failed=True)], False, id="failed-save"),
        pytest.param([Call("read_file", "{}"), Call("list_dir", "{}")], False, id="reads-only"),
        pytest.param([Call("exec", "{}")], True, id="unknown-tool-acts"),
        pytest.param([], False, id="none"),
    ],
)
def test_action_ran(calls: list[Call], ran: bool) -> None:
    """Only a successful call of a tool that is not read-only backs a claim."""
    assert action_ran(calls) is ran


def test_repeated_calls() -> None:
    """A call repeating a successful one (same arguments, any key order) is counted; a retry
    after a failure is not."""
    calls = [
        Call("current_time", '{"timezone": "UTC"}'),
        Call("current_time", '{ "timezone" : "UTC" }'),
        Call("read_file", '{"path": "a", "offset": 0}', failed=True),
        Call("read_file", '{"offset": 0, "path": "a"}'),
        Call("read_file", '{"path": "b"}'),
        Call("read_file", '{"path": "a", "offset": 0}'),
    ]
    repeats = repeated_calls(calls)
    assert repeats == [calls[1], calls[5]]


def test_a_look_after_a_change_is_no_repeat() -> None:
    """A count or read made again after another call changed something is a new look; the
    same change twice in a row, or a look again with nothing changed, is a repeat."""
    count = Call("exec", '{"command": "wc -l a.txt"}', result="3 a.txt")
    add = Call("append_file", '{"path": "a.txt", "content": "x"}', result="appended")
    again = Call("exec", '{"command": "wc -l a.txt"}', result="4 a.txt")
    assert repeated_calls([count, add, again]) == []
    twice = Call("append_file", '{"path": "a.txt", "content": "x"}', result="appended")
    assert repeated_calls([add, twice]) == [twice]
    read = Call("read_file", '{"path": "a.txt"}', result="x")
    refused = Call("append_file", '{"path": "a.txt"}', result="no", failed=True)
    read_again = Call("read_file", '{"path": "a.txt"}', result="x")
    assert repeated_calls([read, refused, read_again]) == [read_again]


def test_canonical_arguments_of_broken_json() -> None:
    """Arguments that are not JSON compare as their stripped text."""
    assert canonical_arguments(' {"a": 1 ') == '{"a": 1'


def test_mentions_is_lenient_on_case_accents_and_spaces() -> None:
    """Matching ignores case, accents, curly quotes and repeated spaces."""
    assert mentions("¡Buenos  Días!", "buenos dias")
    assert mentions("It\u2019s in “notes”", 'it\'s in "notes"')
    assert not mentions("buenas tardes", "buenos dias")


@pytest.mark.parametrize(
    ("answer", "claims"),
    [
        pytest.param("Ich habe die Datei gespeichert.", True, id="de"),
        pytest.param("Die Zeile wurde angehängt.", True, id="de-passive"),
        pytest.param("Ich habe nichts gespeichert.", False, id="de-nichts"),
        pytest.param("Ich habe die Datei nicht gespeichert.", False, id="de-negated"),
        pytest.param("He guardado la nota en nota.txt.", True, id="es"),
        pytest.param("Listo, guardé tu color favorito.", True, id="es-listo"),
        pytest.param("No he guardado nada.", False, id="es-negated"),
        pytest.param("J'ai ajouté la ligne à courses.txt.", True, id="fr"),
        pytest.param("Je n'ai pas modifié le fichier.", False, id="fr-negated"),
        pytest.param("memo.txtに保存しました。", True, id="ja"),
        pytest.param("リマインダーを設定しました。", True, id="ja-set"),
        pytest.param("保存できませんでした。", False, id="ja-negated"),
        pytest.param("已保存到 memo.txt。", True, id="zh"),
        pytest.param("没有保存。", False, id="zh-negated"),
        pytest.param("Heute ist Dienstag.", False, id="de-fact"),
        pytest.param("La reunión se ha movido al viernes.", False, id="es-fact"),
    ],
)
def test_claims_are_read_in_every_language_of_the_suite(answer: str, claims: bool) -> None:
    """A claim of having done something is found in each language, a negated one is not."""
    assert (claimed_action(answer) is not None) is claims
