"""The tool policy on Telegram: a group chat never sees exec; an allowed private chat does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentd.engine.runtime import Runtime
from tests.channels.conftest import serving, wait_until
from tests.support.bwrap import needs_bwrap
from tests.support.fake_telegram import FakeTelegram
from tests.support.stub_llm import StubLLM
from tests.support.tool_agent import tool_agent

pytestmark = pytest.mark.anyio

ASK = "TOOL:exec " + json.dumps({"command": "echo from-the-sandbox"})


def _offered(stub: StubLLM, text: str) -> set[str]:
    """The tools offered in the first model request that carried ``text``."""
    request = next(
        r for r in stub.requests if any(text in str(m.get("content")) for m in r["messages"])
    )
    return {t["function"]["name"] for t in request.get("tools") or []}


async def test_a_group_chat_never_sees_exec(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """In a group, exec is not offered to the model, and a call of it anyway is refused."""
    stub_llm.fallback = tool_agent
    group = -1002
    fake_tg.message(group, f"@agentd_bot {ASK}", user_id=42, chat_type="supergroup")
    async with serving(fake_tg, runtime, tmp_path / "tg.json"):
        await wait_until(lambda: fake_tg.sent(group))
    offered = _offered(stub_llm, ASK)
    assert "exec" not in offered
    assert {"read_file", "web_fetch"} <= offered
    [reply] = [p["text"] for p in fake_tg.sent(group)]
    assert "unknown tool 'exec'" in reply
    assert "from-the-sandbox" not in reply


@needs_bwrap
async def test_an_allowed_private_chat_gets_exec(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A private chat of an allowed sender is offered exec, and it runs."""
    stub_llm.fallback = tool_agent
    fake_tg.message(42, ASK)
    async with serving(fake_tg, runtime, tmp_path / "tg.json"):
        await wait_until(lambda: fake_tg.sent(42))
    assert "exec" in _offered(stub_llm, ASK)
    [reply] = [p["text"] for p in fake_tg.sent(42)]
    assert "from-the-sandbox" in reply
