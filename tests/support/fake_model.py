"""An in-process scripted ChatModel for agent loop, runtime and compaction tests."""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentd.messages import Message, ToolCall, assistant
from agentd.model.choice import ANY, CallRule
from agentd.model.client import ChatResult, Completed, StreamEvent, TextDelta, Usage

Step = ChatResult | Exception | Callable[[Sequence[Message]], Awaitable[ChatResult]]


def answer(text: str, *calls: tuple[str, str], usage: tuple[int, int] = (1, 1)) -> ChatResult:
    """A scripted model answer: text and tool calls given as (name, JSON arguments)."""
    tool_calls = [ToolCall(f"call_{i}", name, args) for i, (name, args) in enumerate(calls)]
    return ChatResult(assistant(text, tool_calls), Usage(*usage))


@dataclass
class Request:
    messages: list[Message]
    tools: list[dict[str, Any]] | None
    tool_names: frozenset[str]
    stream: bool
    answer_only: bool = False
    rule: CallRule = ANY


@dataclass
class FakeModel:
    """Answers from ``script`` in order, then ``fallback``; records every request."""

    script: deque[Step] = field(default_factory=deque)
    fallback: Callable[[Sequence[Message]], ChatResult] = lambda msgs: answer(
        "echo: " + msgs[-1].content
    )
    requests: list[Request] = field(default_factory=list)
    #: What ``choose`` answers (in order), and the questions it was asked.
    choices: deque[str | None] = field(default_factory=deque)
    asked: list[list[Message]] = field(default_factory=list)

    #: The tools each ``choose`` was shown (None: none).
    shown: list[list[dict[str, Any]] | None] = field(default_factory=list)
    #: The options each ``choose`` was given, in order, and how many it could pick.
    options: list[tuple[str, ...]] = field(default_factory=list)
    most: list[int] = field(default_factory=list)

    async def choose(
        self,
        messages: Sequence[Message],
        options: Sequence[str],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        usage: Usage | None = None,
        most: int = 1,
    ) -> str | None:
        if usage is not None:
            usage.add(Usage(2, 1))
        self.asked.append(list(messages))
        self.shown.append(list(tools) if tools is not None else None)
        self.options.append(tuple(options))
        self.most.append(most)
        return self.choices.popleft() if self.choices else None

    def add(self, *steps: Step) -> None:
        self.script.extend(steps)

    async def _next(self, messages: Sequence[Message]) -> ChatResult:
        if not self.script:
            return self.fallback(messages)
        step = self.script.popleft()
        if isinstance(step, Exception):
            raise step
        if isinstance(step, ChatResult):
            return step
        return await step(messages)

    async def chat(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: frozenset[str] = frozenset(),
        *,
        answer_only: bool = False,
        rule: CallRule = ANY,
    ) -> ChatResult:
        tools_list = list(tools) if tools else None
        self.requests.append(
            Request(list(messages), tools_list, tool_names, False, answer_only, rule)
        )
        return await self._next(messages)

    async def stream(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: frozenset[str] = frozenset(),
        *,
        answer_only: bool = False,
        rule: CallRule = ANY,
    ) -> AsyncIterator[StreamEvent]:
        tools_list = list(tools) if tools else None
        self.requests.append(
            Request(list(messages), tools_list, tool_names, True, answer_only, rule)
        )
        result = await self._next(messages)
        for i, word in enumerate(result.message.content.split(" ")):
            piece = word if i == 0 else " " + word
            if piece:
                yield TextDelta(piece)
        yield Completed(result)
