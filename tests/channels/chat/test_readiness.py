"""``/readyz`` counts a chat channel ready when it is connected to its service, not when its
task merely runs."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from agentd.config import Settings
from agentd.daemon.app import build_channels, open_app
from agentd.daemon.lifecycle import ChannelHealth, supervise_channel
from channels.http import HttpChannel
from channels.telegram import TelegramChannel
from tests.channels.conftest import wait_until
from tests.support.fake_telegram import TOKEN, FakeTelegram, Fault
from tests.support.http_channel import in_process
from tests.support.stub_llm import StubLLM

pytestmark = pytest.mark.anyio


def test_a_serving_channel_with_a_probe_is_ready_only_when_the_probe_says_so() -> None:
    """A channel's health is ready when it serves and its own probe agrees."""
    connected = False
    health = ChannelHealth("telegram", state="serving", probe=lambda: connected)
    assert not health.ready
    connected = True
    assert health.ready
    health.state = "restarting"
    assert not health.ready
    assert ChannelHealth("cron", state="serving").ready


async def test_readyz_waits_for_telegram_to_answer(
    fake_tg: FakeTelegram, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """While the Bot API refuses the bot, telegram is not ready and /readyz is 503; once it
    answers, telegram is ready and /readyz is 200."""
    (tmp_path / "workdir").mkdir()
    settings = Settings(
        workdir=tmp_path / "workdir",
        state_dir=tmp_path / "state",
        llm={"base_url": stub_llm.url, "max_retries": 0},  # type: ignore[arg-type]
        memory={"embed": False},  # type: ignore[arg-type]
        cron={"enabled": False},  # type: ignore[arg-type]
        channels={  # type: ignore[arg-type]
            "http": {"enabled": True},
            "telegram": {
                "enabled": True,
                "token": TOKEN,
                "base_url": fake_tg.url,
                "allow_from": [42],
                "poll_timeout": 1,
                "backoff_initial": 0.05,
                "backoff_max": 0.05,
            },
        },
    )
    fake_tg.fail("getMe", *[Fault("500")] * 1000)
    async with open_app(settings) as app:
        channels = build_channels(app, app.channel_health)
        [telegram] = [c for c in channels if isinstance(c, TelegramChannel)]
        [http] = [c for c in channels if isinstance(c, HttpChannel)]
        health = app.channel_health["telegram"]
        app.channel_health["http"].state = "serving"  # served in process below
        async with (
            anyio.create_task_group() as tg,
            in_process(app.runtime, readiness=http.readiness) as client,
        ):
            await tg.start(supervise_channel, telegram, app.runtime, health)
            await wait_until(lambda: len(fake_tg.called("getMe")) >= 3)
            assert health.state == "serving" and not health.ready
            unready = await client.get("/readyz")
            assert unready.status_code == 503
            assert unready.json()["checks"]["channels"]["telegram"] is False
            fake_tg.faults["getMe"].clear()
            await wait_until(lambda: health.ready)
            ready = await client.get("/readyz")
            assert ready.status_code == 200, ready.json()
            assert ready.json()["checks"]["channels"] == {"http": True, "telegram": True}
            tg.cancel_scope.cancel()
