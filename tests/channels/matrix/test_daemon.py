"""`agentd run` with the Matrix channel: the real daemon against the real Synapse."""

from __future__ import annotations

import signal
from pathlib import Path

import anyio
import pytest

from tests.channels.matrix.conftest import Accounts, people, wait_for_texts, wait_joined
from tests.support.daemon import NotifySocket, daemon, write_config
from tests.support.stub_llm import StubLLM
from tests.support.synapse import Synapse

pytestmark = pytest.mark.anyio


async def test_daemon_answers_a_dm_delivers_and_never_logs_the_token(
    synapse: Synapse, accounts: Accounts, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """READY=1, a DM answered once, a cron delivery to matrix:!room, no token in the output."""
    bot = accounts.bot
    common = {
        "channels": {
            "matrix": {
                "enabled": True,
                "homeserver": synapse.url,
                "user_id": bot.user_id,
                "access_token": bot.access_token,
                "allow_from": [accounts.alice.user_id],
                "poll_timeout": 2,
            }
        },
    }
    async with people(synapse, accounts.alice) as [alice]:
        room = await alice.room(bot.user_id)
        config = write_config(
            tmp_path / "config.json",
            tmp_path,
            stub_llm.url,
            cron={
                "enabled": True,
                "jobs": [
                    {
                        "name": "ping",
                        "schedule": "2s",
                        "prompt": "scheduled ping",
                        "deliver_to": f"matrix:{room}",
                        "catch_up": "skip",
                    }
                ],
            },
            **common,
        )
        notify = NotifySocket(tmp_path / "notify.sock")
        try:
            with daemon(config, notify) as proc:
                await anyio.to_thread.run_sync(notify.wait_for, "READY=1")
                await wait_joined(alice, room, bot.user_id)
                await alice.send(room, "hello daemon")
                texts = await wait_for_texts(alice, room, bot.user_id, 2)
                proc.send_signal(signal.SIGTERM)
                assert await anyio.to_thread.run_sync(proc.wait, 30) == 0
                assert proc.stdout is not None
                output = proc.stdout.read()
        finally:
            notify.close()
    assert "echo: hello daemon" in texts
    assert "echo: scheduled ping" in texts
    assert texts.count("echo: hello daemon") == 1
    assert "matrix.ready" in output
    assert bot.access_token not in output and bot.password not in output
