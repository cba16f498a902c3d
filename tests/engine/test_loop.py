"""The agent loop: model -> tools -> model ... -> answer."""

from __future__ import annotations

from collections.abc import Sequence

import anyio
import pytest

from agentd.config.settings import Switch
from agentd.engine.loop import REPEATED, AgentLoop
from agentd.engine.notes import ANSWER_NOW, REMINDER_HEAD
from agentd.engine.turnstate import StepPlan
from agentd.errors import LLMUnavailable, ToolError
from agentd.memory.recall import NOTHING
from agentd.messages import Conversation, Message, system, user
from agentd.model.choice import CallRule
from agentd.tools.registry import ToolRegistry
from tests.engine.guards.conftest import make_state
from tests.support.fake_model import FakeModel, answer

pytestmark = pytest.mark.anyio


#: The small-model rules these tests turn on (FakeModel is no grammar-held local model).
CHECK: dict[str, Switch] = {"check_calls": "on"}
EARLIER: dict[str, Switch] = {"answered_earlier": "on"}


def make_registry() -> ToolRegistry:
    reg = ToolRegistry(default_timeout=10)

    async def echo_tool(text: str) -> str:
        """Echo the text back.

        Args:
            text: What to echo.
        """
        return f"echoed {text}"

    reg.add(echo_tool)
    return reg


def conversation() -> Conversation:
    return Conversation([system("be brief"), user("hi")])


def assert_consistent(messages: Sequence[Message]) -> None:
    """Every assistant tool_calls message is followed by exactly its tool results."""
    for i, message in enumerate(messages):
        if message.tool_calls:
            ids = [c.id for c in message.tool_calls]
            results = messages[i + 1 : i + 1 + len(ids)]
            assert [m.role for m in results] == ["tool"] * len(ids), messages
            assert [m.tool_call_id for m in results] == ids
        if message.role == "tool":
            assert any(
                message.tool_call_id in [c.id for c in m.tool_calls] for m in messages[:i]
            ), messages


async def test_plain_answer() -> None:
    """Without tool calls the first answer is final and appended."""
    model = FakeModel()
    model.add(answer("hello", usage=(5, 2)))
    conv = conversation()
    result = await AgentLoop(model, make_registry()).run(conv)
    assert result.message.content == "hello" and result.steps == 1
    assert result.usage.prompt_tokens == 5 and result.usage.completion_tokens == 2
    assert conv.messages[-1] is result.message and result.added == [result.message]
    request = model.requests[0]
    assert request.tools is not None and request.tool_names == {"echo_tool"}
    assert not request.stream


async def test_tool_loop_appends_calls_and_results() -> None:
    """Requested tools run, their results are appended, and the model is called again."""
    model = FakeModel()
    model.add(answer("", ("echo_tool", '{"text": "a"}'), usage=(3, 1)), answer("done"))
    seen_tools: list[tuple[str, bool]] = []
    sup = AgentLoop(model, make_registry(), on_tool=lambda n, e, s: seen_tools.append((n, e)))
    conv = conversation()
    result = await sup.run(conv)
    assert result.message.content == "done" and result.steps == 2
    assert result.usage.prompt_tokens == 4
    assert [m.role for m in conv] == ["system", "user", "assistant", "tool", "assistant"]
    assert conv.messages[3].content == "echoed a" and conv.messages[3].tool_call_id == "call_0"
    # After the results comes a reminder of the request (sent, never stored).
    sent = model.requests[1].messages
    assert [m.role for m in sent][-3:] == ["assistant", "tool", "user"]
    assert sent[-1].content.startswith(REMINDER_HEAD) and "my request above" in sent[-1].content
    assert len(result.added) == 3 and seen_tools == [("echo_tool", False)]
    assert_consistent(conv.messages)


async def test_looking_tools_run_concurrently() -> None:
    """Calls of one answer that only look run at the same time."""
    reg = ToolRegistry(default_timeout=10)
    first, second = anyio.Event(), anyio.Event()

    async def left() -> str:
        """Wait for right."""
        first.set()
        await second.wait()
        return "left done"

    async def right() -> str:
        """Wait for left."""
        second.set()
        await first.wait()
        return "right done"

    reg.add(left, looks=True)
    reg.add(right, looks=True)
    model = FakeModel()
    model.add(answer("", ("left", "{}"), ("right", "{}")), answer("both"))
    conv = conversation()
    with anyio.fail_after(5):
        await AgentLoop(model, reg).run(conv)
    # Run one after the other, each would wait for the other until the tool timeout.
    assert [m.content for m in conv.messages[3:5]] == ["left done", "right done"]
    assert_consistent(conv.messages)


async def test_calls_of_one_answer_that_act_run_in_order() -> None:
    """ "Count, append, count again" written as one answer: the calls run one after the
    other as written, and the second count, after the append, runs again (run together, the
    two counts were one, taken beside the append). An append written twice in a row runs once."""
    reg = ToolRegistry(default_timeout=10)
    lines: list[str] = []
    ran: list[str] = []

    async def count() -> str:
        """Count the lines."""
        ran.append("count")
        await anyio.sleep(0.01)
        return str(len(lines))

    async def append(text: str) -> str:
        """Append a line.

        Args:
            text: The line.
        """
        ran.append("append")
        lines.append(text)
        return "appended"

    reg.add(count, looks=True)
    reg.add(append)
    model = FakeModel()
    calls = [("count", "{}"), ("append", '{"text": "x"}'), ("append", '{"text":"x"}')]
    model.add(answer("", *calls, ("count", "{}")), answer("1 then 2"))
    lines.append("a")
    conv = conversation()
    with anyio.fail_after(5):
        await AgentLoop(model, reg).run(conv)
    assert ran == ["count", "append", "count"]
    results = [m.content for m in conv.messages[3:7]]
    assert results[0] == "1" and results[1] == "appended" and results[3] == "2"
    assert results[2].startswith(REPEATED) and lines == ["a", "x"]
    assert_consistent(conv.messages)


async def test_invalid_tool_json_becomes_an_error_result() -> None:
    """Invalid arguments do not crash the turn: the model sees an error tool result."""
    model = FakeModel()
    model.add(answer("", ("echo_tool", "{not json"), ("ghost", "{}")), answer("sorry"))
    conv = conversation()
    result = await AgentLoop(model, make_registry()).run(conv)
    assert result.message.content == "sorry"
    bad_json, unknown = conv.messages[3], conv.messages[4]
    assert bad_json.role == "tool" and "not valid JSON" in bad_json.content
    assert bad_json.metadata == {"error": True}
    assert "unknown tool 'ghost'" in unknown.content
    assert_consistent(conv.messages)


async def test_max_steps_bounds_the_loop() -> None:
    """A model always asking for tools gets max_steps calls, the last without tools."""
    model = FakeModel(fallback=lambda msgs: answer("again", ("echo_tool", '{"text": "x"}')))
    conv = conversation()
    result = await AgentLoop(model, make_registry(), max_steps=3).run(conv)
    assert len(model.requests) == 3 and result.steps == 3
    assert model.requests[0].tools and model.requests[1].tools
    assert model.requests[2].tools is None and model.requests[2].tool_names == frozenset()
    assert not result.message.tool_calls
    assert conv.messages[-1] is result.message
    assert_consistent(conv.messages)


async def test_streaming_forwards_deltas() -> None:
    """With stream=True run() forwards each text delta before it returns the answer."""
    model = FakeModel()
    model.add(answer("four five"))
    got: list[str] = []

    async def on_delta(text: str) -> None:
        got.append(text)

    result = await AgentLoop(model, make_registry()).run(
        conversation(), stream=True, on_delta=on_delta
    )
    assert got == ["four", " five"] and result.message.content == "four five"
    assert model.requests[-1].stream


async def test_use_tools_false_offers_none() -> None:
    """use_tools=False calls the model without tools."""
    model = FakeModel()
    await AgentLoop(model, make_registry()).run(conversation(), use_tools=False)
    assert model.requests[0].tools is None and model.requests[0].tool_names == frozenset()


async def test_the_conversation_keeps_whether_the_first_step_offered_tools() -> None:
    """A session's prompt is read ahead after a summary with or without the tools, as its
    last turn's first step was sent (they change how the prompt begins)."""
    model = FakeModel()
    conv = conversation()
    await AgentLoop(model, make_registry()).run(conv, use_tools=False)
    assert conv.first_step_tools is False
    model.add(answer("", ("echo_tool", '{"text": "a"}')), answer("done"))
    conv.append(user("again"))
    await AgentLoop(model, make_registry()).run(conv)
    assert model.requests[-2].tools and conv.first_step_tools is True


async def test_on_append_gets_whole_units_before_memory() -> None:
    """on_append receives each assistant tool_calls message together with its results."""
    model = FakeModel()
    model.add(answer("", ("echo_tool", '{"text": "a"}')), answer("done"))
    units: list[list[str]] = []
    conv = conversation()

    async def on_append(messages: Sequence[Message]) -> None:
        units.append([m.role for m in messages])
        assert messages[0] not in conv.messages

    await AgentLoop(model, make_registry()).run(conv, on_append=on_append)
    assert units == [["assistant", "tool"], ["assistant"]]


async def test_cancelled_turn_leaves_no_half_exchange() -> None:
    """Cancelling a turn while its tools run leaves no tool_calls message without results."""
    reg = make_registry()
    started = anyio.Event()

    async def hang() -> str:
        """Never returns."""
        started.set()
        await anyio.sleep_forever()
        return ""

    reg.add(hang)
    model = FakeModel()
    model.add(answer("", ("echo_tool", '{"text": "a"}'), ("hang", "{}")))
    conv = conversation()
    sup = AgentLoop(model, reg)
    async with anyio.create_task_group() as tg:
        tg.start_soon(sup.run, conv)
        await started.wait()
        tg.cancel_scope.cancel()
    assert [m.role for m in conv] == ["system", "user"]
    assert_consistent(conv.messages)


async def test_failed_model_call_leaves_no_half_exchange() -> None:
    """A model error after a tool round propagates; whole exchanges stay, nothing half."""
    model = FakeModel()
    model.add(answer("", ("echo_tool", '{"text": "a"}')), LLMUnavailable("down"))
    conv = conversation()
    with pytest.raises(LLMUnavailable):
        await AgentLoop(model, make_registry()).run(conv)
    assert [m.role for m in conv] == ["system", "user", "assistant", "tool"]
    assert_consistent(conv.messages)


async def test_failed_persist_leaves_memory_untouched() -> None:
    """When on_append fails, the unit is not added to the in-memory conversation either."""
    model = FakeModel()
    model.add(answer("", ("echo_tool", '{"text": "a"}')))

    async def on_append(messages: Sequence[Message]) -> None:
        raise OSError("disk full")

    conv = conversation()
    with pytest.raises(OSError, match="disk full"):
        await AgentLoop(model, make_registry()).run(conv, on_append=on_append)
    assert [m.role for m in conv] == ["system", "user"]


async def test_empty_registry_offers_no_tools() -> None:
    """An agent loop without tools sends no tool schemas."""
    model = FakeModel()
    await AgentLoop(model).run(conversation())
    assert model.requests[0].tools is None


async def test_max_steps_without_text_says_so_when_streaming() -> None:
    """When the last step brings only tool calls, the user is told the turn stopped."""
    from agentd.engine.loop import STEPS_EXHAUSTED

    model = FakeModel(fallback=lambda msgs: answer("", ("echo_tool", '{"text": "x"}')))
    conv = conversation()
    got: list[str] = []

    async def on_delta(text: str) -> None:
        got.append(text)

    loop = AgentLoop(model, make_registry(), max_steps=2)
    result = await loop.run(conv, stream=True, on_delta=on_delta)
    assert got == [STEPS_EXHAUSTED] and result.message.content == STEPS_EXHAUSTED
    assert_consistent(conv.messages)


async def test_first_step_offers_given_schemas_and_runs_nothing() -> None:
    model = FakeModel()
    model.add(answer("", ("mul", '{"a": 2, "b": 3}')))
    schema = {
        "type": "function",
        "function": {"name": "mul", "description": "Multiply.", "parameters": {"type": "object"}},
    }
    loop = AgentLoop(model, make_registry())
    convo = conversation()
    result = await loop.first_step(convo, schemas=[schema])
    assert [c.name for c in result.message.tool_calls] == ["mul"]
    assert model.requests[0].tools == [schema]
    assert model.requests[0].tool_names == frozenset({"mul"})
    assert len(convo.messages) == 2  # nothing appended, nothing run


def counting_registry(*, looks: bool = False) -> tuple[ToolRegistry, list[str]]:
    reg = ToolRegistry(default_timeout=10)
    ran: list[str] = []

    async def lookup(key: str) -> str:
        """Look a key up.

        Args:
            key: What to look up.
        """
        ran.append(key)
        if key == "bad":
            raise ValueError("no such key")
        return f"value of {key}"

    reg.add(lookup, looks=looks)
    return reg, ran


async def test_an_empty_answer_after_tools_is_asked_for_again_without_tools() -> None:
    model = FakeModel()
    model.add(answer("", ("lookup", '{"key": "a"}')), answer(""), answer("It is value of a."))
    registry, _ = counting_registry()
    conv = conversation()
    result = await AgentLoop(model, registry).run(conv)
    assert result.message.content == "It is value of a."
    retry = model.requests[2]
    assert retry.tools is None and retry.answer_only
    assert retry.messages[-1].role == "user" and "Answer" in retry.messages[-1].content
    # The nudge is not part of the conversation, and the empty answer was not stored.
    assert [m.role for m in conv.messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert_consistent(conv.messages)


@pytest.mark.parametrize("stream", [False, True])
async def test_empty_twice_is_answered_from_the_tool_results(stream: bool) -> None:
    model = FakeModel()
    model.add(answer("", ("lookup", '{"key": "a"}')), answer(""), answer(" "))
    registry, _ = counting_registry()
    deltas: list[str] = []

    async def on_delta(text: str) -> None:
        deltas.append(text)

    result = await AgentLoop(model, registry).run(conversation(), stream=stream, on_delta=on_delta)
    assert "value of a" in result.message.content and result.message.content.startswith("(")
    assert len(model.requests) == 3
    if stream:
        assert "".join(deltas).strip() == result.message.content


async def test_an_empty_plain_answer_is_asked_for_once_more() -> None:
    model = FakeModel()
    model.add(answer("   "), answer("Hello!"))
    registry, _ = counting_registry()
    result = await AgentLoop(model, registry).run(conversation())
    assert result.message.content == "Hello!"
    assert model.requests[1].answer_only and model.requests[1].tools is None


async def test_a_repeated_call_is_not_run_again_and_the_next_step_answers() -> None:
    model = FakeModel()
    model.add(
        answer("", ("lookup", '{"key": "a"}')),
        answer("", ("lookup", '{ "key":"a" }')),  # the same call, spelled differently
        answer("value of a"),
    )
    registry, ran = counting_registry()
    conv = conversation()
    result = await AgentLoop(model, registry).run(conv)
    assert ran == ["a"]
    repeated = conv.messages[5]
    assert repeated.role == "tool" and "not run again" in repeated.content
    assert "value of a" in repeated.content
    assert model.requests[2].tools is None and model.requests[2].answer_only
    assert result.message.content == "value of a"
    assert_consistent(conv.messages)


async def test_a_failed_call_may_be_repeated_once() -> None:
    """A failed call runs again when asked (the failure may pass); failing the same way twice,
    the next step answers."""
    model = FakeModel()
    model.add(
        answer("", ("lookup", '{"key": "bad"}')),
        answer("", ("lookup", '{"key": "bad"}')),
        answer("it failed twice"),
    )
    registry, ran = counting_registry()
    await AgentLoop(model, registry).run(conversation())
    assert ran == ["bad", "bad"]
    assert model.requests[1].tools is not None  # the first failure may be tried again
    assert model.requests[2].tools is None and model.requests[2].answer_only


async def test_a_step_of_an_old_result_and_old_failures_is_answered_next() -> None:
    """The same failing call three times beside a call already answered brings nothing new:
    the next step answers, with no tools."""
    bad = ("lookup", '{"key": "bad"}')
    model = FakeModel()
    model.add(
        answer("", ("lookup", '{"key": "a"}'), bad),
        answer("", ("lookup", '{"key": "a"}'), bad, bad, bad),
        answer("a is value of a; bad failed"),
    )
    registry, ran = counting_registry(looks=True)
    conv = conversation()
    await AgentLoop(model, registry).run(conv)
    assert ran == ["a", "bad", "bad"]
    assert model.requests[2].tools is None and model.requests[2].answer_only
    assert_consistent(conv.messages)


async def test_the_same_call_twice_in_one_step_runs_once() -> None:
    model = FakeModel()
    model.add(answer("", ("lookup", '{"key": "a"}'), ("lookup", '{"key": "a"}')), answer("ok"))
    registry, ran = counting_registry()
    conv = conversation()
    await AgentLoop(model, registry).run(conv)
    assert ran == ["a"]
    results = [m.content for m in conv.messages if m.role == "tool"]
    assert results == ["value of a", f"{REPEATED}\nvalue of a"]
    assert_consistent(conv.messages)


async def test_recalled_memories_go_with_the_request_but_are_not_stored() -> None:
    model = FakeModel()
    model.add(answer("", ("echo_tool", '{"text": "a"}')), answer("May 8."))
    asked: list[str] = []

    async def recall(text: str) -> str | None:
        asked.append(text)
        return "(Remembered:\n- Emil's birthday is on May 8.)"

    conv = conversation()
    await AgentLoop(model, make_registry(), recall=recall).run(conv)
    assert asked == ["hi"]
    for request in model.requests:  # every step of the turn sees it
        shown = next(m for m in request.messages if m.role == "user")
        assert shown.content.startswith("(Remembered:") and shown.content.endswith("\n\nhi")
    assert conv.messages[1].content == "hi"  # stored as the user wrote it


async def test_nothing_recalled_is_said_except_to_a_caller_s_own_tools() -> None:
    """The note that nothing matches goes with a user's request (a small model made up what it
    was never told), not with a turn on a caller's own tools (it asks about its functions)."""

    async def recall(text: str) -> str | None:
        return NOTHING

    model = FakeModel()
    model.add(answer("I do not know."))
    await AgentLoop(model, make_registry(), recall=recall).run(conversation())
    assert model.requests[0].messages[-1].content == f"{NOTHING}\n\nhi"
    client = [{"type": "function", "function": {"name": "area", "parameters": {}}}]
    model = FakeModel()
    model.add(answer("", ("area", "{}")))
    await AgentLoop(model, make_registry(), recall=recall).run(conversation(), client_tools=client)
    assert model.requests[0].messages[-1].content == "hi"


async def test_a_failing_recall_does_not_cost_the_turn() -> None:
    model = FakeModel()
    model.add(answer("fine"))

    async def recall(text: str) -> str | None:
        raise RuntimeError("index gone")

    result = await AgentLoop(model, make_registry(), recall=recall).run(conversation())
    assert result.message.content == "fine"
    assert model.requests[0].messages[-1].content == "hi"


async def test_no_recall_without_tools() -> None:
    model = FakeModel()
    asked: list[str] = []

    async def recall(text: str) -> str | None:
        asked.append(text)
        return "note"

    await AgentLoop(model, make_registry(), recall=recall).run(conversation(), use_tools=False)
    assert asked == []


async def test_check_calls_no_means_an_answer_in_words() -> None:
    model = FakeModel()
    model.add(answer("", ("lookup", '{"key": "2+2"}')), answer("4"))
    model.choices.append("no")
    registry, ran = counting_registry()
    conv = conversation()
    result = await AgentLoop(model, registry, guards=CHECK).run(conv)
    assert result.message.content == "4"
    assert model.requests[1].tools is None and model.requests[1].answer_only
    [question] = model.asked
    assert '"hi"' in question[-1].content and "lookup" in question[-1].content
    assert [m.role for m in conv.messages] == ["system", "user", "assistant"]  # nothing ran
    assert ran == []


async def test_check_calls_yes_or_unsure_runs_them() -> None:
    for choice in ("yes", None):
        model = FakeModel()
        model.add(answer("", ("echo_tool", '{"text": "a"}')), answer("done"))
        model.choices.append(choice)
        conv = conversation()
        await AgentLoop(model, make_registry(), guards=CHECK).run(conv)
        assert [m.role for m in conv.messages][-2:] == ["tool", "assistant"]


async def test_check_calls_off_asks_nothing() -> None:
    model = FakeModel()
    model.add(answer("", ("echo_tool", '{"text": "a"}')), answer("done"))
    await AgentLoop(model, make_registry()).run(conversation())
    assert model.asked == []


async def test_first_step_applies_the_check() -> None:
    model = FakeModel()
    model.add(answer("", ("echo_tool", '{"text": "a"}')), answer("in words"))
    model.choices.append("no")
    result = await AgentLoop(model, make_registry(), guards=CHECK).first_step(conversation())
    assert result.message.content == "in words" and not result.message.tool_calls


async def test_a_required_call_is_not_second_guessed() -> None:
    """tool_choice "required" (or a named tool): the call runs without the yes/no check, the
    rule goes with the first step only, and one-call-per-step goes with every step."""
    model = FakeModel()
    model.add(answer("", ("echo_tool", '{"text": "a"}')), answer("done"))
    model.choices.append("no")
    rule = CallRule(name="echo_tool", single=True)
    conv = conversation()
    await AgentLoop(model, make_registry(), guards=CHECK).run(conv, rule=rule)
    assert model.asked == []
    assert [m.role for m in conv.messages][-3:] == ["assistant", "tool", "assistant"]
    assert [r.rule for r in model.requests] == [rule, CallRule(single=True)]


async def test_one_call_per_step_keeps_the_first() -> None:
    model = FakeModel()
    model.add(
        answer("", ("echo_tool", '{"text": "a"}'), ("echo_tool", '{"text": "b"}')), answer("ok")
    )
    conv = conversation()
    await AgentLoop(model, make_registry()).run(conv, rule=CallRule(single=True))
    assert [m.content for m in conv.messages if m.role == "tool"] == ["echoed a"]


async def test_a_call_failing_as_before_makes_the_next_step_answer() -> None:
    """The same failure again (the same missing file read at another offset): no third try."""
    reg = ToolRegistry(default_timeout=10)
    tried: list[int] = []

    async def read_file(path: str, offset: int = 0) -> str:
        """Read a file.

        Args:
            path: The file.
            offset: Where to start.
        """
        tried.append(offset)
        raise ToolError(f"no file {path!r} in the workdir")

    reg.add(read_file)
    model = FakeModel()
    model.add(
        answer("", ("read_file", '{"path": "n.md"}')),
        answer("", ("read_file", '{"path": "n.md", "offset": 100}')),
        answer("There is no n.md."),
    )
    result = await AgentLoop(model, reg).run(conversation())
    assert tried == [0, 100] and result.message.content == "There is no n.md."
    assert model.requests[2].answer_only and model.requests[2].tools is None


NARRATED = (
    "Done. I checked it with the lookup tool:\n"
    '{{"name": "lookup", "arguments": {"key": "b"}}}}\nIt said value of b.'
)


async def test_calls_written_out_in_an_answer_after_tools_are_asked_for_again() -> None:
    """The model told of a call it never made, written out mid-answer: once more, in words."""
    model = FakeModel()
    model.add(answer("", ("lookup", '{"key": "a"}')), answer(NARRATED), answer("It is value of a."))
    model.add(answer(NARRATED))
    registry, ran = counting_registry()
    conv = conversation()
    result = await AgentLoop(model, registry).run(conv)
    assert result.message.content == "It is value of a." and ran == ["a"]
    retry = model.requests[2]
    assert retry.tools is None and retry.answer_only
    assert retry.messages[-1].content.startswith(ANSWER_NOW)
    assert [m.role for m in conv.messages] == ["system", "user", "assistant", "tool", "assistant"]


FENCED = (
    'Let me look at the results:\n\n```json\n{\n  "name": "lookup",\n  "arguments": '
    '{"key": "a"}\n}\n```\n\nIt is value of a.'
)


async def test_calls_in_an_answer_are_asked_for_again_once_and_only_after_tools() -> None:
    model = FakeModel()
    model.add(answer("", ("lookup", '{"key": "a"}')), answer(NARRATED), answer(FENCED))
    registry, _ = counting_registry()
    conv = conversation()
    result = await AgentLoop(model, registry).run(conv)
    # Written again: the calls are cut out of what is returned and kept.
    assert result.message.content == "Let me look at the results:\n\nIt is value of a."
    assert conv.messages[-1].content == result.message.content and len(model.requests) == 3
    model = FakeModel()
    model.add(answer("", ("lookup", '{"key": "a"}')), answer(NARRATED), answer(NARRATED))
    result = await AgentLoop(model, counting_registry()[0]).run(conversation())
    assert (
        result.message.content == "Done. I checked it with the lookup tool:\n\nIt said value of b."
    )
    model = FakeModel()
    model.add(answer("", ("lookup", '{"key": "a"}')), answer(NARRATED))
    model.add(answer('{"name": "lookup", "arguments": {"key": "a"}}'))
    result = await AgentLoop(model, counting_registry()[0]).run(conversation())
    assert "value of a" in result.message.content  # nothing left: from the results
    # No tool ran: a call shown in an answer is what was asked for ("show me a call").
    model = FakeModel()
    model.add(answer(NARRATED))
    result = await AgentLoop(model, counting_registry()[0]).run(conversation())
    assert result.message.content == NARRATED and len(model.requests) == 1


def chatted() -> Conversation:
    """A session that opened with unrelated chat, then asks for a lookup."""
    return Conversation(
        [
            system("be brief"),
            user("What is the capital of France? One word."),
            Message(role="assistant", content="Paris"),
            user("And what does key a hold?"),
        ]
    )


@pytest.mark.parametrize("stream", [False, True])
async def test_an_answer_to_an_earlier_question_is_asked_again_with_the_turn_alone(
    stream: bool,
) -> None:
    """After the tool ran, the model answered the session's first question again: once more,
    the earlier turns left out of that call (the system prompt kept), no tools."""
    model = FakeModel()
    model.add(
        answer("", ("lookup", '{"key": "a"}')),
        answer("The capital of France is Paris."),
        answer("Key a holds value of a."),
    )
    registry, ran = counting_registry()
    conv = chatted()
    deltas: list[str] = []

    async def on_delta(text: str) -> None:
        deltas.append(text)

    loop = AgentLoop(model, registry, guards=EARLIER)
    result = await loop.run(conv, stream=stream, on_delta=on_delta)
    assert result.message.content == "Key a holds value of a." and ran == ["a"]
    retry = model.requests[2]
    assert retry.tools is None and retry.answer_only
    assert [m.role for m in retry.messages] == ["system", "user", "assistant", "tool", "user"]
    assert retry.messages[1].content == "And what does key a hold?"
    assert retry.messages[-1].content.startswith(REMINDER_HEAD)
    assert "my request above" in retry.messages[-1].content  # the request just above it
    # The first step saw the whole session; what is stored is the session plus the turn.
    assert "capital of France" in model.requests[0].messages[1].content
    assert [m.content for m in conv.messages][-1] == "Key a holds value of a."
    assert len(conv.messages) == 7  # the off answer is not kept
    if stream:  # held back until the guards passed it: what streamed is what is stored
        assert "".join(deltas) == "Key a holds value of a."


async def test_an_answer_to_an_earlier_question_is_asked_again_once_only() -> None:
    model = FakeModel()
    model.add(
        answer("", ("lookup", '{"key": "a"}')),
        answer("The capital of France is Paris."),
        answer("Paris is the capital of France."),
    )
    result = await AgentLoop(model, counting_registry()[0], guards=EARLIER).run(chatted())
    assert result.message.content == "Paris is the capital of France." and len(model.requests) == 3


async def test_an_answer_using_the_turn_or_without_tools_is_left_as_it_is() -> None:
    model = FakeModel()
    model.add(answer("", ("lookup", '{"key": "a"}')), answer("It holds value of a."))
    result = await AgentLoop(model, counting_registry()[0], guards=EARLIER).run(chatted())
    assert result.message.content == "It holds value of a." and len(model.requests) == 2
    # No tool ran: an answer about Paris is the model's own choice (it may be right).
    model = FakeModel()
    model.add(answer("The capital of France is Paris."))
    result = await AgentLoop(model, counting_registry()[0], guards=EARLIER).run(chatted())
    assert result.message.content == "The capital of France is Paris." and len(model.requests) == 1


async def test_what_memory_recalled_counts_as_the_turns_own() -> None:
    """An answer that uses only the recalled memory is not one to an earlier question, even
    when an earlier turn spoke of the same thing."""
    model = FakeModel()
    model.add(answer("", ("lookup", '{"key": "a"}')), answer("Sencha, as you told me."))

    async def recall(text: str) -> str | None:
        return "(Remembered:\n- My favourite tea is sencha.)"

    conv = Conversation(
        [
            system("be brief"),
            user("Sencha or rooibos?"),
            Message(role="assistant", content="Sencha is green."),
            user("And what does key a hold?"),
        ]
    )
    loop = AgentLoop(model, counting_registry()[0], recall=recall)
    result = await loop.run(conv)
    assert result.message.content == "Sencha, as you told me." and len(model.requests) == 2


@pytest.mark.parametrize(
    ("may_act", "noted"),
    [
        pytest.param(None, True, id="undecided"),
        pytest.param(False, True, id="asks"),
        pytest.param(True, False, id="acts"),
    ],
)
def test_a_turn_that_acts_goes_without_the_recall_note(may_act: bool | None, noted: bool) -> None:
    """The recalled copy of the request is sent unless the intent guard decided the turn acts
    ("remember that ..." turns carrying a note searched memory instead of saving)."""
    state = make_state("Merke dir: meine Katze heißt Pelusa.")
    request = state.conversation.messages[-1]
    state.recalled = (request, user(f"(Remembered:\n- a dog)\n\n{request.content}"))
    state.may_act = may_act
    plan = StepPlan(tools=[], names=frozenset(), rule=state.rule)
    sent = AgentLoop._shaped(state, plan, state.conversation.messages)
    assert sent[-1].content.startswith("(Remembered:") is noted
