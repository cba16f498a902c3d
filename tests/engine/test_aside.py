"""Answers that go back to an earlier question of the session (agentd.engine.aside)."""

from __future__ import annotations

from agentd.engine.aside import answers_earlier
from agentd.messages import Message, ToolCall, assistant, system, tool_result, user

EARLIER = [
    system("Today is Wednesday. You are agentd."),
    user("What is the capital of France? One word."),
    assistant("Paris"),
    user("Give me one synonym for 'happy'."),
    assistant("Contentment"),
]
CALL = ToolCall(id="c1", name="current_time", arguments='{"timezone": "America/New_York"}')
TURN = [
    user("And what weekday is it now in New York?"),
    assistant("", [CALL]),
    tool_result(CALL, "2026-12-02 01:17:41 EST (Wednesday)"),
]


def test_an_answer_to_an_earlier_question_after_a_tool_is_found() -> None:
    assert answers_earlier("The capital of France is Paris.", EARLIER, TURN)
    assert answers_earlier("The capital of France is Paris. One word.", EARLIER, TURN)


def test_an_answer_that_uses_the_turn_is_not() -> None:
    for text in (
        "The current weekday in New York is Wednesday.",
        "It's Wednesday.",
        "Today is Wednesday, and Paris is the capital of France.",  # the result is in it
        "In New York it is the middle of the night.",  # the request's words
    ):
        assert not answers_earlier(text, EARLIER, TURN), text


def test_an_answer_of_no_telling_word_or_new_words_is_not() -> None:
    assert not answers_earlier("OK.", EARLIER, TURN)
    assert not answers_earlier("It is done!", EARLIER, TURN)
    # Nothing from earlier either: a bad answer maybe, but not this one.
    assert not answers_earlier("Bananas grow on plants.", EARLIER, TURN)


def test_the_system_prompt_and_the_calls_arguments_count_as_they_should() -> None:
    # Words only the system prompt holds are not "earlier questions".
    assert not answers_earlier("You are agentd.", EARLIER, TURN)
    # The call's arguments are the turn's ("America/New_York" -> america, new, york).
    saved = ToolCall(
        id="c2", name="memory_save", arguments='{"content": "sencha", "tags": ["tea"]}'
    )
    turn = [
        user("Please remember for the future: my favourite tea is sencha."),
        assistant("", [saved]),
        tool_result(saved, "saved memory 38377adcdf1d"),
    ]
    assert not answers_earlier("Noted: sencha.", EARLIER, turn)
    assert answers_earlier("The capital of France is Paris.", EARLIER, turn)
    assert not answers_earlier("The capital of France is Paris.", [], turn)


def test_tool_messages_of_earlier_turns_count_as_earlier() -> None:
    old = ToolCall(id="c0", name="read_file", arguments='{"path": "notes.txt"}')
    earlier: list[Message] = [
        user("What does notes.txt say?"),
        assistant("", [old]),
        tool_result(old, "water the plants"),
        assistant("It says to water the plants."),
    ]
    assert answers_earlier("Water the plants.", earlier, TURN)
