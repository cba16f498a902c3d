"""The runtime over the durable store: restarts and evictions are invisible to the model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from agentd import scope as scopes
from agentd.config import Settings
from agentd.daemon.app import open_app
from agentd.engine.loop import TurnDone
from agentd.memory.history import SQLiteHistory
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio

TURNS = [
    ("a", "hello there, this is the first message of a long conversation"),
    ("b", "a second session starts"),
    ("a", "please use the tool now"),
    ("a", "tell me more about everything we said so far, at length"),
    ("b", "use the tool in session b as well"),
    ("a", "another long message that makes the history grow past the thresholds"),
    ("c", "a third session"),
    ("a", "and one more tool turn please"),
    ("b", "back to b with a question"),
    ("a", "still going: more words, more tokens, more history to keep"),
    ("c", "c again"),
    ("a", "the last message of the script"),
]


def _script(body: dict[str, Any]) -> Reply:
    """Deterministic answers: a tool call when the newest message asks for one, else an echo."""
    last = body["messages"][-1]
    if last["role"] == "user" and "tool" in last["content"] and body.get("tools"):
        return Reply(tool_calls=[("write_file", {"path": "note.txt", "content": "x" * 40})])
    if last["role"] == "tool":
        return Reply(text="The note is written, as you asked, with forty characters.")
    return Reply(text=f"echo: {last['content'][:120]} (and some padding words)")


def _settings(tmp_path: Path, stub: StubLLM, state: str, **default: Any) -> Settings:
    # A workdir of its own: the note a run wrote would make the other's same write a no-op.
    (tmp_path / f"wd-{state}").mkdir(exist_ok=True)
    return Settings(
        workdir=tmp_path / f"wd-{state}",
        state_dir=tmp_path / state,
        llm={"base_url": stub.url, "max_retries": 0},
        default=default,
    )


async def _requests(stub: StubLLM, settings: Settings, *, restart_every_turn: bool) -> list[Any]:
    stub.requests.clear()
    stub.fallback = _script
    # Each turn's summary (written in the background) lands before the next turn, in both
    # runs: the requests are then the same whatever the timing.
    if restart_every_turn:
        for session, text in TURNS:
            async with open_app(settings) as app:
                await app.runtime.ask(session, text)
                await app.runtime.summaries.wait_idle()
    else:
        async with open_app(settings) as app:
            for session, text in TURNS:
                await app.runtime.ask(session, text)
                await app.runtime.summaries.wait_idle()
    return [r["messages"] for r in stub.requests]


CONFIGS = [
    pytest.param({}, id="truncate"),
    pytest.param({"max_messages": 5}, id="window-5"),
    pytest.param({"compaction_strategy": "summarize", "compaction_threshold": 60}, id="summarize"),
    pytest.param(
        {"compaction_strategy": "summarize", "compaction_threshold": 60, "max_messages": 12},
        id="summarize-window-12",
    ),
]


@pytest.mark.parametrize("default", CONFIGS)
async def test_restart_every_turn_sends_the_same_requests(
    stub_llm: StubLLM, tmp_path: Path, default: dict[str, Any]
) -> None:
    """With a restart before every turn the model receives exactly the no-restart requests."""
    reference = await _requests(
        stub_llm, _settings(tmp_path, stub_llm, "ref", **default), restart_every_turn=False
    )
    restarted = await _requests(
        stub_llm, _settings(tmp_path, stub_llm, "restart", **default), restart_every_turn=True
    )
    assert len(reference) > len(TURNS)  # tool turns and summaries add requests
    assert restarted == reference


async def test_summaries_are_saved(stub_llm: StubLLM, tmp_path: Path) -> None:
    """Summarize compaction stores its summaries, and a resumed session starts with the latest."""
    settings = _settings(
        tmp_path, stub_llm, "s", compaction_strategy="summarize", compaction_threshold=60
    )
    await _requests(stub_llm, settings, restart_every_turn=False)
    async with SQLiteHistory.open(settings.history_path) as store:
        with scopes.use(scopes.Scope()):
            summaries = await store.load_summaries("a")
            resumed = await store.resume("a")
    assert summaries
    assert resumed[0].metadata == {"summary": True}
    assert resumed[0].content.endswith(summaries[-1])


async def test_evicted_sessions_rehydrate_unchanged(stub_llm: StubLLM, tmp_path: Path) -> None:
    """Evicting idle sessions (LRU) changes nothing the model sees."""
    reference = await _requests(
        stub_llm, _settings(tmp_path, stub_llm, "ref"), restart_every_turn=False
    )
    settings = _settings(tmp_path, stub_llm, "evict", max_sessions_in_memory=1)
    stub_llm.requests.clear()
    async with open_app(settings) as app:
        for session, text in TURNS:
            await app.runtime.ask(session, text)
            assert len(app.runtime.sessions) == 1
        evictions = app.runtime.sessions.store.evictions
    assert evictions >= 6
    assert [r["messages"] for r in stub_llm.requests] == reference


async def test_user_message_is_stored_before_the_model_answers(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A turn cancelled while the model is still answering keeps the user message, nothing more."""
    settings = _settings(tmp_path, stub_llm, "s")
    gate = anyio.Event()

    async def slow_tool() -> str:
        """Never finishes."""
        gate.set()
        await anyio.sleep_forever()
        return ""

    stub_llm.add(Reply(text="fine"), Reply(tool_calls=[("slow_tool", {})]))
    async with open_app(settings) as app:
        app.tools.add(slow_tool)
        await app.runtime.ask("s", "first")
        async with anyio.create_task_group() as tg:

            async def turn() -> None:
                async with app.runtime.turn("s", "second") as events:
                    async for event in events:
                        assert not isinstance(event, TurnDone)

            tg.start_soon(turn)
            await gate.wait()
            tg.cancel_scope.cancel()
        in_memory = [m.to_openai() for m in await app.runtime.history("s")]
    async with open_app(settings) as app:
        restored = [m.to_openai() for m in await app.runtime.history("s")]
    assert [(m["role"], m["content"]) for m in restored[1:]] == [
        ("user", "first"),
        ("assistant", "fine"),
        ("user", "second"),
    ]
    assert restored == in_memory
