"""A session keeps its llama-server slot: the ``id_slot`` each request carries (stub server)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx
import pytest

from agentd.config import AgentDefaults
from agentd.engine import readahead
from agentd.engine import runtime as runtime_module
from agentd.engine.guards import plan
from agentd.engine.loop import AgentLoop
from agentd.engine.runtime import Runtime
from agentd.engine.warmup import PLACEHOLDER, Warmup
from agentd.messages import Message, user
from agentd.model import pinning
from agentd.model.client import LLMClient
from agentd.model.pinning import SlotPins
from agentd.model.usage import Usage
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


@asynccontextmanager
async def summarizing(
    stub: StubLLM, tools: ToolRegistry | None = None
) -> AsyncIterator[tuple[Runtime, LLMClient]]:
    """A runtime on two pinned session slots that summarises past a small threshold; the stub
    answers 400 characters a turn."""
    stub.fallback = lambda body: Reply("x" * 400)
    async with pinned_runtime(
        stub.url,
        SlotPins(2),
        tools,
        compaction_strategy="summarize",
        compaction_threshold=650,
        max_tokens=100_000,
    ) as pair:
        yield pair


async def _ask_eight(runtime: Runtime) -> None:
    """Eight turns of session "s": past the threshold."""
    for i in range(8):
        await runtime.ask("s", f"question {i}")


def _summaries(stub: StubLLM, *, pieces: bool = False) -> list[dict[str, Any]]:
    """The summary requests; with ``pieces``, the requests that read one's prompt ahead."""
    return [
        r
        for r in stub.requests
        if "Summarize this conversation" in str(r.get("messages"))
        and (r.get("max_tokens") == 1) == pieces
    ]


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Prompts read ahead in pieces of 300 characters: the stub's summaries are short."""
    monkeypatch.setattr(readahead, "PIECE_CHARS", 300)


def _is_prefix(piece: list[dict[str, Any]], whole: list[dict[str, Any]]) -> bool:
    """The messages of ``piece`` are ``whole``'s up to its last, whose text begins that one's."""
    *before, last = piece
    counterpart = whole[len(before)]
    return (
        before == whole[: len(before)]
        and last["role"] == counterpart["role"]
        and counterpart["content"].startswith(last["content"])
    )


async def _summarized_session(
    stub: StubLLM, *, warm: bool, other_first: bool = False, tools: ToolRegistry | None = None
) -> None:
    """Eight turns of session "s", past the summary threshold, and the summary written;
    ``warm``: with warm start on; ``other_first``: another session takes slot 0 before."""
    async with summarizing(stub, tools) as (runtime, llm):
        if warm:
            runtime.warm = llm.warm
        if other_first:
            await runtime.ask("other", "first")
        await _ask_eight(runtime)
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
    summary = stub_llm.requests.index(_summaries(stub_llm)[0])
    warms = [r for r in stub_llm.requests[summary:] if r.get("max_tokens") == 1]
    assert warms, "no prompt was read ahead"
    *pieces, final = warms
    for warm in warms:
        messages = warm["messages"]
        assert warm.get("id_slot") == 1
        assert messages[0]["role"] == "system"
        assert messages[1]["content"].startswith("Summary of the earlier conversation")
    assert final["messages"][-1] == {"role": "user", "content": "Hello."}
    assert final["messages"][-2]["role"] == "assistant"
    # Read in pieces (:mod:`agentd.engine.readahead`): ever longer prefixes of the prompt.
    assert pieces and all(_is_prefix(p["messages"], final["messages"]) for p in pieces)


async def test_a_summarys_prompt_is_read_in_pieces_before_it_is_asked(
    stub_llm: StubLLM, small_pieces: None
) -> None:
    """A summary's prompt is read ahead in pieces on the background slot, then asked: no
    request of a turn that comes meanwhile waits for more than one piece to be read."""
    await _summarized_session(stub_llm, warm=True)
    summary = _summaries(stub_llm)[0]
    before = stub_llm.requests[: stub_llm.requests.index(summary)]
    pieces = [r for r in _summaries(stub_llm, pieces=True) if r in before]
    assert len(pieces) >= 2
    assert {r.get("id_slot") for r in pieces} == {2}
    assert all(_is_prefix(p["messages"], summary["messages"]) for p in pieces)
    sizes = [len(str(p["messages"])) for p in pieces]
    assert sizes == sorted(sizes) and sizes[-1] < len(str(summary["messages"]))


async def test_no_piece_is_read_while_a_turn_is_in_flight(
    stub_llm: StubLLM, small_pieces: None
) -> None:
    """The summary waits with its pieces while turns are in flight, and goes on after."""
    async with summarizing(stub_llm) as (runtime, llm):
        runtime.warm = llm.warm
        with runtime.working():  # work in flight, as a turn's
            await _ask_eight(runtime)
            assert len(runtime.summaries) == 1
            await anyio.sleep(0.5)
            assert not _summaries(stub_llm, pieces=True) and not _summaries(stub_llm)
        with anyio.fail_after(10):
            await runtime.summaries.wait_idle()
    assert _summaries(stub_llm, pieces=True) and _summaries(stub_llm)


async def test_work_that_waited_long_enough_goes_ahead_beside_the_turns(
    stub_llm: StubLLM, small_pieces: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a daemon never idle, the summary still lands: after the runtime's patience its
    pieces go beside the turns."""
    monkeypatch.setattr(runtime_module, "QUIET_PATIENCE", 0.05)
    async with summarizing(stub_llm) as (runtime, llm):
        runtime.warm = llm.warm
        with runtime.working():
            await _ask_eight(runtime)
            with anyio.fail_after(10):
                await runtime.summaries.wait_idle()
            assert _summaries(stub_llm, pieces=True) and _summaries(stub_llm)


async def test_a_turn_of_the_session_ends_the_reading_of_its_prompt(stub_llm: StubLLM) -> None:
    """A turn of the session that starts while its new prompt is read ahead reads the rest
    itself: the reading stops, and the prompt with the placeholder is never sent."""
    read: list[tuple[int | None, list[Message]]] = []
    async with summarizing(stub_llm) as (runtime, llm):

        async def warm(messages: Sequence[Message], tools: Any) -> Usage:
            read.append((pinning.current(), list(messages)))
            if pinning.current() == 0 and len(read) == 1 + len(_summaries(stub_llm, pieces=True)):
                await runtime.ask("s", "meanwhile")
            return await llm.warm(messages, tools)

        runtime.warm = warm
        await _ask_eight(runtime)
        with anyio.fail_after(10):
            await runtime.summaries.wait_idle()
    session = [messages for slot, messages in read if slot == 0]
    assert len(session) == 1, "the reading went on after the session's turn"
    assert session[0][-1].content != PLACEHOLDER
    assert _slots(stub_llm, "meanwhile") == [0]


class _Copies:
    """Stands in for ``SlotFiles.copy``: records each copy and what the session held then."""

    def __init__(self, runtime: Runtime, stub: StubLLM, tokens: int = 3000) -> None:
        self.runtime, self.stub, self.tokens = runtime, stub, tokens
        self.done: list[tuple[int, list[int], bool, int]] = []
        #: Where the questions every session asks went while the copy was made.
        self.questions: list[int | None] = []

    async def __call__(self, source: int, targets: Sequence[int]) -> int:
        conv = self.runtime.sessions.cached("s")
        summarized = conv is not None and any(m.metadata.get("summary") for m in conv.messages)
        self.done.append((source, list(targets), summarized, len(self.stub.requests)))
        assert self.runtime.pins is not None
        self.questions.append(self.runtime.pins.questions_slot())
        return self.tokens


async def _landed_session(stub: StubLLM, copies_tokens: int) -> _Copies:
    """Session "s" on slot 1 summarized, with a slot copy that restores ``copies_tokens``."""
    async with summarizing(stub) as (runtime, llm):
        runtime.warm = llm.warm
        copies = _Copies(runtime, stub, copies_tokens)
        runtime.copy_slot = copies
        await runtime.ask("other", "first")
        await _ask_eight(runtime)
        await runtime.summaries.wait_idle()
        await runtime.ask("s", "after")
    return copies


async def test_the_next_prompt_is_read_on_the_summarys_slot_and_copied_as_it_lands(
    stub_llm: StubLLM,
) -> None:
    """With the server's slots saved, the session's next prompt is read on the background
    slot before the summary lands (the session's own slot keeps the prompt its turns use
    meanwhile), then copied into the session's slot as the summary is applied."""
    copies = await _landed_session(stub_llm, 3000)
    [(source, targets, summarized, at)] = copies.done
    assert (source, targets, summarized) == (2, [1], True)
    # Until the copy was made, no question could replace what was read on the summary's slot.
    assert copies.questions == [3]
    summary = stub_llm.requests.index(_summaries(stub_llm)[0])
    read = [r for r in stub_llm.requests[summary:at] if r.get("max_tokens") == 1]
    assert len(read) >= 2 and {r.get("id_slot") for r in read} == {2}
    *pieces, final = read
    assert final["messages"][1]["content"].startswith("Summary of the earlier conversation")
    assert final["messages"][-1] == {"role": "user", "content": "Hello."}
    assert all(_is_prefix(p["messages"], final["messages"]) for p in pieces)
    # Nothing read on the session's slot after: its next turn finds the prompt copied.
    assert not [r for r in stub_llm.requests[at:] if r.get("max_tokens") == 1]
    [turn] = [r for r in stub_llm.requests[at:] if r["messages"][-1]["content"] == "after"]
    assert turn["id_slot"] == 1 and turn["messages"][:-1] == final["messages"][:-1]


async def test_a_failed_copy_reads_the_prompt_on_the_sessions_slot(stub_llm: StubLLM) -> None:
    """When the copy restored nothing, the prompt is read on the session's slot instead."""
    copies = await _landed_session(stub_llm, 0)
    [(_, _, _, at)] = copies.done
    after = [r for r in stub_llm.requests[at:] if r.get("max_tokens") == 1]
    assert after and {r.get("id_slot") for r in after} == {1}
    assert after[-1]["messages"][-1] == {"role": "user", "content": "Hello."}


async def test_messages_added_while_the_prompt_was_read_are_read_too(
    stub_llm: StubLLM,
) -> None:
    """A turn of the session that ran while its next prompt was read adds messages: they are
    read too before the summary lands."""
    async with summarizing(stub_llm) as (runtime, llm):
        asked: list[bool] = []

        async def warm(messages: Sequence[Message], tools: Any) -> Usage:
            if pinning.current() == 2 and PLACEHOLDER in messages[-1].content and not asked:
                asked.append(True)
                await runtime.ask("s", "meanwhile")
            return await llm.warm(messages, tools)

        runtime.warm = warm
        runtime.copy_slot = _Copies(runtime, stub_llm)
        await _ask_eight(runtime)
        with anyio.fail_after(10):
            await runtime.summaries.wait_idle()
    finals = [
        r["messages"]
        for r in stub_llm.requests
        if r.get("max_tokens") == 1 and r["messages"][-1]["content"] == PLACEHOLDER
    ]
    assert len(finals) == 2
    assert not any(m["content"] == "meanwhile" for m in finals[0])
    assert any(m["content"] == "meanwhile" for m in finals[1])


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
    *pieces, warmed = [r for r in stub_llm.plans if r.get("max_tokens") == 1]
    assert [m["content"] for m in warmed["messages"]] == expected
    assert all(_is_prefix(p["messages"], warmed["messages"]) for p in pieces)
    assert {r.get("id_slot") for r in [*pieces, warmed]} == {2}
    asked = [r for r in stub_llm.plans if r.get("max_tokens") != 1]
    assert asked and all(r["messages"][:-1] == warmed["messages"][:-1] for r in asked)
