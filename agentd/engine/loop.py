"""The agent loop: one turn = model -> tools -> model ... -> final answer.

The conversation only ever grows by whole units: an assistant message that asks for tools is
appended together with all of its tool results, after they are all in. A turn cancelled or failed
midway therefore never leaves an assistant ``tool_calls`` message without its results.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any

import anyio
import structlog

from agentd.engine.budget import ContextBudget
from agentd.errors import ContextExceeded, ContextOverflow
from agentd.messages import Conversation, Message, ToolCall, assistant, tool_result
from agentd.model.client import ChatModel, ChatResult, Completed, TextDelta, Usage
from agentd.tools.fit import cut_to_fit
from agentd.tools.registry import ToolOutcome, ToolRegistry

log = structlog.get_logger("agentd.engine.loop")

#: The answer's metadata key that records the prompt tokens of its model call and the context.
CONTEXT_KEY = "context"
STEPS_EXHAUSTED = "(I stopped: this turn used all its tool steps without reaching an answer.)"

OnAppend = Callable[[Sequence[Message]], Awaitable[None]]
OnDelta = Callable[[str], Awaitable[None]]
ToolObserver = Callable[[str, bool, float], None]


@dataclass(slots=True)
class TurnResult:
    """The final assistant message, the tokens the turn used, and what it added."""

    message: Message
    usage: Usage = field(default_factory=Usage)
    steps: int = 0
    added: list[Message] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TurnDone:
    """The last event of a turn: its result."""

    result: TurnResult


TurnEvent = TextDelta | TurnDone


class AgentLoop:
    """Runs turns against a model with the tools of a registry."""

    def __init__(
        self,
        model: ChatModel,
        tools: ToolRegistry | None = None,
        *,
        max_steps: int = 8,
        on_tool: ToolObserver | None = None,
        budget: ContextBudget | None = None,
    ) -> None:
        self.model = model
        self.tools = tools if tools is not None else ToolRegistry()
        self.max_steps = max_steps
        self.budget = budget
        self._on_tool = on_tool

    async def run(
        self,
        conversation: Conversation,
        *,
        stream: bool = False,
        use_tools: bool = True,
        on_append: OnAppend | None = None,
        on_delta: OnDelta | None = None,
    ) -> TurnResult:
        """Run one turn to its final answer; with ``stream`` text deltas go to ``on_delta``.

        Nothing here outlives the call: the model's stream is closed (``aclosing``) before
        this returns or raises, in the caller's task.
        """
        usage = Usage()
        added: list[Message] = []
        schemas = self.tools.schemas() if use_tools and len(self.tools) else None
        names = self.tools.names if schemas else frozenset()
        for step in range(1, self.max_steps + 1):
            last = step == self.max_steps
            # The last step offers no tools, so the model has to answer in words.
            offered = None if last else schemas
            offered_names = frozenset() if last else names
            result = await self._call(conversation, offered, offered_names, stream, on_delta)
            usage.add(result.usage)
            reply = result.message
            if last and reply.tool_calls:
                # Offered no tools, a server may still send tool calls: running them would
                # exceed the bound, keeping them unanswered would break the conversation.
                log.warning("turn.max_steps", steps=step, tools=[c.name for c in reply.tool_calls])
                reply = assistant(reply.content or STEPS_EXHAUSTED)
                if stream and not result.message.content and on_delta is not None:
                    await on_delta(reply.content)
            if not reply.tool_calls:
                if self.budget is not None and result.usage.prompt_tokens:
                    # Stored with the answer: how full the context was (`sessions show`).
                    reply.metadata[CONTEXT_KEY] = {
                        "tokens": result.usage.prompt_tokens,
                        "limit": self.budget.context,
                    }
                await _commit(conversation, [reply], added, on_append)
                return TurnResult(reply, usage, step, added)
            log.info("turn.tools", step=step, tools=[c.name for c in reply.tool_calls])
            outcomes = await self._run_tools(reply.tool_calls)
            results = [
                tool_result(call, self._fitted(call, out.content, offered, len(outcomes)))
                if not out.error
                else tool_result(call, out.content, error=True)
                for call, out in zip(reply.tool_calls, outcomes, strict=True)
            ]
            await _commit(conversation, [reply, *results], added, on_append)
        raise AssertionError("the last step always ends the turn")  # pragma: no cover

    async def first_step(
        self,
        conversation: Conversation,
        *,
        schemas: Sequence[dict[str, Any]] | None = None,
    ) -> ChatResult:
        """The model's first step of a turn, run no further: what the agent would do first.

        ``schemas`` replaces the registry's tools (OpenAI ``tools`` entries) for this call;
        benchmarks use it to offer functions that have no implementation here.
        """
        offered = list(schemas) if schemas is not None else self.tools.schemas() or None
        names = frozenset(s["function"]["name"] for s in offered or ())
        return await self._call(conversation, offered or None, names, False, None)

    async def _call(
        self,
        conversation: Conversation,
        offered: Sequence[dict[str, Any]] | None,
        offered_names: frozenset[str],
        stream: bool,
        on_delta: OnDelta | None,
    ) -> ChatResult:
        """One model call with what fits the context; a "context exceeded" answer is retried
        once with a tighter count, then raised as ContextOverflow."""
        budget = self.budget
        retried = False
        while True:
            sent = conversation.messages if budget is None else budget.fit(conversation, offered)
            try:
                if stream:
                    result = await self._streamed(sent, offered, offered_names, on_delta)
                else:
                    result = await self.model.chat(sent, offered, offered_names)
            except ContextExceeded as exc:
                if budget is None or retried:
                    limit = exc.limit or (budget.context if budget is not None else 0)
                    raise ContextOverflow(needed=exc.requested or limit, limit=limit) from exc
                log.warning("context.exceeded", limit=exc.limit, requested=exc.requested)
                budget.tighten(sent, offered, exc.requested, exc.limit)
                retried = True
                continue
            if budget is not None:
                budget.calibrate(sent, offered, result.usage.prompt_tokens)
            conversation.prompt_tokens = result.usage.prompt_tokens
            return result

    def _fitted(
        self,
        call: ToolCall,
        text: str,
        offered: Sequence[dict[str, Any]] | None,
        results: int,
    ) -> str:
        """A tool result cut to its share of half the room, so the next call still fits."""
        if self.budget is None:
            return text
        limit = self.budget.chars_for(self.budget.room(offered) // (2 * max(results, 1)))
        hint = (
            "read a smaller part with read_file's offset and length"
            if call.name == "read_file"
            else "the rest did not fit the model's context"
        )
        return cut_to_fit(text, limit, hint=hint)

    async def _streamed(
        self,
        messages: Sequence[Message],
        offered: Sequence[dict[str, Any]] | None,
        offered_names: frozenset[str],
        on_delta: OnDelta | None,
    ) -> ChatResult:
        result: ChatResult | None = None
        events = self.model.stream(messages, offered, offered_names)
        async with aclosing(events):  # type: ignore[type-var]
            async for event in events:
                if isinstance(event, Completed):
                    result = event.result
                elif on_delta is not None:
                    await on_delta(event.text)
        assert result is not None
        return result

    async def _run_tools(self, calls: Sequence[ToolCall]) -> list[ToolOutcome]:
        outcomes: list[ToolOutcome | None] = [None] * len(calls)

        async def one(index: int, call: ToolCall) -> None:
            started = anyio.current_time()
            outcome = await self.tools.call(call)
            outcomes[index] = outcome
            if self._on_tool is not None:
                self._on_tool(call.name, outcome.error, anyio.current_time() - started)

        if len(calls) == 1:
            await one(0, calls[0])
        else:
            async with anyio.create_task_group() as tg:
                for index, call in enumerate(calls):
                    tg.start_soon(one, index, call)
        return [o for o in outcomes if o is not None]


async def _commit(
    conversation: Conversation,
    messages: list[Message],
    added: list[Message],
    on_append: OnAppend | None,
) -> None:
    # Persist first, then show in memory: what the model sees next is what is stored.
    if on_append is not None:
        await on_append(messages)
    conversation.extend(messages)
    added.extend(messages)
