"""A session keeps its llama-server slot: the ``id_slot`` each request carries (stub server)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx
import pytest

from agentd.config import AgentDefaults
from agentd.engine.guards import plan
from agentd.engine.loop import AgentLoop
from agentd.engine.runtime import Runtime
from agentd.engine.warmup import PLACEHOLDER, Warmup
from agentd.messages import user
from agentd.model.client import LLMClient
from agentd.model.pinning import SlotPins
from agentd.tools.registry import ToolRegistry
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def pinned_runtime(
    url: str, pins: SlotPins | None, tools: ToolRegistry | None = None, **defaults: Any
) -> AsyncIterator[tuple[Runtime, LLMClient]]:
    """A runtime on the stub; with ``tools``, a grammar-holding client (a small local model's
    rules run: the plan question among them)."""
    async with httpx.AsyncClient(timeout=30) as http:
        grammar = "on" if tools is not None else "off"
        llm = LLMClient(http, base_url=url, model="stub", max_retries=0, tool_grammar=grammar)
        agent_loop = AgentLoop(llm, tools or ToolRegistry(), max_steps=4)
        async with Runtime(
            agent_loop,
            system_prompt="You are a test.",
            defaults=AgentDefaults(**defaults),
            pins=pins,
        ) as runtime:
            yield runtime, llm


def _slots(stub: StubLLM, text: str) -> list[int | None]:
    """The id_slot of every chat request whose last message is ``text``."""
    return [
        r.get("id_slot")
        for r in stub.requests
        if "messages" in r and r["messages"][-1].get("content") == text
    ]


async def test_each_session_keeps_its_own_slot(stub_llm: StubLLM) -> None:
    """Turns of two sessions, interleaved, go to two slots, each session to its own."""
    async with pinned_runtime(stub_llm.url, SlotPins(2)) as (runtime, _):
        for i in range(3):
            await runtime.ask("alice", f"alice {i}")
            await runtime.ask("bob", f"bob {i}")
    alice = [s for i in range(3) for s in _slots(stub_llm, f"alice {i}")]
    bob = [s for i in range(3) for s in _slots(stub_llm, f"bob {i}")]
    assert alice == [0, 0, 0] and bob == [1, 1, 1]


async def test_a_third_session_takes_the_least_recently_used_slot(stub_llm: StubLLM) -> None:
    """With both session slots pinned, a new session takes the slot used longest ago."""
    async with pinned_runtime(stub_llm.url, SlotPins(2)) as (runtime, _):
        await runtime.ask("alice", "a1")
        await runtime.ask("bob", "b1")
        await runtime.ask("alice", "a2")
        await runtime.ask("carol", "c1")
        await runtime.ask("alice", "a3")
    assert [_slots(stub_llm, t) for t in ("a1", "b1", "a2", "c1", "a3")] == [
        [0],
        [1],
        [0],
        [1],
        [0],
    ]


def _summaries(stub: StubLLM) -> list[dict[str, Any]]:
    return [r for r in stub.requests if "Summarize this conversation" in str(r.get("messages"))]


async def _summarized_session(
    stub: StubLLM, *, warm: bool, other_first: bool = False, tools: ToolRegistry | None = None
) -> None:
    """Eight turns of session "s", past the summary threshold, and the summary written;
    ``warm``: with warm start on; ``other_first``: another session takes slot 0 before."""
    stub.fallback = lambda body: Reply("x" * 400)
    async with pinned_runtime(
        stub.url,
        SlotPins(2),
        tools,
        compaction_strategy="summarize",
        compaction_threshold=650,
        max_tokens=100_000,
    ) as (runtime, llm):
        if warm:
            runtime.warm = llm.warm
        if other_first:
            await runtime.ask("other", "first")
        for i in range(8):
            await runtime.ask("s", f"question {i}")
        await runtime.summaries.wait_idle()


async def test_summaries_run_on_the_background_slot(stub_llm: StubLLM) -> None:
    """A compaction summary is written on the background slot, never a session's."""
    await _summarized_session(stub_llm, warm=False)
    summaries = _summaries(stub_llm)
    turns = [r for r in stub_llm.requests if r not in summaries]
    assert summaries and {r.get("id_slot") for r in summaries} == {2}
    assert {r.get("id_slot") for r in turns} == {0}


async def test_stateless_requests_use_the_quick_slot(stub_llm: StubLLM) -> None:
    """A stateless turn goes to the quick slot, no session's; an embedding names no slot
    (llama-server would not honour it: the chat model's are served apart instead)."""
    async with pinned_runtime(stub_llm.url, SlotPins(1)) as (runtime, llm):
        async with runtime.turn_stateless([user("one-off")], stream=False) as events:
            async for _ in events:
                pass
        await llm.embed_one("remember me")
    assert _slots(stub_llm, "one-off") == [2]
    [embedding] = [r for r in stub_llm.requests if "input" in r]
    assert "id_slot" not in embedding


async def test_the_warm_up_fills_the_slot_the_next_session_takes(stub_llm: StubLLM) -> None:
    """The warm-up goes to the slot that the first new session is then pinned to."""
    pins = SlotPins(2)
    async with pinned_runtime(stub_llm.url, pins) as (runtime, llm):
        await runtime.ask("alice", "a1")
        warmup = Warmup(runtime.first_requests, llm.warm, enabled=True, pins=pins)
        async with anyio.create_task_group() as tg:
            tg.start_soon(warmup.serve)
            with anyio.fail_after(5):
                while warmup.state != "done":  # noqa: ASYNC110 - a plain attribute
                    await anyio.sleep(0.01)
            tg.cancel_scope.cancel()
        await runtime.ask("bob", "b1")
    assert _slots(stub_llm, "Hello.") == [1] and _slots(stub_llm, "b1") == [1]


async def test_without_pins_no_slot_is_named(stub_llm: StubLLM) -> None:
    """Unpinned (another server, or pinning off), requests carry no id_slot."""
    async with pinned_runtime(stub_llm.url, None) as (runtime, llm):
        await runtime.ask("alice", "a1")
        await llm.embed_one("x")
    assert all("id_slot" not in r for r in stub_llm.requests)


async def test_a_sessions_prompt_is_read_ahead_once_its_summary_lands(stub_llm: StubLLM) -> None:
    """After a summary is applied, the session's new prompt (system, summary, kept messages,
    as the next turn's step sends them) is evaluated on the session's slot, before its next
    turn: llama-server reuses a prompt that lost messages, not one that gained a summary."""
    await _summarized_session(stub_llm, warm=True, other_first=True)  # "s" is on slot 1
    warms = [r for r in stub_llm.requests if r.get("max_tokens") == 1]
    assert warms, "no prompt was read ahead"
    for warm in warms:
        messages = warm["messages"]
        assert warm.get("id_slot") == 1
        assert messages[0]["role"] == "system"
        assert messages[1]["content"].startswith("Summary of the earlier conversation")
        assert messages[-1] == {"role": "user", "content": "Hello."}
        assert messages[-2]["role"] == "assistant"
    assert stub_llm.requests.index(warms[0]) > stub_llm.requests.index(_summaries(stub_llm)[0])


async def test_no_prompt_is_read_ahead_without_warm_start(stub_llm: StubLLM) -> None:
    await _summarized_session(stub_llm, warm=False)
    assert _summaries(stub_llm)
    assert not [r for r in stub_llm.requests if r.get("max_tokens") == 1]


async def save_note(text: str) -> str:
    """Save a note."""
    return "saved"


async def test_the_plan_questions_prompt_is_read_again_on_its_slot_after_a_summary(
    stub_llm: StubLLM,
) -> None:
    """The summary was written on the slot the plan question shares: after it lands, the plan
    question's prompt is read there again, not left for the next turn's question."""
    tools = ToolRegistry()
    tools.add(save_note)
    await _summarized_session(stub_llm, warm=True, tools=tools)
    expected = [m.content for m in plan.prompt(PLACEHOLDER, tools.schemas())]
    # Plan questions are kept apart by the stub; no warm-up ran at start, so every one
    # asking for a single token was sent after the summary.
    warmed = [r for r in stub_llm.plans if r.get("max_tokens") == 1]
    assert [[m["content"] for m in r["messages"]] for r in warmed] == [expected]
    assert [r.get("id_slot") for r in warmed] == [2]
    asked = [r for r in stub_llm.plans if r.get("max_tokens") != 1]
    assert asked and all(r["messages"][:-1] == warmed[0]["messages"][:-1] for r in asked)
