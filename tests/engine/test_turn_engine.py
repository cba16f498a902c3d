"""The turn engine as a whole: one request budget, the call cache, what streams, the rules'
switches and counters, summaries outside the loop."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentd.config.settings import AgentDefaults, GuardSettings, Settings, Switch
from agentd.engine import guards as rules
from agentd.engine.asking import Asker
from agentd.engine.guards.intent import ACTION, ANSWER, Intent
from agentd.engine.guards.plan import NONE
from agentd.engine.loop import REPEATED, REQUESTS_EXHAUSTED, AgentLoop
from agentd.engine.notes import ECHO_HEAD, OTHER_LANGUAGE_HEAD
from agentd.messages import Conversation, system, user
from agentd.metrics import Metrics
from agentd.model.choice import CallRule
from agentd.tools import policy as tool_policy
from agentd.tools.kinds import COMMAND, FILE
from agentd.tools.registry import ToolRegistry
from tests.support.fake_model import FakeModel, answer

pytestmark = pytest.mark.anyio


class LocalModel(FakeModel):
    """The scripted model, held to a grammar as a local llama-server's is."""

    async def grammar_enabled(self) -> bool:
        return True


def file_tools() -> tuple[ToolRegistry, dict[str, str], list[str]]:
    """read_file (looks) and write_file (acts) on a dict, and the calls made."""
    files: dict[str, str] = {"a.txt": "old"}
    calls: list[str] = []
    reg = ToolRegistry(default_timeout=10)

    async def read_file(path: str) -> str:
        """Read a file.

        Args:
            path: The file.
        """
        calls.append(f"read {path}")
        return files.get(path, "no such file")

    async def write_file(path: str, content: str) -> str:
        """Write a file.

        Args:
            path: The file.
            content: Its new text.
        """
        calls.append(f"write {path}")
        files[path] = content
        return f"wrote {path}"

    reg.add(read_file, looks=True, kind=FILE)
    reg.add(write_file, kind=FILE)
    return reg, files, calls


def chat(text: str) -> Conversation:
    return Conversation([system("be brief"), user(text)])


READ = ("read_file", '{"path": "a.txt"}')
WRITE = ("write_file", '{"path": "a.txt", "content": "new"}')


async def test_a_read_after_a_write_sees_the_new_text() -> None:
    """The call cache holds looks only until something acts: the second read runs again."""
    model = FakeModel()
    model.add(answer("", READ), answer("", WRITE), answer("", READ), answer("It says new."))
    reg, _, calls = file_tools()
    conv = chat("Change a.txt to new and show it.")
    result = await AgentLoop(model, reg).run(conv)
    assert calls == ["read a.txt", "write a.txt", "read a.txt"]
    assert conv.messages[-2].content == "new" and result.message.content == "It says new."


async def test_a_repeated_read_is_served_from_the_cache() -> None:
    model = FakeModel()
    model.add(answer("", READ), answer("", READ), answer("old"))
    reg, _, calls = file_tools()
    conv = chat("What is in a.txt?")
    await AgentLoop(model, reg).run(conv)
    assert calls == ["read a.txt"]
    assert conv.messages[-2].content.startswith(REPEATED)


async def test_an_acting_call_sent_twice_in_a_row_runs_once() -> None:
    """An append sent again right after itself would append twice: it is not run again."""
    model = FakeModel()
    model.add(answer("", WRITE), answer("", WRITE), answer("done"))
    reg, _, calls = file_tools()
    await AgentLoop(model, reg).run(chat("Write new to a.txt"))
    assert calls == ["write a.txt"]


async def test_the_request_budget_counts_every_request_and_says_when_it_ran_out() -> None:
    """max_requests bounds steps and questions together; the answer says so plainly."""
    model = LocalModel()
    model.choices.append("read_file, read_file")  # the plan (the intent: a look-up)
    model.add(answer("", READ), answer("", ("read_file", '{"path": "b.txt"}')))
    reg, _, _ = file_tools()
    seen: list[str] = []
    loop = AgentLoop(model, reg, max_requests=3, on_request=seen.append)
    result = await loop.run(chat("Lies a.txt und b.txt."))
    assert result.requests == 3 and seen == ["plan", "step", "step"]
    assert result.message.content == REQUESTS_EXHAUSTED.format(limit=3)
    assert len(model.requests) == 2


async def test_a_planned_change_and_the_read_again_both_run() -> None:
    """The plan (write, then read again), asked as the turn's one question, holds each step
    to its tool, with no routing question; after the last, the turn answers in words, shown
    no tool."""
    model = LocalModel()
    model.choices.append("write_file, read_file")
    model.add(answer("", WRITE), answer("", READ), answer("Jetzt steht dort new."))
    reg, _, calls = file_tools()
    seen: list[str] = []
    loop = AgentLoop(model, reg, on_request=seen.append)
    result = await loop.run(chat("Ändere a.txt zu new und lies sie dann noch einmal."))
    assert calls == ["write a.txt", "read a.txt"]
    assert result.message.content == "Jetzt steht dort new."
    assert seen == ["plan", "step", "step", "step"]
    assert [r.rule.name for r in model.requests] == ["write_file", "read_file", None]
    assert model.requests[-1].answer_only


def named_in(request: str) -> list[str]:
    """The workdir files a request names (a.txt and b.txt exist)."""
    return [name for name in ("a.txt", "b.txt") if name in request]


async def _mentioned(request: str) -> list[str]:
    return named_in(request)


@pytest.mark.parametrize(
    ("request_text", "seen", "read"),
    [
        pytest.param("Fasse a.txt zusammen.", ["plan", "step"], {"path": "a.txt"}, id="one-file"),
        pytest.param(
            "Vergleiche a.txt und b.txt.", ["plan", "step", "step"], {"path": "b.txt"}, id="two"
        ),
    ],
)
async def test_a_read_of_the_one_named_file_is_made_without_a_request(
    request_text: str, seen: list[str], read: dict[str, str]
) -> None:
    """A read held to the one file the request names leaves the model nothing to write: the
    loop makes the call itself (no model request); with two files named the model picks."""
    model = LocalModel()
    model.choices.append("read_file")
    if len(named_in(request_text)) > 1:
        model.add(answer("", ("read_file", '{"path": "b.txt"}')))
    model.add(answer("Darin steht old."))
    reg, _, calls = file_tools()
    sent: list[str] = []
    loop = AgentLoop(model, reg, on_request=sent.append, mentioned=_mentioned)
    result = await loop.run(chat(request_text))
    assert sent == seen and calls == [f"read {read['path']}"]
    assert result.message.content == "Darin steht old."
    [call] = [c for m in result.added for c in m.tool_calls]
    assert call.name == "read_file" and json.loads(call.arguments) == read


async def test_the_last_request_answers_in_words() -> None:
    """With one request left the step offers no tools."""
    model = FakeModel()
    model.add(answer("", READ), answer("old"))
    reg, _, _ = file_tools()
    result = await AgentLoop(model, reg, max_requests=2).run(chat("What is in a.txt?"))
    assert model.requests[1].tools is None and result.message.content == "old"


async def test_a_lookup_runs_no_acting_tool_on_a_local_model() -> None:
    """Planned a look-up (a read), the turn's steps never offer write_file (a summary writes
    nothing), and the question's tokens count in the turn's usage."""
    model = LocalModel()
    model.choices.append("read_file")
    model.add(answer("", READ), answer("It says old."))
    reg, files, calls = file_tools()
    result = await AgentLoop(model, reg).run(chat("Summarise a.txt in one line."))
    assert calls == ["read a.txt"] and files == {"a.txt": "old"}
    assert all("write_file" not in r.tool_names for r in model.requests)
    assert model.options[0] == ("none", "read_file", "write_file")
    assert result.usage.prompt_tokens == 2 + 2  # the question, the read and the answer


async def test_a_lookup_runs_its_planned_command_read_only() -> None:
    """Planned a command that the intent question finds a look-up ("count the lines with
    wc"), the command runs under the read-only grant (exec binds the workdir read-only);
    a change of the same kind asked for runs with the workdir writable."""
    seen: list[bool] = []
    reg, _, _ = file_tools()

    async def exec(command: str) -> str:
        """Run a command.

        Args:
            command: The command.
        """
        seen.append(tool_policy.current().exec_read_only)
        return "3 a.txt"

    reg.add(exec, kind=COMMAND)
    count = ("exec", '{"command": "wc -l a.txt"}')
    for word in ("lookup", "action"):
        model = LocalModel()
        model.choices.extend(["exec", word])
        model.add(answer("", count), answer("Three lines."))
        await AgentLoop(model, reg).run(chat("How many lines has a.txt? Count them with wc."))
    assert seen == [True, False]


async def test_under_a_grammar_every_request_shows_every_tool() -> None:
    """A step narrowed to some tools still shows them all (the prompt the server cached stays
    the same from step to step and turn to turn); the grammar holds its calls to those it
    offers."""
    model = LocalModel()
    model.choices.append("read_file")
    model.add(answer("", READ), answer("It says old."))
    reg, _, _ = file_tools()
    await AgentLoop(model, reg).run(chat("What does a.txt say?"))
    every = ["read_file", "write_file"]
    assert [[t["function"]["name"] for t in r.tools or ()] for r in model.requests] == [every] * 2
    first = model.requests[0]
    assert first.rule.name == "read_file" and first.rule.among == frozenset({"read_file"})
    assert [t["function"]["name"] for t in first.rule.narrow(first.tools or ())] == ["read_file"]


async def test_a_caller_s_own_tools_are_all_its_request_shows() -> None:
    """A caller that brings its own tools is shown those alone, under a grammar too: the
    daemon's own tools never enter its prompt."""
    model = LocalModel()
    model.add(answer("", ("area", '{"r": 2}')))
    reg, _, _ = file_tools()
    client = [{"type": "function", "function": {"name": "area", "parameters": {}}}]
    await AgentLoop(model, reg).run(chat("Area of a circle of radius 2?"), client_tools=client)
    assert [t["function"]["name"] for t in model.requests[0].tools or ()] == ["area"]


async def test_a_caller_s_function_it_names_is_still_the_model_s_to_call() -> None:
    """A function of the caller that its tool_choice names, with no argument to write, is
    still called by the model, not given by the loop (the caller asked its model to)."""
    model = LocalModel()
    model.add(answer("", ("now", "{}")))
    reg, _, _ = file_tools()
    client = [{"type": "function", "function": {"name": "now", "parameters": {}}}]
    result = await AgentLoop(model, reg).run(
        chat("What time is it?"), client_tools=client, rule=CallRule(name="now")
    )
    assert len(model.requests) == 1 and result.message.tool_calls[0].name == "now"


async def test_under_a_grammar_the_last_request_shows_the_tools_and_takes_words() -> None:
    """The last request of a turn offers no tool: under a grammar it still shows them, held
    to an answer in words; without one it is sent none."""
    # Under a grammar: the plan question, the read, the answer.
    for model, limit in ((LocalModel(), 3), (FakeModel(), 2)):
        model.choices.append("read_file")
        model.add(answer("", READ), answer("old"))
        reg, _, _ = file_tools()
        await AgentLoop(model, reg, max_requests=limit).run(chat("What is in a.txt?"))
        last = model.requests[-1]
        assert last.answer_only and last.tool_names == frozenset()
        assert (last.tools is not None) is isinstance(model, LocalModel)


async def test_under_a_grammar_an_answer_before_any_tool_ran_is_shown_none() -> None:
    """Found a request for words only, the answer is shown no tools at all (shown tools it
    could not call, the model wrote a call as text for its answer)."""
    model = LocalModel()
    model.choices.append(ANSWER)
    model.add(answer("Buenos días."))
    reg, _, _ = file_tools()
    await AgentLoop(model, reg).run(chat("Translate 'good morning' into Spanish."))
    assert model.requests[0].tools is None and model.requests[0].answer_only


async def test_a_step_held_to_a_call_that_comes_back_as_words_is_answered_again() -> None:
    """The plan held the step to read_file; the model wrote the call as unfinished text (the
    token cap): the turn asks for the answer in words, shown no tools, and ends with it."""
    model = LocalModel()
    model.choices.append("read_file")
    model.add(answer('{"name": "read_file", "arguments": {"path": "a.t'), answer("It says old."))
    reg, _, calls = file_tools()
    result = await AgentLoop(model, reg).run(chat("What is in a.txt?"))
    assert result.message.content == "It says old." and calls == []
    assert model.requests[0].rule.name == "read_file"
    assert model.requests[1].tools is None and model.requests[1].answer_only


async def test_an_answer_in_words_takes_one_question_and_one_step() -> None:
    """Found a request for words only, the turn makes two requests: the intent question and
    an answer offered no tool (no routing question, no call to check)."""
    model = LocalModel()
    model.choices.append(ANSWER)
    model.add(answer("Buenos días."))
    reg, _, calls = file_tools()
    result = await AgentLoop(model, reg).run(chat("Translate 'good morning' into Spanish."))
    assert result.message.content == "Buenos días." and calls == []
    step = model.requests[0]
    assert result.requests == 2 and step.answer_only and step.tool_names == frozenset()


async def test_a_capable_model_runs_only_the_structural_rules() -> None:
    """Not held to a grammar (a remote server), the model is asked nothing apart."""
    model = FakeModel()
    model.choices.extend(["no", ACTION])
    model.add(answer("", WRITE), answer("done"))
    reg, _, calls = file_tools()
    await AgentLoop(model, reg).run(chat("Write new to a.txt"))
    assert model.asked == [] and calls == ["write a.txt"]


async def test_what_streams_is_what_is_stored() -> None:
    """A reply a guard asks again for is never streamed: the client sees the stored answer."""
    model = FakeModel()
    model.add(
        answer("", READ),
        answer('It says {"name": "read_file", "arguments": {"path": "a.txt"}}'),
        answer("It says old."),
    )
    reg, _, _ = file_tools()
    deltas: list[str] = []

    async def on_delta(text: str) -> None:
        deltas.append(text)

    conv = chat("What is in a.txt?")
    result = await AgentLoop(model, reg).run(conv, stream=True, on_delta=on_delta)
    assert "".join(deltas) == result.message.content == "It says old."
    assert conv.messages[-1].content == "It says old."


async def test_an_answer_that_repeats_the_request_is_asked_again_and_never_streamed() -> None:
    """After the read, the model wrote the request back: asked once more in words, the second
    answer is the one streamed and stored."""
    request = "Sum up what happened at the meeting, the notes are in a.txt."
    model = LocalModel()
    model.choices.append("read_file")
    model.add(answer("", READ), answer(request), answer("Nothing yet: it says old."))
    reg, _, _ = file_tools()
    deltas: list[str] = []

    async def on_delta(text: str) -> None:
        deltas.append(text)

    conv = chat(request)
    result = await AgentLoop(model, reg).run(conv, stream=True, on_delta=on_delta)
    assert "".join(deltas) == result.message.content == "Nothing yet: it says old."
    assert ("echo", "retry") in result.fired and conv.messages[-1].content == deltas[0]
    assert model.requests[-1].messages[-1].content.startswith(ECHO_HEAD)


GERMAN = (
    "Wie lange fährt der Zug von Köln nach Berlin, wenn er um 9:40 abfährt und um 13:05 ankommt?"
)
IN_GERMAN = "Der Zug von Köln nach Berlin braucht drei Stunden und fünfundzwanzig Minuten."
IN_ENGLISH = "The train from Cologne to Berlin takes three hours and twenty-five minutes."


async def test_an_answer_in_the_request_s_language_streams_once_its_language_is_told() -> None:
    """Held while the answer-language rule may ask again, the answer goes on to the client
    as soon as its first words are told to be German: no question, the rest word by word."""
    model = LocalModel()
    model.choices.append(NONE)  # the plan: no tool
    model.add(answer(IN_GERMAN))
    deltas: list[str] = []

    async def on_delta(text: str) -> None:
        deltas.append(text)

    loop = AgentLoop(model, file_tools()[0])
    result = await loop.run(chat(GERMAN), stream=True, on_delta=on_delta)
    assert "".join(deltas) == result.message.content == IN_GERMAN
    assert len(deltas[0].split()) > 1 and len(deltas) > 2 and deltas[-1] == " Minuten."
    assert len(model.asked) == 1 and result.fired == [("plan", "none"), ("intent", "answer")]


async def test_an_answer_in_another_language_is_asked_again_and_never_streamed() -> None:
    """An English answer to a German question that asks for no English text (the model says):
    shown again to be written in German; only that answer streams and is stored."""
    model = LocalModel()
    model.choices.extend([NONE, "words"])
    model.add(answer(IN_ENGLISH), answer(IN_GERMAN))
    deltas: list[str] = []

    async def on_delta(text: str) -> None:
        deltas.append(text)

    seen: list[str] = []
    loop = AgentLoop(model, file_tools()[0], on_request=seen.append)
    conv = chat(GERMAN)
    result = await loop.run(conv, stream=True, on_delta=on_delta)
    assert "".join(deltas) == result.message.content == IN_GERMAN
    assert conv.messages[-1].content == IN_GERMAN and IN_ENGLISH not in "".join(deltas)
    assert result.fired[-1] == ("answer_language", "retry")
    assert seen == ["plan", "step", "language", "step"]
    note = model.requests[-1].messages[-1].content
    assert note.startswith(OTHER_LANGUAGE_HEAD.format(written="English"))
    assert model.requests[-1].tools is None


async def test_a_plain_answer_streams_as_it_is_written() -> None:
    model = FakeModel()
    model.add(answer("one two three"))
    deltas: list[str] = []

    async def on_delta(text: str) -> None:
        deltas.append(text)

    await AgentLoop(model, file_tools()[0]).run(chat("hi"), stream=True, on_delta=on_delta)
    assert deltas == ["one", " two", " three"]


async def test_rules_fired_are_counted_by_guard_and_verdict() -> None:
    metrics = Metrics()
    model = FakeModel()
    model.add(answer(""), answer("words"))
    loop = AgentLoop(model, file_tools()[0], on_guard=metrics.on_guard)
    result = await loop.run(chat("hi"))
    assert result.fired == [("empty", "retry")]
    value = metrics.registry.get_sample_value(
        "agentd_turn_guard_total", {"guard": "empty", "verdict": "retry"}
    )
    assert value == 1


@pytest.mark.parametrize(
    ("local", "switches", "expected"),
    [
        pytest.param(
            False,
            {},
            {"client_tools", "empty", "calls_in_answer", "repeats", "write_paths"}
            - {"write_paths"},
            id="remote",
        ),
        pytest.param(True, {}, set(rules.NAMES), id="local"),
        pytest.param(
            True,
            {"route": "off", "claims": "off"},
            set(rules.NAMES) - {"route", "claims"},
            id="local-off",
        ),
        pytest.param(
            False,
            {"check_calls": "on"},
            {"client_tools", "empty", "calls_in_answer", "repeats", "check_calls"},
            id="remote-on",
        ),
    ],
)
def test_the_rules_that_run(local: bool, switches: dict[str, Switch], expected: set[str]) -> None:
    """auto runs the structural rules for every model and the small-model rules only for a
    local one; on and off override."""

    async def named(request: str) -> list[str]:
        return []

    built = rules.build(Asker(FakeModel()), switches, local=local, mentioned=named)
    assert built.names == expected


@pytest.mark.parametrize(("plan", "by_plan"), [("auto", True), ("off", False)])
def test_with_the_plan_rule_the_intent_is_asked_by_the_plan(plan: Switch, by_plan: bool) -> None:
    """One question a turn: with the plan rule on, the intent rule asks the plan question."""
    built = rules.build(Asker(FakeModel()), {"plan": plan}, local=True)
    [intent] = [p for p in built.planners if isinstance(p, Intent)]
    assert intent.by_plan is by_plan


def test_the_plan_rule_runs_only_with_the_intent_rule() -> None:
    """Only the intent rule asks for a plan: with it off, the plan rule does not run."""
    built = rules.build(Asker(FakeModel()), {"intent": "off", "plan": "on"}, local=True)
    assert "plan" not in built.names and "intent" not in built.names


def test_every_rule_has_a_setting_and_a_place_in_the_order() -> None:
    assert set(GuardSettings.model_fields) == set(rules.NAMES)
    assert set(rules.NAMES) == {
        *rules.PLANNERS,
        *rules.BY_INTENT,
        *rules.ANSWER_GUARDS,
        *rules.AFTER_TOOL,
    }


def test_deprecated_keys_still_turn_rules_off() -> None:
    defaults = AgentDefaults(check_calls=False, route_tools="on", read_first=False)
    switches = defaults.guard_switches()
    assert switches["check_calls"] == "off" and switches["route"] == "on"
    assert switches["read_first"] == "off" and switches["claims"] == "auto"
    nested = Settings(default={"guards": {"intent": "off"}})  # type: ignore[arg-type]
    assert nested.default.guard_switches()["intent"] == "off"


async def test_a_summary_is_one_plain_request() -> None:
    """A summary is one model request without tools, never the loop's fallback text."""
    model = FakeModel()
    model.add(answer("- likes tea"))
    kinds: list[str] = []
    loop = AgentLoop(model, file_tools()[0], on_request=kinds.append)
    assert await loop.summarize(chat("Summarize this")) == "- likes tea"
    assert kinds == ["summary"] and model.requests[0].tools is None


@pytest.mark.parametrize("reply", [answer(""), answer("", READ)])
async def test_a_reply_that_is_no_summary_is_an_error(reply: Any) -> None:
    model = FakeModel()
    model.add(reply)
    with pytest.raises(ValueError, match="not a summary"):
        await AgentLoop(model, file_tools()[0]).summarize(chat("Summarize this"))


@pytest.mark.parametrize("stream", [False, True])
async def test_each_step_tells_the_model_which_calls_end_it_when_written_again(
    stream: bool,
) -> None:
    """The looking tools go with every step's rule (agentd.model.repeats): a read written a
    second time in one step ends the step; an act written twice is two acts."""
    model = FakeModel()
    model.add(answer("", READ), answer("It says old."))
    reg, _, _ = file_tools()
    loop = AgentLoop(model, reg)
    if stream:

        async def delta(text: str) -> None:
            del text

        await loop.run(chat("What is in a.txt?"), stream=True, on_delta=delta)
    else:
        await loop.run(chat("What is in a.txt?"))
    assert [r.rule.once for r in model.requests] == [frozenset({"read_file"})] * 2
    assert [r.stream for r in model.requests] == [stream] * 2
