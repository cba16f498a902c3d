"""The session policy: the window, the tool-exchange rule, hydration and heartbeat windows."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from agentd import scope as scopes
from agentd.config import AgentDefaults, CronJob
from agentd.cron.heartbeat import Heartbeat
from agentd.cron.ticklog import TickLog, iso
from agentd.engine.loop import AgentLoop
from agentd.engine.policy import SessionPolicy, well_formed, window
from agentd.engine.runtime import Runtime
from agentd.memory.history import SQLiteHistory
from agentd.messages import Message, ToolCall, assistant, system, tool_result, user
from agentd.tools.registry import ToolRegistry
from tests.support.fake_model import FakeModel, answer

pytestmark = pytest.mark.anyio


def chat(n: int, *, with_system: bool = True) -> list[Message]:
    head = [system("sys")] if with_system else []
    return head + [user(f"u{i}") if i % 2 == 0 else assistant(f"a{i}") for i in range(n)]


def contents(messages: list[Message]) -> list[str]:
    return [m.content for m in messages]


def roles(messages: list[Message]) -> list[str]:
    return [m.role for m in messages]


def exchange(*ids: str) -> list[Message]:
    calls = [ToolCall(i, "f", "{}") for i in ids]
    return [assistant("", calls), *(tool_result(c, f"r{c.id}") for c in calls)]


def assert_sendable(messages: list[Message]) -> None:
    """No leading tool message, and every tool call followed by all of its results."""
    rest = [m for m in messages if m.role != "system"]
    assert not rest or rest[0].role != "tool", roles(messages)
    assert well_formed(rest) == rest, roles(messages)


def test_window_keeps_the_system_message() -> None:
    """The window keeps the system message and the newest max_messages others."""
    assert contents(window(chat(6), 3)) == ["sys", "a3", "u4", "a5"]


def test_window_without_system_message() -> None:
    """Without a system message the window is simply the newest messages."""
    assert contents(window(chat(5, with_system=False), 2)) == ["a3", "u4"]


@pytest.mark.parametrize("limit", [0, -1, 10])
def test_no_trimming_within_the_limit(limit: int) -> None:
    """max_messages 0 (unlimited) or a limit not reached keeps everything."""
    messages = chat(6)
    assert window(messages, limit) == messages


def test_window_never_keeps_an_orphan_tool_message() -> None:
    """A tool result whose assistant tool_calls message falls out of the window goes too."""
    messages = [system("sys"), user("q"), *exchange("a", "b"), assistant("answer"), user("next")]
    for limit in range(1, 7):
        kept = window(messages, limit)
        assert kept[0].role == "system" and len(kept) > 1, limit
        assert_sendable(kept)
    assert roles(window(messages, 3)) == ["system", "assistant", "user"]
    assert roles(window(messages, 5)) == [
        "system",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "user",
    ]


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        pytest.param(
            [tool_result(ToolCall("x", "f", "{}"), "r"), user("q")], ["user"], id="leading-tool"
        ),
        pytest.param([user("q"), exchange("a")[0]], ["user"], id="call-without-result"),
        pytest.param([user("q"), *exchange("a", "b")[:2]], ["user"], id="half-the-results"),
        pytest.param(
            [user("q"), *exchange("a", "b"), assistant("ok")],
            ["user", "assistant", "tool", "tool", "assistant"],
            id="whole-exchange",
        ),
        pytest.param(
            [user("q"), exchange("a")[0], *exchange("b")[1:], assistant("ok")],
            ["user", "assistant"],
            id="results-of-another-call",
        ),
    ],
)
def test_well_formed(messages: list[Message], expected: list[str]) -> None:
    """Tool exchanges are kept whole or dropped whole; orphan results go."""
    assert roles(well_formed(messages)) == expected


async def test_hydration_never_starts_with_a_tool_message(tmp_path: Path) -> None:
    """A restart that cuts the stored rows inside a tool exchange sends a well-formed context.

    Regression: hydration cut by row count and sent ``system, tool, assistant, user``.
    """
    with scopes.use(scopes.Scope()):
        async with SQLiteHistory.open(tmp_path / "h.db") as history:
            await history.save_conversation(
                "s", [user("q1"), *exchange("a", "b"), assistant("a1"), user("q2"), assistant("a2")]
            )
            # The newest 5 rows begin with the second tool result.
            model = FakeModel()
            model.add(answer("fine"))
            policy = SessionPolicy(max_messages=5, history=history)
            defaults = AgentDefaults(max_messages=5)
            async with Runtime(
                AgentLoop(model, ToolRegistry()), system_prompt="SYS", defaults=defaults,
                sessions=policy,
            ) as runtime:  # fmt: skip
                await runtime.ask("s", "q3")
    sent = list(model.requests[0].messages)
    assert roles(sent) == ["system", "assistant", "user", "assistant", "user"]
    assert_sendable(sent)


async def test_window_heartbeat_is_bounded_after_a_restart(tmp_path: Path) -> None:
    """A window-mode heartbeat session resumes with its window, not every tick it ever ran.

    Regression: the window was applied in memory only; after a restart the next tick sent
    every stored message (26 instead of 6).
    """
    job = CronJob(name="b", schedule="1h", prompt="check", session_mode="window", window=4)
    start = dt.datetime(2026, 1, 5, tzinfo=dt.UTC)
    model = FakeModel(fallback=lambda messages: answer("all quiet"))

    async def ticks(first: int, count: int) -> None:
        async with (
            SQLiteHistory.open(tmp_path / "h.db") as history,
            TickLog.open(tmp_path / "t.db") as log,
            Runtime(
                AgentLoop(model, ToolRegistry()),
                system_prompt="SYS",
                defaults=AgentDefaults(),
                sessions=SessionPolicy(history=history),
            ) as runtime,
        ):
            beat = Heartbeat(runtime, log, workdir=tmp_path)
            for hour in range(first, first + count):
                assert await beat.tick(job, iso(start + dt.timedelta(hours=hour))) == "ok"

    await ticks(0, 12)
    before_restart = len(model.requests[-1].messages)
    await ticks(12, 1)  # a new process: hydrated from the file
    after_restart = list(model.requests[-1].messages)
    assert len(after_restart) == before_restart == 1 + 4 + 1
    assert_sendable(after_restart)
