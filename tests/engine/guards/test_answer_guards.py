"""The answer guards: empty, calls in the answer, answered earlier, claims, check calls."""

from __future__ import annotations

from typing import Any

import pytest

from agentd.engine.asking import Asker
from agentd.engine.guards.answered_earlier import AnsweredEarlier, answers_earlier, tokens
from agentd.engine.guards.base import ACCEPT, Replace, Retry
from agentd.engine.guards.calls_in_answer import CallsInAnswer
from agentd.engine.guards.check_calls import CHECK_SYSTEM, CheckCalls
from agentd.engine.guards.claims import Claims
from agentd.engine.guards.empty import FROM_RESULTS, NO_ANSWER, Empty
from agentd.engine.guards.read_first import READ_FIRST
from agentd.engine.notes import ANSWER_NOW, NOT_DONE_HEAD
from agentd.messages import ToolCall, assistant, tool_result, user
from agentd.model import pinning
from agentd.model.choice import CallRule
from tests.engine.guards.conftest import KINDS, make_plan, make_state
from tests.support.fake_model import FakeModel

pytestmark = pytest.mark.anyio


def ran(state, name: str, result: str, *, error: bool = False) -> None:  # type: ignore[no-untyped-def]
    """Add a step that called ``name`` and its result to the turn."""
    call = ToolCall("c1", name, '{"path": "a.txt"}')
    messages = [assistant("", [call]), tool_result(call, result, error=error)]
    state.conversation.extend(messages)
    state.added.extend(messages)


async def test_empty_asks_again_once_then_answers_from_the_results() -> None:
    """An empty answer: once more in words, then the tool results stand in."""
    state = make_state("hi")
    ran(state, "read_file", "the file's text")
    guard = Empty()
    first = await guard.judge(state, make_plan(state), assistant("  "))
    assert isinstance(first, Retry) and first.next.bare
    assert first.next.notes[0].content.startswith(ANSWER_NOW)
    second = await guard.judge(state, make_plan(state), assistant(""))
    assert isinstance(second, Replace) and second.message.content.startswith(FROM_RESULTS)
    assert await guard.judge(state, make_plan(state), assistant("words")) is ACCEPT


async def test_empty_without_results_says_so() -> None:
    state = make_state("hi")
    state.retried.add("empty")
    verdict = await Empty().judge(state, make_plan(state), assistant(""))
    assert isinstance(verdict, Replace) and verdict.message.content == NO_ANSWER


async def test_calls_written_in_an_answer_are_asked_again_then_cut() -> None:
    """After tools ran, a call written out in prose: once more in words, then cut out."""
    state = make_state("What is in a.txt?")
    ran(state, "read_file", "hello")
    text = 'It says hello.\n```json\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n```'
    guard = CallsInAnswer()
    assert guard.holds(state, make_plan(state))
    first = await guard.judge(state, make_plan(state), assistant(text))
    assert isinstance(first, Retry) and first.next.bare
    second = await guard.judge(state, make_plan(state), assistant(text))
    assert isinstance(second, Replace) and second.message.content == "It says hello."


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('{"name ": "read_file", "arguments": {"path": "a.txt"}}', id="blank-in-key"),
        pytest.param('Done: {"name": "read.file", "arguments ": {}}', id="dotted-name"),
    ],
)
async def test_calls_written_loosely_are_found_too(text: str) -> None:
    """A call with blanks in its keys or dots for underscores is a call in the answer."""
    state = make_state("What is in a.txt?")
    ran(state, "read_file", "hello")
    verdict = await CallsInAnswer().judge(state, make_plan(state), assistant(text))
    assert isinstance(verdict, Retry)


async def test_calls_in_answer_stays_out_before_tools_ran() -> None:
    """No tool ran: a call written in the answer may be an example the user asked for."""
    state = make_state("Show me an example call of read_file, do not run it.")
    text = '{"name": "read_file", "arguments": {"path": "a.txt"}}'
    guard = CallsInAnswer()
    assert not guard.holds(state, make_plan(state))
    assert await guard.judge(state, make_plan(state), assistant(text)) is ACCEPT


async def test_a_broken_call_on_a_step_held_to_a_call_is_asked_again_in_words() -> None:
    """Held to a call, the step came back as words writing one, cut off at the token cap: a
    broken call, asked for once more in words (with no tool results to point at), then cut."""
    state = make_state("How tall is Tokyo Tower?")
    plan = make_plan(state)
    plan.rule = CallRule(name="read_file")
    text = '```json\n{\n  "name": "read_file",\n  "arguments": {\n    "path": "%E5%88%97%E5%88%97'
    guard = CallsInAnswer()
    assert guard.holds(state, plan)
    first = await guard.judge(state, plan, assistant(text))
    assert isinstance(first, Retry) and first.next.bare
    assert first.next.notes[0].content.startswith(ANSWER_NOW)
    assert "tool results" not in first.next.notes[0].content
    second = await guard.judge(state, plan, assistant(text))
    assert isinstance(second, Replace) and second.message.content == NO_ANSWER


@pytest.mark.parametrize(
    ("earlier_q", "earlier_a", "request_text", "result", "answer", "expected"),
    [
        pytest.param(
            "What is the capital of France?",
            "Paris.",
            "And what weekday is it in New York?",
            "Wednesday 2026-12-02",
            "The capital of France is Paris.",
            True,
            id="en-earlier",
        ),
        pytest.param(
            "What is the capital of France?",
            "Paris.",
            "And what weekday is it in New York?",
            "Wednesday 2026-12-02",
            "It is Wednesday in New York.",
            False,
            id="en-own",
        ),
        pytest.param(
            "Was ist die Hauptstadt von Frankreich?",
            "Paris.",
            "Welcher Wochentag ist heute in Tokio?",
            "Donnerstag 2026-12-03",
            "Die Hauptstadt von Frankreich ist Paris.",
            True,
            id="de-earlier",
        ),
        pytest.param(
            "フランスの首都はどこですか？",
            "パリです。",
            "東京は今何曜日ですか？",
            "木曜日 2026-12-03",
            "フランスの首都はパリです。",
            True,
            id="ja-earlier",
        ),
        pytest.param(
            "フランスの首都はどこですか？",
            "パリです。",
            "東京は今何曜日ですか？",
            "木曜日 2026-12-03",
            "東京は今日、木曜日です。",
            False,
            id="ja-own",
        ),
    ],
)
def test_answers_earlier_in_several_languages(
    earlier_q: str, earlier_a: str, request_text: str, result: str, answer: str, expected: bool
) -> None:
    """Found by the words the answer shares with the session and not the turn, any script."""
    call = ToolCall("c1", "current_time", "{}")
    earlier = [user(earlier_q), assistant(earlier_a)]
    turn = [user(request_text), assistant("", [call]), tool_result(call, result)]
    assert answers_earlier(answer, earlier, turn) is expected


def test_tokens_split_cjk_runs_into_pairs() -> None:
    assert tokens("東京は") == {"東京", "京は"}
    assert tokens("Hello, World") == {"hello", "world"}


async def test_answered_earlier_asks_again_with_the_turn_alone_once() -> None:
    history = [user("What is the capital of France?"), assistant("Paris.")]
    state = make_state("And what weekday is it in New York?", history=history)
    ran(state, "current_time", "Wednesday")
    guard = AnsweredEarlier()
    verdict = await guard.judge(state, make_plan(state), assistant("The capital is Paris."))
    assert isinstance(verdict, Retry) and verdict.next.bare
    assert verdict.next.alone is not None and verdict.next.alone.content.startswith("And what")
    again = await guard.judge(state, make_plan(state), assistant("The capital is Paris."))
    assert again is ACCEPT


async def test_claims_routes_once_when_an_action_was_asked_and_none_ran() -> None:
    """The model found an action; only a look ran: once more, routed, never a demanded call."""
    state = make_state("Ändere in config.ini debug=true zu debug=false.", kinds=KINDS)
    state.may_act = True
    state.doing = frozenset({"write_file", "append_file"})
    ran(state, "read_file", "debug=true")
    guard = Claims()
    verdict = await guard.judge(state, make_plan(state), assistant("Erledigt."))
    assert isinstance(verdict, Retry) and verdict.next.route and not verdict.next.bare
    assert verdict.next.notes[0].content.startswith(NOT_DONE_HEAD)
    assert await guard.judge(state, make_plan(state), assistant("Erledigt.")) is ACCEPT


@pytest.mark.parametrize(
    ("may_act", "acting_ran"),
    [
        pytest.param(False, False, id="question"),
        pytest.param(None, False, id="unknown"),
        pytest.param(True, True, id="done"),
    ],
)
async def test_claims_stays_out(may_act: bool | None, acting_ran: bool) -> None:
    """A question, an undecided request, or an action that ran: the answer stands."""
    state = make_state("Summarise notes.md")
    state.may_act = may_act
    state.doing = frozenset({"write_file"})
    ran(state, "write_file" if acting_ran else "read_file", "ok")
    assert await Claims().judge(state, make_plan(state), assistant("Saved.")) is ACCEPT


async def test_check_calls_no_asks_for_words() -> None:
    """Asked whether the calls are needed, a no: the step is asked again in words."""
    model = FakeModel()
    model.choices.append("no")
    state = make_state("What's 2+2?")
    reply = assistant("", [ToolCall("c1", "exec", '{"command": "echo 4"}')])
    verdict = await CheckCalls(Asker(model)).judge(state, make_plan(state), reply)
    assert isinstance(verdict, Retry) and verdict.next.bare
    assert model.asked[0][0].content == CHECK_SYSTEM and "2+2" in model.asked[0][1].content


async def test_check_calls_asks_apart_from_the_session_s_slot() -> None:
    """The check question's prompt shares nothing with the session's: it goes to the quick
    slot, so the session's cached prompt is still there for the next step."""
    seen: list[int | None] = []

    class Model(FakeModel):
        async def choose(self, *args: Any, **kwargs: Any) -> str | None:
            seen.append(pinning.current())
            return "yes"

    state = make_state("What time is it?")
    reply = assistant("", [ToolCall("c1", "current_time", "{}")])
    with pinning.use(0, lambda: 2, 3):
        await CheckCalls(Asker(Model())).judge(state, make_plan(state), reply)
    assert seen == [3]


@pytest.mark.parametrize("word", ["yes", None])
async def test_check_calls_yes_or_unsure_lets_them_run(word: str | None) -> None:
    model = FakeModel()
    model.choices.append(word)
    state = make_state("What time is it?")
    reply = assistant("", [ToolCall("c1", "current_time", "{}")])
    assert await CheckCalls(Asker(model)).judge(state, make_plan(state), reply) is ACCEPT


@pytest.mark.parametrize(
    ("may_act", "route", "planned", "checked"),
    [
        pytest.param(True, "write_file", (), False, id="action-routed"),
        pytest.param(None, "web_fetch", (), False, id="unknown-routed"),
        pytest.param(False, "web_fetch", (), True, id="question-routed"),
        pytest.param(False, READ_FIRST, (), False, id="question-read-first"),
        pytest.param(False, "web_fetch", ("web_fetch",), False, id="question-planned"),
    ],
)
async def test_check_calls_on_routed_steps(
    may_act: bool | None, route: str, planned: tuple[str, ...], checked: bool
) -> None:
    """A routed step is checked only in a turn the model found to ask for words (it routed
    "What is the capital of France?" to web_fetch); never a read held by read_first, nor a
    step held to the tool the model planned for the request."""
    model = FakeModel()
    model.choices.append("no")
    state = make_state("What is the capital of France?")
    state.may_act = may_act
    state.planned = planned
    plan = make_plan(state)
    plan.route = route
    plan.rule = CallRule(name="web_fetch")
    reply = assistant("", [ToolCall("c1", "web_fetch", '{"url": "https://example.com"}')])
    verdict = await CheckCalls(Asker(model)).judge(state, plan, reply)
    assert isinstance(verdict, Retry) is checked and bool(model.asked) is checked


async def test_claims_routes_among_the_tools_of_what_the_request_changes() -> None:
    """An action of a kind the model named (remember) answered without any action is routed
    among that kind's acting tools, never every acting tool (a fact went to notes.txt)."""
    state = make_state("Remember: my locker is 12.", kinds=KINDS)
    state.may_act = True
    state.doing = frozenset({"memory_save"})
    verdict = await Claims().judge(state, make_plan(state), assistant("Noted!"))
    assert isinstance(verdict, Retry) and verdict.next.tools == frozenset({"memory_save"})


async def test_claims_stays_out_of_actions_of_no_kind() -> None:
    """An action the model named no kind for (a command, several things) answered without
    any action: the answer stands (routed among every acting tool, a request to show a
    command wrote a file)."""
    state = make_state("What command would delete the .log files? Just show it.", kinds=KINDS)
    state.may_act = True
    assert await Claims().judge(state, make_plan(state), assistant("rm *.log")) is ACCEPT
