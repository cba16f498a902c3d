"""The context budget: what is sent fits, drops in large steps, recovers from overflows."""

from __future__ import annotations

import dataclasses
import json

import pytest

from agentd.config import AgentDefaults
from agentd.engine.budget import (
    ContextBudget,
    TokenCounter,
    budget_for,
    chars_of,
    effective_defaults,
)
from agentd.engine.loop import AgentLoop
from agentd.engine.policy import SessionPolicy, window
from agentd.engine.runtime import TOO_LONG, Runtime
from agentd.errors import ContextExceeded, ContextOverflow
from agentd.messages import Conversation, Message, ToolCall, assistant, system, tool_result, user
from agentd.tools.registry import ToolRegistry
from tests.support.fake_model import FakeModel, answer

pytestmark = pytest.mark.anyio


def turns(n: int, size: int = 400) -> list[Message]:
    out: list[Message] = []
    for i in range(n):
        out += [user(f"q{i} " + "x" * size), assistant(f"a{i} " + "y" * size)]
    return out


def budget(context: int = 1000, reserve: int = 100) -> ContextBudget:
    return ContextBudget(context=context, reserve=reserve, counter=TokenCounter(4.0))


def test_everything_is_sent_when_it_fits() -> None:
    """A conversation within the room goes out whole."""
    conv = Conversation([system("sys"), *turns(2, 100), user("now")])
    assert budget().fit(conv) == conv.messages


def test_overflow_drops_old_messages_in_one_large_step() -> None:
    """Over the room, old exchanges go down to half of it at once; the stored list stays."""
    b = budget()
    conv = Conversation([system("sys"), *turns(8), user("now")])
    stored = list(conv.messages)
    sent = b.fit(conv)
    assert conv.messages == stored
    assert sent[0].role == "system" and sent[-1].content == "now"
    assert b.tokens(sent[1:]) <= b.room() // 2 + 1
    assert sent[1].role == "user"


def test_the_prefix_stays_the_same_while_it_fits() -> None:
    """The next turns start from the same first message until the room is full again."""
    b = budget()
    conv = Conversation([system("sys"), *turns(8), user("now")])
    first = b.fit(conv)[1]
    for i in range(2):
        conv.messages += [assistant(f"answer {i}"), user(f"next {i}")]
        assert b.fit(conv)[1] is first


def test_a_leading_summary_is_kept() -> None:
    """The compaction summary leading a session is sent even when older messages are not."""
    summary = assistant("Summary of the earlier conversation:\n- facts")
    summary.metadata["summary"] = True
    conv = Conversation([system("sys"), summary, *turns(8), user("now")])
    sent = budget().fit(conv)
    assert sent[1] is summary and sent[2].role == "user" and len(sent) < len(conv.messages)


def test_a_cut_never_starts_inside_a_tool_exchange() -> None:
    """Tool results leave with the call that asked for them."""
    call = ToolCall("c1", "read_file", "{}")
    exchange = [assistant("", [call]), tool_result(call, "z" * 1500), assistant("done")]
    conv = Conversation([system("sys"), user("q"), *exchange, *turns(3), user("now")])
    sent = budget().fit(conv)
    assert sent[1].role != "tool"
    assert all(
        m.role != "tool" or sent[i - 1].tool_calls or sent[i - 1].role == "tool"
        for i, m in enumerate(sent)
    )


def test_a_message_that_cannot_fit_raises() -> None:
    """The newest user message alone over the room is a ContextOverflow, not a server 400."""
    conv = Conversation([system("sys"), user("x" * 10_000)])
    with pytest.raises(ContextOverflow) as caught:
        budget().fit(conv)
    assert caught.value.limit == 1000 and caught.value.needed > 1000


def test_tool_schemas_take_their_room() -> None:
    """The room shrinks by the tool schemas offered."""
    b = budget()
    schemas = [{"type": "function", "function": {"name": "f", "description": "d" * 800}}]
    assert b.room(schemas) < b.room() - 150


def test_calibration_believes_denser_text_at_once() -> None:
    """A server counting more tokens than estimated lowers chars/token at once; fewer, slowly."""
    counter = TokenCounter(4.0)
    counter.calibrate(chars=1000, prompt_tokens=500)
    assert counter.chars_per_token == 2.0
    counter.calibrate(chars=1000, prompt_tokens=200)
    assert 2.0 < counter.chars_per_token < 3.0


@pytest.mark.parametrize(
    ("given", "server", "expected"),
    [
        pytest.param({}, 8192, 8192, id="unset-follows-server"),
        pytest.param({"max_tokens": 2048}, 8192, 2048, id="set-is-honoured"),
        pytest.param({"max_tokens": 16384}, 8192, 8192, id="never-above-server"),
        pytest.param({}, None, 4096, id="unknown-server"),
    ],
)
def test_effective_context(given: dict[str, int], server: int | None, expected: int) -> None:
    """max_tokens follows the server's context unless set, and never exceeds it."""
    defaults = effective_defaults(AgentDefaults(**given), server)
    assert defaults.max_tokens == expected
    assert defaults.effective_threshold == int(0.75 * expected)


def test_answer_reserve_is_bounded() -> None:
    """The answer reserve is the server's cap (or the setting), at most a quarter."""
    assert budget_for(AgentDefaults(max_tokens=8192), 1024).reserve == 1024
    assert budget_for(AgentDefaults(max_tokens=2048), 1024).reserve == 512
    assert budget_for(AgentDefaults(max_tokens=8192, answer_tokens=300)).reserve == 300


def test_stepped_window_cuts_to_half() -> None:
    """The session window, when it overflows, keeps about half of max_messages at once,
    starting at a user message."""
    messages = [system("sys"), *turns(4, 1)]
    kept = window(messages, 6, step=True)
    assert len(kept) == 1 + 4 and kept[1].role == "user"
    assert len(window(messages, 8, step=True)) == 1 + 8


def _runtime(model: FakeModel, context: int = 1000) -> Runtime:
    defaults = AgentDefaults(max_tokens=context, answer_tokens=100)
    loop = AgentLoop(model, ToolRegistry(), budget=budget_for(defaults))
    return Runtime(loop, system_prompt="SYS", defaults=defaults, sessions=SessionPolicy())


async def test_server_overflow_is_retried_with_less() -> None:
    """A "context exceeded" answer: the count tightens and the call is retried once."""
    model = FakeModel()
    model.add(ContextExceeded(400, limit=1000, requested=1400), answer("fine"))
    async with _runtime(model) as runtime:
        for i in range(3):
            model.add(answer(f"a{i}"))
        result = await runtime.ask("s", "hello")
    assert result.message.content == "fine"
    first, second = model.requests[0].messages, model.requests[1].messages
    assert chars_of(second) <= chars_of(first)


async def test_a_message_too_long_gets_a_clear_answer_and_the_session_goes_on() -> None:
    """A paste larger than the context is answered plainly; the next turn works."""
    model = FakeModel(fallback=lambda msgs: answer("ok"))
    async with _runtime(model) as runtime:
        result = await runtime.ask("s", "x" * 50_000)
        assert result.message.content.startswith(TOO_LONG.split("{")[0])
        assert model.requests == []
        after = await runtime.ask("s", "a short question")
        assert after.message.content == "ok"
        sent = model.requests[-1].messages
        assert sent[-1].content == "a short question"
        assert all(len(m.content) < 50_000 for m in sent)
        history = await runtime.history("s")
    assert [m.role for m in history] == ["system", "user", "assistant", "user", "assistant"]


async def test_repeated_server_overflow_ends_as_a_clear_answer() -> None:
    """A server that refuses twice: the turn answers plainly instead of failing."""
    model = FakeModel()
    exceeded = ContextExceeded(400, limit=1000, requested=1200)
    model.add(exceeded, exceeded)
    async with _runtime(model) as runtime:
        result = await runtime.ask("s", "hello")
    assert "context" in result.message.content


async def test_a_huge_tool_result_is_cut_to_fit() -> None:
    """A tool result larger than the room is cut, with a marker, and the next call fits."""
    tools = ToolRegistry()

    async def dump() -> str:
        """Return a lot of text."""
        return "line of output\n" * 20_000

    tools.add(dump)
    model = FakeModel()
    model.add(answer("", ("dump", "{}")), answer("done"))
    defaults = AgentDefaults(max_tokens=2000, answer_tokens=100)
    loop = AgentLoop(model, tools, budget=budget_for(defaults))
    conv = Conversation([system("sys"), user("dump it")])
    result = await loop.run(conv)
    (cut,) = [m for m in result.added if m.role == "tool"]
    assert len(cut.content) < 4000 and "more characters" in cut.content
    assert result.message.content == "done"


def test_overflow_says_what_takes_the_room() -> None:
    """When instructions and tools leave little room, the error says so (not "more than the
    context" for a short message)."""
    schemas = [{"type": "function", "function": {"name": "f", "description": "d" * 2400}}]
    conv = Conversation([system("sys"), user("x" * 1200)])
    with pytest.raises(ContextOverflow) as caught:
        budget().fit(conv, schemas)
    assert caught.value.needed < 1000 and caught.value.room is not None
    assert "tool descriptions" in str(caught.value) and f"only {caught.value.room}" in str(
        caught.value
    )


@pytest.mark.anyio
async def test_a_step_without_room_for_the_tools_answers_without_them() -> None:
    """Tool schemas that leave no room for the message: the step goes without tools and the
    model answers, instead of the turn being refused."""
    tools = ToolRegistry()

    async def big(x: str) -> str:
        """A tool with a long manual."""
        return x

    tools.add(big)
    tools._tools["big"] = dataclasses.replace(tools._tools["big"], description="word " * 700)
    tools._schemas = None
    model = FakeModel()
    model.add(answer("hello"))
    defaults = AgentDefaults(max_tokens=1600, answer_tokens=100)
    loop = AgentLoop(model, tools, budget=budget_for(defaults))
    result = await loop.run(Conversation([system("sys"), user("hi " * 200)]))
    assert result.message.content == "hello"
    assert model.requests[0].tools is None and model.requests[0].answer_only
    # With room enough, the same step offers its tools.
    roomy = AgentLoop(model, tools, budget=budget_for(AgentDefaults(max_tokens=8000)))
    model.add(answer("hi"))
    await roomy.run(Conversation([system("sys"), user("hi " * 200)]))
    assert model.requests[1].tools


def test_tool_sizes_follow_the_schemas_not_a_list_identity() -> None:
    """Two lists of as many schemas, one after the other (a freed list's id may come back):
    each is measured as it is."""
    budget = ContextBudget(context=4096, reserve=0, counter=TokenCounter(4.0))
    small = [{"type": "function", "function": {"name": "a"}}]
    assert budget.tool_chars(small) == len(json.dumps(small))
    large = [{"type": "function", "function": {"name": "b", "description": "x" * 500}}]
    assert budget.tool_chars(large) == len(json.dumps(large))
    assert budget.tool_chars(list(small)) == len(json.dumps(small))
