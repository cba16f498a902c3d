"""A failed chat turn is answered with what failed, never one message for every failure."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from agentd.engine.runtime import Runtime
from agentd.errors import (
    ContextOverflow,
    HistoryError,
    LLMResponseError,
    LLMStatusError,
    LLMUnavailable,
    QuotaExceeded,
    RetryConflict,
    ShuttingDown,
    SidecarError,
    ToolError,
)
from channels.chat import replies
from channels.chat.replies import failed
from tests.channels.conftest import serving, wait_until
from tests.support.fake_telegram import FakeTelegram
from tests.support.stub_llm import StubLLM


def _timed_out() -> LLMUnavailable:
    try:
        try:
            raise httpx.ReadTimeout("timed out")
        except httpx.ReadTimeout as exc:
            raise LLMUnavailable("no model server answers") from exc
    except LLMUnavailable as exc:
        return exc


@pytest.mark.parametrize(
    ("exc", "reply"),
    [
        pytest.param(LLMUnavailable("nothing at 127.0.0.1"), replies.UNAVAILABLE, id="unreachable"),
        pytest.param(LLMStatusError(503, "loading model"), replies.UNAVAILABLE, id="loading"),
        pytest.param(SidecarError("did not start"), replies.UNAVAILABLE, id="sidecar"),
        pytest.param(LLMStatusError(500, "boom"), replies.MODEL_ERROR, id="server-error"),
        pytest.param(LLMResponseError("not JSON"), replies.MODEL_ERROR, id="bad-answer"),
        pytest.param(_timed_out(), replies.TIMEOUT, id="read-timeout"),
        pytest.param(LLMStatusError(504, "gateway timeout"), replies.TIMEOUT, id="gateway"),
        pytest.param(TimeoutError(), replies.TIMEOUT, id="timeout"),
        pytest.param(ContextOverflow(needed=9000, limit=4096), replies.TOO_LONG, id="too-long"),
        pytest.param(ShuttingDown(), replies.STOPPING, id="stopping"),
        pytest.param(RetryConflict("first attempt lost"), replies.CUT_OFF, id="cut-off"),
        pytest.param(ToolError("exec failed"), replies.INTERNAL, id="tool"),
        pytest.param(HistoryError("disk full"), replies.INTERNAL, id="history"),
        pytest.param(KeyError("bug"), replies.INTERNAL, id="bug"),
    ],
)
def test_each_failure_says_what_failed(exc: BaseException, reply: str) -> None:
    """Each kind of failure has its own answer, and the exception's text is never in it."""
    assert failed(exc) == reply
    assert str(exc) not in reply or not str(exc)


def test_the_answers_differ() -> None:
    """No two kinds of failure share an answer."""
    answers = [reply for _, reply in replies.FAILURES] + [replies.INTERNAL]
    assert len(set(answers)) == len(answers)


def test_quota_says_which_limit() -> None:
    """A tenant over its quota is told the limit and the wait, not that something failed."""
    text = failed(QuotaExceeded("t", "turns_per_minute", 5, 30))
    assert "5 a minute" in text and "30 s" in text


@pytest.mark.anyio
async def test_a_dead_model_server_is_said_to_be_unavailable(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """With nothing listening at the model's address, the sender is told the model is not
    available (not that agentd broke)."""
    stub_llm.stop()
    fake_tg.message(42, "hi")
    async with serving(fake_tg, runtime, tmp_path / "tg.json"):
        await wait_until(lambda: fake_tg.sent(42))
    assert [p["text"] for p in fake_tg.sent(42)] == [replies.UNAVAILABLE]
