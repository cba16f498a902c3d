"""TimedModel: a chat model that reports how long each call took and how it ended.

It reports through a plain callable, ``observe(mode, outcome, seconds)`` (``Metrics.on_llm`` in
the daemon), so the model package knows nothing about metrics: ``mode`` is ``chat`` or
``stream``, ``outcome`` is ``ok``, ``error`` or ``cancelled`` (a stream closed before its end).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Callable, Sequence
from contextlib import aclosing
from typing import Any, cast

import anyio

from agentd.messages import Message
from agentd.model.choice import ANY, CallRule
from agentd.model.client import ChatModel, ChatResult, Completed, StreamEvent
from agentd.model.usage import Usage

__all__ = ["Observe", "TimedModel"]

#: Receives one call's mode (chat, stream), outcome (ok, error, cancelled) and duration.
Observe = Callable[[str, str, float], None]


class TimedModel:
    """A ChatModel that reports each call's duration and outcome; otherwise transparent."""

    def __init__(self, inner: ChatModel, observe: Observe) -> None:
        self.inner = inner
        self._observe = observe

    async def chat(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: frozenset[str] = frozenset(),
        *,
        answer_only: bool = False,
        rule: CallRule = ANY,
    ) -> ChatResult:
        started = anyio.current_time()
        outcome = "error"
        try:
            result = await self.inner.chat(
                messages, tools, tool_names, answer_only=answer_only, rule=rule
            )
            outcome = "ok"
            return result
        finally:
            self._observe("chat", outcome, anyio.current_time() - started)

    async def stream(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: frozenset[str] = frozenset(),
        *,
        answer_only: bool = False,
        rule: CallRule = ANY,
    ) -> AsyncIterator[StreamEvent]:
        started = anyio.current_time()
        outcome = "error"
        inner = cast(
            AsyncGenerator[StreamEvent, None],
            self.inner.stream(messages, tools, tool_names, answer_only=answer_only, rule=rule),
        )
        try:
            async with aclosing(inner):
                async for event in inner:
                    if isinstance(event, Completed):
                        outcome = "ok"
                    yield event
        except (GeneratorExit, anyio.get_cancelled_exc_class()):
            outcome = "cancelled"
            raise
        finally:
            self._observe("stream", outcome, anyio.current_time() - started)

    async def choose(
        self,
        messages: Sequence[Message],
        options: Sequence[str],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        usage: Usage | None = None,
        most: int = 1,
    ) -> str | None:
        """The inner model's choice (None when it cannot choose)."""
        choose = getattr(self.inner, "choose", None)
        if choose is None:
            return None
        started = anyio.current_time()
        outcome = "error"
        try:
            extra: dict[str, Any] = {} if usage is None else {"usage": usage}
            if tools:
                extra["tools"] = tools
            if most > 1:
                extra["most"] = most
            result = await choose(messages, options, **extra)
            outcome = "ok"
            return result if isinstance(result, str) else None
        finally:
            self._observe("choose", outcome, anyio.current_time() - started)

    async def grammar_enabled(self) -> bool:
        """Whether the inner model holds tool steps to a grammar (False when it cannot say)."""
        enabled = getattr(self.inner, "grammar_enabled", None)
        return False if enabled is None else bool(await enabled())

    async def ping(self) -> bool:
        """The inner model's ping, or True when it has none."""
        ping = getattr(self.inner, "ping", None)
        return True if ping is None else bool(await ping())

    async def context_size(self) -> int | None:
        """The inner model's context size in tokens, or None when it cannot tell."""
        context_size = getattr(self.inner, "context_size", None)
        if context_size is None:
            return None
        size = await context_size()
        return size if isinstance(size, int) else None
