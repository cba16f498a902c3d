"""Telegram channel throughput: messages answered per second through the fake Bot API and stub LLM.

Run: .venv/bin/python -m bench.telegram_replies  (loopback only; prints a table)
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import anyio

from agentd.config import Settings, TelegramSettings
from agentd.daemon.app import open_app
from channels.telegram import TelegramChannel
from channels.telegram.format import render_parts
from tests.support.fake_telegram import TOKEN, running_fake
from tests.support.stub_llm import running_stub


async def answer_all(chats: int, per_chat: int, latency: float) -> float:
    with (
        running_fake() as fake,
        running_stub(latency=latency) as stub,
        tempfile.TemporaryDirectory() as tmp,
    ):
        root = Path(tmp)
        (root / "workdir").mkdir()
        settings = Settings(workdir=root / "workdir", state_dir=root, llm={"base_url": stub.url})  # type: ignore[arg-type]
        tg = TelegramSettings(
            token=TOKEN, base_url=fake.url, allow_from=list(range(1, chats + 1)), poll_timeout=1
        )
        async with open_app(settings) as app:
            channel = TelegramChannel(tg, state_path=root / "tg.json")
            async with channel, anyio.create_task_group() as group:
                await group.start(channel.serve, app.runtime)
                started = time.perf_counter()
                for i in range(per_chat):
                    for chat in range(1, chats + 1):
                        fake.message(chat, f"message {i}")
                total = chats * per_chat
                # The fake answers in its own threads; nothing to wait on but its state.
                while len(fake.sent()) < total:  # noqa: ASYNC110
                    await anyio.sleep(0.005)
                elapsed = time.perf_counter() - started
                group.cancel_scope.cancel()
    return elapsed


def main() -> None:
    print(f"{'chats':>5} {'msgs':>5} {'llm latency':>11} {'seconds':>8} {'msgs/s':>7}")
    for chats, per_chat, latency in [(1, 50, 0.0), (10, 10, 0.0), (10, 10, 0.2), (50, 2, 0.2)]:
        elapsed = anyio.run(answer_all, chats, per_chat, latency)
        total = chats * per_chat
        print(f"{chats:>5} {total:>5} {latency:>10.1f}s {elapsed:>8.2f} {total / elapsed:>7.1f}")
    text = "\n\n".join("Paragraph **bold** <x> & `code` " * 20 for _ in range(60))
    started = time.perf_counter()
    for _ in range(20):
        parts = render_parts(text, "HTML")
    per = (time.perf_counter() - started) / 20
    print(f"render_parts: {len(text)} chars -> {len(parts)} parts in {per * 1000:.1f} ms")


if __name__ == "__main__":
    main()
