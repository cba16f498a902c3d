"""Warm start: one request puts the system prompt and the tools in the server's prompt cache."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx
import pytest

from agentd.config import AgentDefaults
from agentd.config.settings import Switch
from agentd.engine.guards.shown import SHOWN_HEAD
from agentd.engine.loop import AgentLoop
from agentd.engine.runtime import Runtime
from agentd.engine.warmup import Warmup
from agentd.messages import Message
from agentd.model.client import LLMClient
from agentd.model.pinning import SlotPins
from agentd.model.usage import Usage
from agentd.tools.registry import ToolRegistry
from tests.support.stub_llm import Reply, StubLLM, render, running_stub, tokens

pytestmark = pytest.mark.anyio

PROMPT = "You are a careful assistant. " * 20


async def lookup(city: str) -> str:
    """Look up the weather of a city."""
    return f"sunny in {city}"


@asynccontextmanager
async def warm_runtime(
    stub: StubLLM, route: Switch = "auto"
) -> AsyncIterator[tuple[Runtime, LLMClient]]:
    """A runtime with one tool and a grammar-holding client, on the stub."""
    tools = ToolRegistry()
    tools.add(lookup, looks=True)
    async with httpx.AsyncClient(timeout=30) as http:
        llm = LLMClient(http, base_url=stub.url, model="stub", max_retries=0, tool_grammar="on")
        loop = AgentLoop(llm, tools, max_steps=4, guards={"route": route})
        async with Runtime(loop, system_prompt=PROMPT, defaults=AgentDefaults()) as runtime:
            yield runtime, llm


async def until(check: Callable[[], bool]) -> None:
    """Return once ``check()`` holds (the state is a plain attribute: no event to wait on)."""
    while not check():  # noqa: ASYNC110
        await anyio.sleep(0.01)


def _request(body: dict[str, Any]) -> dict[str, Any]:
    """A request's fields that shape its prompt or its sampling (not its length, nor whether
    and how it streams)."""
    skip = {"messages", "max_tokens", "stream", "stream_options", "timings_per_token"}
    return {k: v for k, v in body.items() if k not in skip}


async def _warmed(runtime: Runtime, llm: LLMClient) -> None:
    """Run a warm-up to its end."""
    warmup = Warmup(runtime.first_requests, llm.warm, enabled=True)
    async with anyio.create_task_group() as tg:
        tg.start_soon(warmup.serve)
        with anyio.fail_after(10):
            await until(lambda: warmup.state == "done")
        tg.cancel_scope.cancel()


async def test_the_first_turn_finds_the_prompt_and_tools_cached() -> None:
    """The warm-up sends what a first turn sends before the user's words, with max_tokens 1,
    and the turn's own request then reads the system prompt and tools from the cache."""
    with running_stub(timings=True) as stub:
        async with warm_runtime(stub, route="off") as (runtime, llm):
            await _warmed(runtime, llm)
            result = await runtime.ask("s1", "What is the weather in Oslo?")
    warm, turn = stub.requests[:2]
    assert warm["max_tokens"] == 1
    assert _request(warm) == _request(turn)
    assert "grammar" in warm and warm["tools"]
    assert warm["messages"][0] == turn["messages"][0] == {"role": "system", "content": PROMPT}
    prefix = render({"tools": warm["tools"], "messages": warm["messages"][:1]})
    assert render(turn).startswith(prefix)
    assert result.usage.cached_tokens >= len(prefix) // 4 - 1
    assert result.usage.cached_tokens >= tokens(turn) // 2


async def test_a_routed_turn_asks_its_question_on_the_warmed_prefix() -> None:
    """With routing, a turn's first request is the routing question: same system message,
    tools and tool_choice as the warm-up's, so its template renders the same prefix."""
    with running_stub() as stub:
        async with warm_runtime(stub, route="on") as (runtime, llm):
            await _warmed(runtime, llm)
            await runtime.ask("s1", "What is the weather in Oslo?")
    warm, question = stub.requests[0], stub.routes[0]
    shape = ("model", "tools", "tool_choice")
    assert [warm.get(k) for k in shape] == [question.get(k) for k in shape]
    assert question["messages"][0] == warm["messages"][0]


async def test_without_warm_up_the_first_turn_reads_everything() -> None:
    """Off, nothing is sent before the turn, which finds nothing cached (the test above's
    measure fails without the warm-up)."""
    with running_stub(timings=True) as stub:
        async with warm_runtime(stub) as (runtime, llm):
            warmup = Warmup(runtime.first_requests, llm.warm, enabled=False)
            await warmup.serve()  # returns at once
            result = await runtime.ask("s1", "What is the weather in Oslo?")
    assert warmup.state == "off"
    assert len(stub.requests) == 1
    assert result.usage.cached_tokens == 0


class Blocking:
    """A warm call that waits until released, recording what it was sent."""

    def __init__(self) -> None:
        self.sent: list[list[Message]] = []
        self.release = anyio.Event()
        self.cancelled = 0

    async def __call__(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None
    ) -> Usage:
        self.sent.append(list(messages))
        try:
            await self.release.wait()
        except anyio.get_cancelled_exc_class():
            self.cancelled += 1
            raise
        return Usage(10, 1)


async def test_a_turn_that_starts_first_cancels_the_warm_up_and_never_waits() -> None:
    """A user turn arriving while the warm-up runs goes ahead at once; the warm-up stops."""
    with running_stub() as stub:
        async with warm_runtime(stub) as (runtime, _):
            warm = Blocking()
            warmup = Warmup(runtime.first_requests, warm, enabled=True)
            runtime.on_start = warmup.turn_started
            async with anyio.create_task_group() as tg:
                tg.start_soon(warmup.serve)
                with anyio.fail_after(5):
                    await until(lambda: warmup.state == "warming")
                    result = await runtime.ask("s1", "hi")
                await anyio.sleep(0.05)
                assert (warmup.state, warm.cancelled) == ("skipped", 1)
                tg.cancel_scope.cancel()
    assert result.message.content == "echo: hi"


async def test_a_new_prompt_is_warmed_again() -> None:
    """After SIGHUP's reload, trigger warms the new prompt (also cancelling a stale one)."""
    with running_stub() as stub:
        async with warm_runtime(stub) as (runtime, _):
            warm = Blocking()
            warmup = Warmup(runtime.first_requests, warm, enabled=True)
            async with anyio.create_task_group() as tg:
                tg.start_soon(warmup.serve)
                with anyio.fail_after(5):
                    await until(lambda: bool(warm.sent))
                    runtime.reload("A new prompt.")
                    warmup.trigger()
                    await until(lambda: len(warm.sent) >= 2)
                    warm.release.set()
                    await until(lambda: warmup.state == "done")
                tg.cancel_scope.cancel()
    assert warm.cancelled == 1
    assert [m[0].content for m in warm.sent] == [PROMPT, "A new prompt."]


async def test_a_failed_warm_up_is_reported_and_harms_nothing() -> None:
    """A model server that refuses the warm-up leaves the state ``failed``; turns still run."""
    with running_stub() as stub:
        async with warm_runtime(stub) as (runtime, llm):
            stub.add(Reply(status=500, text="busy"))
            warmup = Warmup(runtime.first_requests, llm.warm, enabled=True)
            async with anyio.create_task_group() as tg:
                tg.start_soon(warmup.serve)
                with anyio.fail_after(5):
                    await until(lambda: warmup.state not in ("pending", "warming"))
                tg.cancel_scope.cancel()
            result = await runtime.ask("s1", "hi")
    assert warmup.state == "failed"
    assert result.message.content == "echo: hi"


async def save_note(text: str) -> str:
    """Save a note for later."""
    return "saved"


def _common(a: str, b: str) -> int:
    """How many leading characters ``a`` and ``b`` share."""
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )


async def test_a_pinned_first_turn_finds_its_question_and_its_step_warmed() -> None:
    """With a tool that acts, the warm-up also sends the intent question's prefix (asked by
    the plan question) to the questions' slot, the intent question's to the quick slot, and
    the step's to the slot the first session takes: the first turn asks its question on the
    questions' slot (never the session's, whose cache it would replace) and each of its
    requests shares all but its own words with what that slot was warmed with. Without the
    questions' slot both went to the session's slot."""
    tools = ToolRegistry()
    tools.add(lookup, looks=True)
    tools.add(save_note)
    pins = SlotPins(2)
    with running_stub() as stub:
        stub.plan_answer = "none"
        async with httpx.AsyncClient(timeout=30) as http:
            llm = LLMClient(http, base_url=stub.url, model="stub", max_retries=0, tool_grammar="on")
            loop = AgentLoop(llm, tools, max_steps=4, guards={"route": "off"})
            async with Runtime(
                loop, system_prompt=PROMPT, defaults=AgentDefaults(), pins=pins
            ) as runtime:
                warmup = Warmup(runtime.first_requests, llm.warm, enabled=True, pins=pins)
                async with anyio.create_task_group() as tg:
                    tg.start_soon(warmup.serve)
                    with anyio.fail_after(10):
                        await until(lambda: warmup.state == "done")
                    tg.cancel_scope.cancel()
                await runtime.ask("s1", "What is 17 times 23?")
    warm_question, question = stub.plans
    warm_step, step = stub.requests
    # The intent question that confirms a planned command is warmed on the quick slot (the
    # turn, an answer, asks none).
    (warm_intent,) = stub.intents
    assert warm_intent["id_slot"] == pins.quick and warm_intent["max_tokens"] == 1
    assert warm_question["max_tokens"] == 1 and warm_step["max_tokens"] == 1
    assert warm_question["id_slot"] == question["id_slot"] == pins.questions
    assert warm_step["id_slot"] == step["id_slot"] == 0
    # The question: everything up to the request's words was warmed.
    asked = render(question)
    assert _common(render(warm_question), asked) == asked.index("What is 17")
    # The step (an answer: no tools offered) shares the whole system message.
    assert step["messages"][0] == warm_step["messages"][0] == {"role": "system", "content": PROMPT}


async def test_the_warmed_step_prefix_is_copied_into_the_other_empty_session_slots() -> None:
    """The step's prefix is warmed on the slot the next new session takes and then copied
    into the other session slots no session took: the second new session finds it too. A
    slot a session holds already is left alone."""
    pins = SlotPins(3)
    with pins.hold(("t", "earlier")):
        pass  # slot 0 is that session's now
    copies: list[tuple[int, list[int]]] = []

    async def spread(source: int, targets: Sequence[int]) -> int:
        copies.append((source, list(targets)))
        return 1557 * len(targets)

    with running_stub() as stub:
        async with httpx.AsyncClient(timeout=30) as http:
            llm = LLMClient(http, base_url=stub.url, model="stub", max_retries=0)
            loop = AgentLoop(llm, ToolRegistry(), max_steps=4, guards={"route": "off"})
            async with Runtime(
                loop, system_prompt=PROMPT, defaults=AgentDefaults(), pins=pins
            ) as runtime:
                warmup = Warmup(
                    runtime.first_requests, llm.warm, enabled=True, pins=pins, spread=spread
                )
                async with anyio.create_task_group() as tg:
                    tg.start_soon(warmup.serve)
                    with anyio.fail_after(10):
                        await until(lambda: warmup.state == "done")
                    tg.cancel_scope.cancel()
    (warm_step,) = stub.requests
    assert warm_step["id_slot"] == 1
    assert copies == [(1, [2])]


async def remember(fact: str) -> str:
    """Keep a fact."""
    return "kept"


@pytest.mark.parametrize(
    ("kinds", "confirms"),
    [(("",), True), (("file",), False), (("file", "memory"), True), (("file", "file"), False)],
)
async def test_the_confirming_intent_prompt_is_warmed_only_for_a_doubtful_plan(
    kinds: tuple[str, ...], confirms: bool
) -> None:
    """The intent question that confirms a plan is warmed only when a plan it would confirm
    can be made of the tools on offer: one of no kind, or tools of two kinds (tools of one
    kind never need it)."""
    tools = ToolRegistry()
    tools.add(lookup, looks=True)
    tools.add(save_note, kind=kinds[0])
    if len(kinds) > 1:
        tools.add(remember, kind=kinds[1])
    with running_stub() as stub:
        async with httpx.AsyncClient(timeout=30) as http:
            llm = LLMClient(http, base_url=stub.url, model="stub", max_retries=0, tool_grammar="on")
            loop = AgentLoop(llm, tools, max_steps=4)
            async with Runtime(loop, system_prompt=PROMPT, defaults=AgentDefaults()) as runtime:
                first = await runtime.first_requests()
    assert (first[0].shared, first[0].apart) == (True, False)  # the plan question
    assert any(p.apart for p in first) is confirms


@pytest.mark.parametrize(
    ("kind", "switch", "warmed"),
    [("command", "auto", True), ("command", "off", False), ("file", "auto", False)],
)
async def test_the_shown_prompt_is_warmed_when_a_command_can_be_planned(
    kind: str, switch: Switch, warmed: bool
) -> None:
    """With a command on offer, the question whether a planned command is only to be written
    out is warmed on the quick slot after the intent question that confirms it (not when the
    rule is off, nor with no command to plan)."""
    tools = ToolRegistry()
    tools.add(lookup, looks=True)
    tools.add(save_note, kind=kind)
    with running_stub() as stub:
        async with httpx.AsyncClient(timeout=30) as http:
            llm = LLMClient(http, base_url=stub.url, model="stub", max_retries=0, tool_grammar="on")
            loop = AgentLoop(llm, tools, max_steps=4, guards={"shown": switch})
            async with Runtime(loop, system_prompt=PROMPT, defaults=AgentDefaults()) as runtime:
                first = await runtime.first_requests()
    shown = [p for p in first if p.messages[0].content == SHOWN_HEAD]
    assert len(shown) == int(warmed) and all(p.apart and not p.shared for p in shown)
    if warmed:
        assert first[-1] is shown[0]
