"""A heartbeat job delivers to Telegram through the real daemon (fake Bot API on loopback)."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from tests.support.daemon import daemon, write_config
from tests.support.fake_telegram import TOKEN, running_fake
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.timeout(90)


def _wait(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_heartbeat_delivers_to_telegram_but_not_heartbeat_ok(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """deliver_to telegram:<id> sends the reply; a HEARTBEAT_OK reply is never sent."""
    stub_llm.add(Reply(text="HEARTBEAT_OK"), Reply(text="The backup disk is 95% full."))
    stub_llm.fallback = lambda body: Reply(text="HEARTBEAT_OK")
    with running_fake() as fake:
        cfg = write_config(
            tmp_path / "c.json",
            tmp_path,
            stub_llm.url,
            cron={
                "jobs": [
                    {
                        "name": "beat",
                        "schedule": "1s",
                        "prompt": "check",
                        "deliver_to": "telegram:4242",
                    }
                ]
            },
            channels={
                "telegram": {
                    "enabled": True,
                    "base_url": fake.url,
                    "allow_from": [1],
                    "poll_timeout": 1,
                }
            },
        )
        with daemon(cfg, env={"TELEGRAM_BOT_TOKEN": TOKEN}) as proc:
            _wait(lambda: len(stub_llm.requests) >= 3)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0
            out = proc.stdout.read() if proc.stdout else ""
        sent = fake.sent(4242)
    assert [m["text"] for m in sent] == ["The backup disk is 95% full."]
    assert TOKEN not in out
    assert TOKEN.split(":")[1] not in out
