"""A Telegram sender over their tenant's quota is told so, plainly, and the model is not called."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agentd.config import Settings
from agentd.daemon.app import open_app
from agentd.engine.runtime import Runtime
from agentd.errors import QuotaExceeded
from channels.chat.replies import over_quota
from tests.channels.conftest import serving, wait_until
from tests.support.fake_telegram import FakeTelegram
from tests.support.stub_llm import StubLLM

pytestmark = pytest.mark.anyio


@pytest.fixture
async def limited(stub_llm: StubLLM, tmp_path: Path) -> AsyncIterator[Runtime]:
    """The daemon's runtime with one turn a minute for every tenant."""
    (tmp_path / "workdir").mkdir()
    settings = Settings(
        workdir=tmp_path / "workdir",
        state_dir=tmp_path / "state",
        llm={"base_url": stub_llm.url, "max_retries": 0},  # type: ignore[arg-type]
        memory={"embed": False},  # type: ignore[arg-type]
        default={"tenant_limits": {"turns_per_minute": 1}},  # type: ignore[arg-type]
    )
    async with open_app(settings) as app:
        yield app.runtime


async def test_a_sender_over_the_quota_gets_the_clear_message(
    fake_tg: FakeTelegram, limited: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """The second message within a minute is answered with the limit and the wait, not a
    failure; the model sees only the first."""
    fake_tg.message(42, "first")
    fake_tg.message(42, "second")
    async with serving(fake_tg, limited, tmp_path / "tg.json"):
        await wait_until(lambda: len(fake_tg.sent(42)) >= 2)
    first, second = (p["text"] for p in fake_tg.sent(42))
    assert first == "echo: first"
    assert second.startswith("Too many messages: this agent answers 1 a minute here.")
    assert "Please try again in" in second
    assert len(stub_llm.requests) == 1


@pytest.mark.parametrize(
    ("limit", "allowed", "wait", "text"),
    [
        pytest.param(
            "turns_per_minute", 5, 42.2, "5 a minute here. Please try again in 43 s.", id="rate"
        ),
        pytest.param(
            "tokens_per_day",
            200_000,
            3 * 3600 + 600,
            "(200,000 model tokens a day). It resets at 00:00 UTC, in 3 h 10 min.",
            id="tokens",
        ),
    ],
)
def test_the_message_names_the_limit_and_the_wait(
    limit: str, allowed: int, wait: float, text: str
) -> None:
    """Each limit has its own sentence, with the allowance and a rounded-up wait."""
    assert over_quota(QuotaExceeded("default", limit, allowed, wait)).endswith(text)
