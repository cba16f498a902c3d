"""The runtime: per-session serialisation, parallel sessions, limits, window and compaction."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import anyio
import pytest
import structlog
from anyio import wait_all_tasks_blocked

from agentd import scope as scopes
from agentd.config import AgentDefaults
from agentd.engine.compaction import is_summary
from agentd.engine.loop import AgentLoop, TurnDone
from agentd.engine.policy import SessionPolicy
from agentd.engine.runtime import Runtime, stateless_conversation, text_of
from agentd.errors import LLMUnavailable
from agentd.memory.usage import UsageCounts
from agentd.messages import Message, system, user
from agentd.model.client import ChatResult, TextDelta
from agentd.tools.registry import ToolRegistry
from tests.support.fake_model import FakeModel, answer

pytestmark = pytest.mark.anyio


def make_runtime(model: FakeModel, tools: ToolRegistry | None = None, **defaults: Any) -> Runtime:
    settings = AgentDefaults(**defaults)
    agent_loop = AgentLoop(model, tools, max_steps=settings.max_steps)
    return Runtime(agent_loop, system_prompt="SYS", defaults=settings)


class Gate:
    """A model step that records entering and waits until released."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name = name
        self.log = log
        self.entered = anyio.Event()
        self.release = anyio.Event()

    async def __call__(self, messages: Sequence[Message]) -> ChatResult:
        self.log.append(f"enter {self.name}")
        self.entered.set()
        await self.release.wait()
        self.log.append(f"exit {self.name}")
        return answer(f"reply {self.name}")


async def test_turn_streams_and_records_history() -> None:
    """A turn streams deltas, ends with TurnDone, and the session holds the exchange."""
    model = FakeModel()
    model.add(answer("hello there"))
    async with make_runtime(model) as runtime:
        async with runtime.turn("s", "hi") as events:
            collected = [e async for e in events]
        assert text_of(collected) == "hello there"
        assert isinstance(collected[-1], TurnDone)
        history = await runtime.history("s")
        assert [(m.role, m.content) for m in history] == [
            ("system", "SYS"),
            ("user", "hi"),
            ("assistant", "hello there"),
        ]
        assert model.requests[0].messages[0].content == "SYS"


async def test_turns_of_one_session_run_one_at_a_time() -> None:
    """A second turn of the same session waits until the first one is done."""
    log: list[str] = []
    first, second = Gate("1", log), Gate("2", log)
    model = FakeModel()
    model.add(first, second)
    async with make_runtime(model) as runtime:
        async with anyio.create_task_group() as tg:
            tg.start_soon(runtime.ask, "same", "one")
            await first.entered.wait()
            tg.start_soon(runtime.ask, "same", "two")
            await wait_all_tasks_blocked()
            assert log == ["enter 1"]
            first.release.set()
            await second.entered.wait()
            second.release.set()
        assert log == ["enter 1", "exit 1", "enter 2", "exit 2"]
        # The second turn saw the first one's answer.
        assert [m.content for m in model.requests[1].messages][-2:] == ["reply 1", "two"]


async def test_sessions_run_in_parallel() -> None:
    """Turns of different sessions run at the same time."""
    log: list[str] = []
    first, second = Gate("a", log), Gate("b", log)
    model = FakeModel()
    model.add(first, second)
    async with make_runtime(model) as runtime:
        with anyio.fail_after(5):
            async with anyio.create_task_group() as tg:
                tg.start_soon(runtime.ask, "a", "x")
                await first.entered.wait()
                tg.start_soon(runtime.ask, "b", "y")
                await second.entered.wait()
                assert runtime.in_flight == 2
                first.release.set()
                second.release.set()
        assert log[:2] == ["enter a", "enter b"]


async def test_capacity_limiter_bounds_turns_across_sessions() -> None:
    """With max_concurrent_turns=1, a turn of another session waits for a free slot."""
    log: list[str] = []
    first, second = Gate("a", log), Gate("b", log)
    model = FakeModel()
    model.add(first, second)
    async with make_runtime(model, max_concurrent_turns=1) as runtime:
        async with anyio.create_task_group() as tg:
            tg.start_soon(runtime.ask, "a", "x")
            await first.entered.wait()
            tg.start_soon(runtime.ask, "b", "y")
            await wait_all_tasks_blocked()
            assert log == ["enter a"] and runtime.limiter.borrowed_tokens == 1
            first.release.set()
            await second.entered.wait()
            second.release.set()
        assert log == ["enter a", "exit a", "enter b", "exit b"]


async def test_window_applies_after_a_turn() -> None:
    """After a turn the session is cut to half the window when it overflows, at a user
    message, so its beginning stays the same for several turns."""
    firsts = []
    async with make_runtime(FakeModel(), max_messages=6) as runtime:
        for i in range(6):
            await runtime.ask("s", f"q{i}")
            firsts.append((await runtime.history("s"))[1].content)
        history = await runtime.history("s")
    assert firsts == ["q0", "q0", "q0", "q2", "q2", "q4"]
    assert [m.content for m in history] == ["SYS", "q4", "echo: q4", "q5", "echo: q5"]


async def test_summarize_runs_after_a_turn() -> None:
    """summarize compacts a long session after its turn, by a tool-less non-streaming call."""
    model = FakeModel(fallback=lambda msgs: answer("x" * 400))
    async with make_runtime(
        model, compaction_strategy="summarize", compaction_threshold=650, max_tokens=100_000
    ) as runtime:
        for i in range(6):
            await runtime.ask("s", f"question {i}")
        assert not any(is_summary(m) for m in await runtime.history("s"))
        model.add(answer("x" * 400), answer("- six questions were asked"))
        async with runtime.turn("s", "question 6", stream=True) as events:
            async for _ in events:
                pass
        await runtime.summaries.wait_idle()
        history = await runtime.history("s")
        assert history[0].content == "SYS" and is_summary(history[1])
        assert "six questions" in history[1].content and len(history) == 12
        summary_request = model.requests[-1]
        assert summary_request.tools is None and not summary_request.stream
        assert "Summarize this conversation" in summary_request.messages[-1].content


async def test_summarize_uses_the_default_threshold() -> None:
    """With no threshold set, summarize starts once the estimate passes 0.75 * max_tokens."""
    model = FakeModel(fallback=lambda msgs: answer("x" * 400))  # 100 tokens per answer
    async with make_runtime(model, compaction_strategy="summarize", max_tokens=1000) as runtime:
        for i in range(7):
            await runtime.ask("s", f"q{i}")
        assert not any(is_summary(m) for m in await runtime.history("s"))  # ~700 <= 750
        model.add(answer("x" * 400), answer("- gist"))
        await runtime.ask("s", "q7")  # ~800 > 750
        await runtime.summaries.wait_idle()
        assert is_summary((await runtime.history("s"))[1])


async def test_truncate_strategy_never_summarizes() -> None:
    """The default strategy (truncate) never calls the model to summarize."""
    model = FakeModel(fallback=lambda msgs: answer("x" * 4000))
    async with make_runtime(model, max_tokens=100) as runtime:
        for i in range(12):
            await runtime.ask("s", f"q{i}")
        assert len(model.requests) == 12
        assert len(await runtime.history("s")) == 25


async def test_failed_turn_keeps_the_user_message() -> None:
    """When the model fails the error propagates and the user message stays in history."""
    model = FakeModel()
    model.add(LLMUnavailable("down"))
    async with make_runtime(model) as runtime:
        with pytest.raises(LLMUnavailable):
            await runtime.ask("s", "are you there?")
        assert [(m.role, m.content) for m in await runtime.history("s")] == [
            ("system", "SYS"),
            ("user", "are you there?"),
        ]
        assert runtime.in_flight == 0
        await runtime.ask("s", "again")
        assert [m.content for m in model.requests[-1].messages] == [
            "SYS",
            "are you there?",
            "again",
        ]


async def test_abandoned_turn_releases_the_session() -> None:
    """A reader that leaves early cancels the turn and frees the session."""
    gate = Gate("g", [])
    model = FakeModel(fallback=lambda msgs: answer("one two three"))
    model.add(gate)
    outcomes: list[str] = []
    async with Runtime(
        AgentLoop(model),
        system_prompt="SYS",
        defaults=AgentDefaults(),
        on_turn=lambda channel, status, seconds: outcomes.append(f"{channel}:{status}"),
    ) as runtime:
        async with runtime.turn("s", "hi", channel="http"):
            await gate.entered.wait()
        with anyio.fail_after(5):
            await runtime.wait_idle()
        assert runtime.in_flight == 0 and outcomes == ["http:cancelled"]
        with anyio.fail_after(5):
            result = await runtime.ask("s", "again")
        assert result.message.content == "one two three"
        assert outcomes[-1] == "console:ok"


async def test_cancelled_turn_is_reported_and_released() -> None:
    """Cancelling a turn marks it cancelled and leaves the runtime idle."""
    log: list[str] = []
    gate = Gate("g", log)
    model = FakeModel()
    model.add(gate)
    outcomes: list[str] = []
    async with Runtime(
        AgentLoop(model),
        system_prompt="SYS",
        defaults=AgentDefaults(),
        on_turn=lambda channel, status, seconds: outcomes.append(status),
    ) as runtime:
        async with anyio.create_task_group() as tg:
            tg.start_soon(runtime.ask, "s", "hi")
            await gate.entered.wait()
            tg.cancel_scope.cancel()
        assert outcomes == ["cancelled"] and runtime.in_flight == 0
        with anyio.fail_after(5):
            await runtime.wait_idle()
        assert [m.role for m in await runtime.history("s")] == ["system", "user"]


async def test_wait_idle_waits_for_turns_in_flight() -> None:
    """wait_idle() returns only after the running turn has finished."""
    log: list[str] = []
    gate = Gate("g", log)
    model = FakeModel()
    model.add(gate)
    async with make_runtime(model) as runtime:
        done: list[str] = []
        async with anyio.create_task_group() as tg:
            tg.start_soon(runtime.ask, "s", "hi")
            await gate.entered.wait()

            async def waiter() -> None:
                await runtime.wait_idle()
                done.append("idle")

            tg.start_soon(waiter)
            await wait_all_tasks_blocked()
            assert done == []
            gate.release.set()
        assert done == ["idle"]


async def test_turn_runs_in_scope_with_log_context() -> None:
    """Tools run inside the turn's tenant scope with session and run_id bound for logs."""
    seen: dict[str, Any] = {}
    tools = ToolRegistry()

    async def probe() -> str:
        """Record the context."""
        seen["scope"] = scopes.current()
        seen["log"] = structlog.contextvars.get_contextvars()
        return "ok"

    tools.add(probe)
    model = FakeModel()
    model.add(answer("", ("probe", "{}")), answer("done"))
    async with make_runtime(model, tools) as runtime:
        await runtime.ask("s1", "go", scope=scopes.Scope(tenant="acme"))
        assert seen["scope"] == scopes.Scope(tenant="acme")
        assert seen["log"]["session"] == "s1" and seen["log"]["channel"] == "console"
        assert len(seen["log"]["run_id"]) == 12
        assert scopes.get() is None and "session" not in structlog.contextvars.get_contextvars()


class FakeHistory:
    """The part of a HistoryStore the session policy uses, recording each call."""

    def __init__(self, stored: list[Message] | None = None) -> None:
        self.stored = stored or []
        self.appended: list[list[str]] = []
        self.summaries: list[tuple[str, int]] = []
        self.hydrated: list[str] = []
        self.windows: list[int] = []
        self.working: dict[tuple[str, str], object] = {}

    async def resume(self, session_id: str, limit: int = 0) -> list[Message]:
        self.hydrated.append(session_id)
        return self.stored

    async def save_conversation(self, session_id: str, messages: Sequence[Message]) -> None:
        self.appended.append([m.role for m in messages])

    async def save_summary(
        self, summary: Message, *, session_id: str, tail: Sequence[Message]
    ) -> None:
        self.summaries.append((summary.content, len(tail)))

    async def clear_conversation(self, session_id: str) -> int:
        self.stored = []
        return 0

    async def save_window(self, session_id: str, keep: int) -> None:
        self.windows.append(keep)

    async def save_working(self, run_id: str, key: str, value: object) -> None:
        self.working[(run_id, key)] = value


def with_history(model: FakeModel, history: FakeHistory, **defaults: Any) -> Runtime:
    settings = AgentDefaults(**defaults)
    policy = SessionPolicy(
        max_messages=settings.max_messages,
        history=history,  # type: ignore[arg-type]
        max_sessions=settings.max_sessions_in_memory,
    )
    return Runtime(AgentLoop(model), system_prompt="SYS", defaults=settings, sessions=policy)


async def test_history_persists_user_message_before_the_model_runs() -> None:
    """With a history the user message is persisted before the model call, then each unit."""
    history = FakeHistory()
    order: list[str] = []

    async def step(messages: Sequence[Message]) -> ChatResult:
        order.append(f"model after {len(history.appended)} appends")
        return answer("hi")

    model = FakeModel()
    model.add(step)
    async with with_history(model, history) as runtime:
        await runtime.ask("s", "hello")
    assert order == ["model after 1 appends"]
    assert history.appended == [["user"], ["assistant"]]
    assert history.hydrated == ["s"]


async def test_history_hydrates_a_new_session() -> None:
    """A session not in memory is restored from the history under the current prompt."""
    from agentd.messages import assistant, user

    history = FakeHistory([user("earlier"), assistant("reply")])
    async with with_history(FakeModel(), history) as runtime:
        messages = await runtime.history("s")
        assert [m.content for m in messages] == ["SYS", "earlier", "reply"]
        await runtime.history("s")
    assert history.hydrated == ["s"]


async def test_history_saves_summaries() -> None:
    """A summarize compaction is persisted through the session policy."""
    history = FakeHistory()
    model = FakeModel(fallback=lambda msgs: answer("x" * 400))
    async with with_history(
        model, history, compaction_strategy="summarize", compaction_threshold=100
    ) as runtime:
        for i in range(5):
            await runtime.ask("s", f"q{i}")
        model.add(answer("x" * 400), answer("- gist"))
        await runtime.ask("s", "q5")
        await runtime.summaries.wait_idle()
    assert history.summaries and history.summaries[-1][1] == 10
    assert history.summaries[-1][0].endswith("- gist")


async def test_prompt_changes_apply_to_existing_sessions() -> None:
    """A new system prompt replaces the old one in sessions on their next turn."""
    async with make_runtime(FakeModel()) as runtime:
        await runtime.ask("s", "hi")
        runtime.reload("NEW")
        history = await runtime.history("s")
        assert history[0].content == "NEW" and len(history) == 3


async def test_given_session_policy_is_used() -> None:
    """A SessionPolicy passed in is the one the runtime uses."""
    policy = SessionPolicy(max_messages=2)
    async with Runtime(
        AgentLoop(FakeModel()), system_prompt="SYS", defaults=AgentDefaults(), sessions=policy
    ) as runtime:
        assert runtime.sessions is policy
        await runtime.ask("s", "hi")
        with scopes.use(runtime.default_scope):
            assert policy.cached("s") is not None


async def test_no_turn_waits_for_a_summary() -> None:
    """The summary is written in the background: the session's next turn runs at once on the
    uncompacted (budget-trimmed) view while it is written, and the turn after it lands sees
    the summary, then every message after its cut, the turn that came meanwhile included."""
    log: list[str] = []
    summary = Gate("summary", log)
    model = FakeModel(fallback=lambda msgs: answer("x" * 400))
    async with make_runtime(
        model, compaction_strategy="summarize", compaction_threshold=100, max_tokens=100_000
    ) as runtime:
        for i in range(5):
            await runtime.ask("s", f"q{i}")
        model.add(answer("x" * 400), summary)
        with anyio.fail_after(5):
            result = await runtime.ask("s", "q5")
            await summary.entered.wait()
            assert result.message.content == "x" * 400 and log == ["enter summary"]
            assert runtime.in_flight == 0 and len(runtime.summaries) == 1
            model.add(answer("meanwhile"))
            await runtime.ask("s", "q6")  # the summary is still being written
        sent = model.requests[-1].messages
        assert [m.content for m in sent[1:3]] == ["q0", "x" * 400] and not any(
            map(is_summary, sent)
        )
        assert log == ["enter summary"] and len(runtime.summaries) == 1
        summary.release.set()
        await runtime.summaries.wait_idle()
        model.add(answer("after"))
        await runtime.ask("s", "q7")
        sent = next(r for r in model.requests if r.messages[-1].content == "q7").messages
    assert is_summary(sent[1]) and sent[1].content.endswith("reply summary")
    # The summary's cut kept q1 onwards (the last 10 of 12); q6 and its answer follow.
    assert [m.content for m in sent[2:]] == [
        *[c for i in range(1, 6) for c in (f"q{i}", "x" * 400)],
        "q6",
        "meanwhile",
        "q7",
    ]


async def test_one_summary_in_flight_per_session() -> None:
    """While a session's summary is being written, its later turns over the threshold start
    no other; once it lands, the next turn over the threshold may start one again."""
    log: list[str] = []
    summary = Gate("summary", log)
    model = FakeModel(fallback=lambda msgs: answer("x" * 400))
    async with make_runtime(
        model, compaction_strategy="summarize", compaction_threshold=100, max_tokens=100_000
    ) as runtime:
        for i in range(5):
            await runtime.ask("s", f"q{i}")
        model.add(answer("x" * 400), summary)
        with anyio.fail_after(5):
            await runtime.ask("s", "q5")
            await summary.entered.wait()
            for i in range(6, 9):
                await runtime.ask("s", f"q{i}")
            asked = sum(
                "Summarize this conversation" in r.messages[-1].content for r in model.requests
            )
            assert asked == 1
            summary.release.set()
            await runtime.summaries.wait_idle()
            model.add(answer("x" * 400), answer("- again"))
            await runtime.ask("s", "q9")
            await runtime.summaries.wait_idle()
        history = await runtime.history("s")
    assert history[1].content.endswith("- again")


async def test_a_summary_whose_cut_is_gone_is_dropped() -> None:
    """When the window dropped the summary's first kept message meanwhile, the summary would
    leave a gap: it is dropped and the history stays as the window left it."""
    summary = Gate("summary", [])
    model = FakeModel(fallback=lambda msgs: answer("x" * 400))
    async with make_runtime(
        model,
        compaction_strategy="summarize",
        compaction_threshold=100,
        max_tokens=100_000,
        max_messages=14,
    ) as runtime:
        for i in range(5):
            await runtime.ask("s", f"q{i}")
        model.add(answer("x" * 400), summary)
        with anyio.fail_after(5):
            await runtime.ask("s", "q5")
            await summary.entered.wait()
            for i in range(6, 12):
                await runtime.ask("s", f"q{i}")
            summary.release.set()
            await runtime.summaries.wait_idle()
        history = await runtime.history("s")
    assert not any(map(is_summary, history))
    assert history[-1].content == "x" * 400 and history[-2].content == "q11"


async def test_a_failed_summary_leaves_the_history_untouched() -> None:
    """A model error while summarising changes nothing; the session goes on."""
    model = FakeModel(fallback=lambda msgs: answer("x" * 400))
    async with make_runtime(
        model, compaction_strategy="summarize", compaction_threshold=100, max_tokens=100_000
    ) as runtime:
        for i in range(5):
            await runtime.ask("s", f"q{i}")
        before = [m.content for m in await runtime.history("s")]
        model.add(answer("x" * 400), LLMUnavailable("down"))
        await runtime.ask("s", "q5")
        await runtime.summaries.wait_idle()
        history = [m.content for m in await runtime.history("s")]
    assert history == [*before, "q5", "x" * 400]


async def test_shutdown_cancels_a_summary_in_flight_at_once() -> None:
    """Leaving the runtime cancels a summary still being written, without waiting for the
    drain bound, and stores nothing of it."""
    summary = Gate("summary", [])
    model = FakeModel(fallback=lambda msgs: answer("x" * 400))
    runtime = make_runtime(
        model, compaction_strategy="summarize", compaction_threshold=100, max_tokens=100_000
    )
    runtime.drain_timeout = 30
    with anyio.fail_after(5):
        async with runtime:
            for i in range(5):
                await runtime.ask("s", f"q{i}")
            model.add(answer("x" * 400), summary)
            await runtime.ask("s", "q5")
            await summary.entered.wait()
    assert len(runtime.summaries) == 0 and not summary.release.is_set()


async def test_model_stream_is_closed_in_the_turn_task() -> None:
    """A reader that leaves mid-stream: the model stream's cleanup runs in the turn's own task
    before the runtime is idle, never later in a generator finaliser task."""
    seen: dict[str, object] = {}
    release = anyio.Event()

    class Streaming(FakeModel):
        async def stream(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:  # type: ignore[override]
            seen["task"] = anyio.get_current_task().id
            try:
                yield TextDelta("first")
                release.set()
                await anyio.sleep_forever()
            finally:
                seen["closed_in"] = anyio.get_current_task().id

    async with make_runtime(Streaming()) as runtime:
        async with runtime.turn("s", "hi") as events:
            assert isinstance(await anext(events), TextDelta)
            await release.wait()
        with anyio.fail_after(5):
            await runtime.wait_idle()
        assert seen["closed_in"] == seen["task"]
        assert [m.role for m in await runtime.history("s")] == ["system", "user"]


def test_stateless_conversation_merges_leading_system_messages() -> None:
    """A caller's leading system messages join agentd's prompt; later ones stay where they are."""
    conv = stateless_conversation(
        "SYS", [system("client rules"), user("hi"), system("late"), user("again")]
    )
    assert [(m.role, m.content) for m in conv] == [
        ("system", "SYS\n\nclient rules"),
        ("user", "hi"),
        ("system", "late"),
        ("user", "again"),
    ]
    assert [m.role for m in stateless_conversation("SYS", [user("hi")])] == ["system", "user"]


class UsageSink:
    """A usage store that keeps what was added, by tenant."""

    def __init__(self) -> None:
        self.added: list[tuple[str, Any]] = []

    async def add(self, day: str, counts: Any) -> None:
        self.added.append((scopes.current().tenant, counts))

    async def tokens_on(self, day: str) -> int:
        return 0


def metered_runtime(model: FakeModel, sink: UsageSink) -> Runtime:
    from agentd.config import Settings
    from agentd.engine.quotas import Quotas

    reg = ToolRegistry(default_timeout=10)

    async def echo_tool(text: str) -> str:
        """Echo the text back.

        Args:
            text: What to echo.
        """
        return f"echoed {text}"

    reg.add(echo_tool)
    agent_loop = AgentLoop(model, reg, max_steps=4)
    quotas = Quotas(Settings().limits_for, sink)
    return Runtime(agent_loop, system_prompt="SYS", defaults=AgentDefaults(), quotas=quotas)


@pytest.mark.parametrize(
    "stateless", [pytest.param(False, id="session"), pytest.param(True, id="stateless")]
)
async def test_a_turn_records_every_model_call_and_tool_call(stateless: bool) -> None:
    """A turn's usage is the sum of all its model calls, with its tool calls, in its tenant."""
    from agentd.memory.usage import UsageCounts

    model, sink = FakeModel(), UsageSink()
    model.add(
        answer("", ("echo_tool", '{"text": "a"}'), usage=(3, 1)), answer("done", usage=(5, 2))
    )
    async with metered_runtime(model, sink) as runtime:
        scope = scopes.Scope(tenant="acme")
        if stateless:
            async with runtime.turn_stateless([user("hi")], scope=scope, stream=False) as events:
                await events.result()
        else:
            await runtime.ask("s", "hi", scope=scope)
    assert sink.added == [("acme", UsageCounts(1, 8, 3, 1))]


async def test_a_failed_turn_counts_what_it_used() -> None:
    """A turn whose second model call fails still counts the first call and the tool it ran."""
    from agentd.memory.usage import UsageCounts

    model, sink = FakeModel(), UsageSink()
    model.add(answer("", ("echo_tool", '{"text": "a"}'), usage=(3, 1)), LLMUnavailable("down"))
    async with metered_runtime(model, sink) as runtime:
        with pytest.raises(LLMUnavailable):
            await runtime.ask("s", "hi")
    assert sink.added == [("default", UsageCounts(1, 3, 1, 1))]


class OrderedSink(UsageSink):
    """A usage store that notes, for each write, what the reader had by then."""

    def __init__(self, seen: list[str]) -> None:
        super().__init__()
        self.seen = seen

    async def add(self, day: str, counts: Any) -> None:
        self.seen.append("stored")
        await super().add(day, counts)


@pytest.mark.parametrize(
    "stateless", [pytest.param(False, id="session"), pytest.param(True, id="stateless")]
)
async def test_usage_is_counted_before_the_answer_and_stored_after_the_reader_left(
    stateless: bool,
) -> None:
    """The turn's tokens count against the quota as soon as the answer is there (the next
    request sees them), but the usage write waits until the reader has left the turn: it is
    no part of the answer and must not delay it."""
    seen: list[str] = []
    model, sink = FakeModel(), OrderedSink(seen)
    model.add(answer("done", usage=(5, 2)))
    async with metered_runtime(model, sink) as runtime:
        assert runtime.quotas is not None
        scope = scopes.Scope(tenant="acme")
        turn = (
            runtime.turn_stateless([user("hi")], scope=scope, stream=False)
            if stateless
            else runtime.turn("s", "hi", scope=scope, stream=False)
        )
        async with turn as events:
            await events.result()
            await wait_all_tasks_blocked()
            # Counted (what admit reads) but not yet written.
            assert sum(runtime.quotas._unstored.values()) == 7
            seen.append("reader left")
        with anyio.fail_after(5):
            await runtime.wait_idle()
    assert seen == ["reader left", "stored"]
    assert sink.added == [("acme", UsageCounts(1, 5, 2, 0))]


class CountingQuotas:
    """Quotas that admit every turn and keep what was recorded."""

    def __init__(self) -> None:
        self.recorded: list[UsageCounts] = []

    async def admit(self) -> None:
        return None

    async def record(
        self, counts: UsageCounts, *, store_after: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        self.recorded.append(counts)


async def test_a_background_summary_counts_against_the_tenants_quota() -> None:
    """The summary's tokens are recorded in the session's scope as usage of no turn."""
    quotas = CountingQuotas()
    model = FakeModel(fallback=lambda msgs: answer("x" * 400))
    settings = AgentDefaults(
        compaction_strategy="summarize", compaction_threshold=100, max_tokens=100_000
    )
    async with Runtime(
        AgentLoop(model),
        system_prompt="SYS",
        defaults=settings,
        quotas=quotas,  # type: ignore[arg-type]
    ) as runtime:
        for i in range(5):
            await runtime.ask("s", f"q{i}")
        model.add(answer("x" * 400), answer("- gist", usage=(70, 5)))
        await runtime.ask("s", "q5")
        await runtime.summaries.wait_idle()
    assert [c for c in quotas.recorded if c.turns == 0] == [UsageCounts(0, 70, 5, 0)]
    assert sum(c.turns for c in quotas.recorded) == 6


@pytest.mark.parametrize(
    "stateless", [pytest.param(False, id="session"), pytest.param(True, id="stateless")]
)
async def test_a_turns_request_is_what_the_user_said_for_its_tools(stateless: bool) -> None:
    """Tools of a turn see its user message (memory_save keeps it); nothing outside a turn."""
    from agentd import said

    heard: list[str] = []

    async def listen() -> str:
        """Note what the user said."""
        heard.append(said.get())
        return "noted"

    registry = ToolRegistry()
    registry.add(listen)
    model = FakeModel()
    model.add(answer("", ("listen", "{}")), answer("done"))
    request = "Merke dir:  meine Katze heißt Pelusa."
    async with make_runtime(model, registry) as runtime:
        if stateless:
            async with runtime.turn_stateless([user(request)], stream=False) as events:
                await events.result()
        else:
            await runtime.ask("s", request)
    assert heard == ["Merke dir: meine Katze heißt Pelusa."]
    assert said.get() == ""


@pytest.mark.parametrize("channel", ["heartbeat", "cron"])
async def test_a_heartbeat_or_task_turn_has_no_users_words(channel: str) -> None:
    """The request of a heartbeat or a scheduled task is the daemon's own prompt: a memory
    saved there keeps no words as the user's."""
    from agentd import said

    heard: list[str] = []

    async def listen() -> str:
        """Note what the user said."""
        heard.append(said.get())
        return "noted"

    registry = ToolRegistry()
    registry.add(listen)
    model = FakeModel()
    model.add(answer("", ("listen", "{}")), answer("done"))
    async with make_runtime(model, registry) as runtime:
        await runtime.ask("s", "Read HEARTBEAT.md and follow it.", channel=channel)
    assert heard == [""]
