"""TimedModel: calls pass through, and each one's mode, outcome and duration is observed."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import aclosing
from typing import Any

import pytest

from agentd.errors import LLMUnavailable
from agentd.messages import Message, assistant, user
from agentd.model.choice import ANY, CallRule
from agentd.model.client import ChatResult, Completed, StreamEvent, TextDelta
from agentd.model.timed import TimedModel


class _Model:
    def __init__(self, fail: bool = False) -> None:
        self.fail = fail

    async def chat(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: frozenset[str] = frozenset(),
        *,
        answer_only: bool = False,
        rule: CallRule = ANY,
    ) -> ChatResult:
        if self.fail:
            raise LLMUnavailable("down")
        return ChatResult(assistant("hi"))

    async def stream(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: frozenset[str] = frozenset(),
        *,
        answer_only: bool = False,
        rule: CallRule = ANY,
    ) -> AsyncIterator[StreamEvent]:
        yield TextDelta("h")
        yield TextDelta("i")
        yield Completed(ChatResult(assistant("hi")))


class _Observed:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def __call__(self, mode: str, outcome: str, seconds: float) -> None:
        assert seconds >= 0
        self.calls.append((mode, outcome))


@pytest.mark.anyio
async def test_timed_model_records_outcomes() -> None:
    """The wrapper passes calls through and observes ok, error and cancelled (closed early)."""
    observed = _Observed()
    ok = TimedModel(_Model(), observed)
    assert (await ok.chat([user("x")])).message.content == "hi"
    with pytest.raises(LLMUnavailable):
        await TimedModel(_Model(fail=True), observed).chat([user("x")])
    events = [e async for e in ok.stream([user("x")])]
    assert isinstance(events[-1], Completed)
    async with aclosing(ok.stream([user("x")])) as stream:  # type: ignore[type-var]
        async for _ in stream:
            break
    assert await ok.ping() is True
    assert observed.calls == [
        ("chat", "ok"),
        ("chat", "error"),
        ("stream", "ok"),
        ("stream", "cancelled"),
    ]


class _SizedModel(_Model):
    async def context_size(self) -> int | None:
        return 4096


@pytest.mark.anyio
async def test_timed_model_passes_the_context_size_through() -> None:
    """context_size() asks the inner model, and is None when the inner model cannot tell."""
    assert await TimedModel(_SizedModel(), _Observed()).context_size() == 4096
    assert await TimedModel(_Model(), _Observed()).context_size() is None
