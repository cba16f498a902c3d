"""The context budget against a server that enforces its context (the loopback stub).

The stub refuses an over-long request with HTTP 400 in llama-server's, OpenAI's or vLLM's words;
the daemon's wiring (open_app: real client, SQLite history) must keep every turn alive, learn the
limit, and leave the stored history complete: nothing lost, nothing twice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agentd import scope as scopes
from agentd.config import Settings
from agentd.daemon.app import App, open_app
from agentd.engine.runtime import TOO_LONG
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio

CONTEXT = 2048
WORDINGS = ["llama", "openai", "vllm"]


def _settings(tmp_path: Path, stub: StubLLM, **default: Any) -> Settings:
    (tmp_path / "wd").mkdir(exist_ok=True)
    return Settings(
        workdir=tmp_path / "wd",
        state_dir=tmp_path / "state",
        llm={"base_url": stub.url, "max_retries": 0},  # type: ignore[arg-type]
        memory={"embed": False},  # type: ignore[arg-type]
        default={"answer_tokens": 64, **default},  # type: ignore[arg-type]
        # The file and time tools only: the schemas of all tools fill most of a 2,048-token
        # context before the first message (the case this test is about is the messages').
        tools={"exec": {"enabled": False}, "web_fetch": {"enabled": False}},  # type: ignore[arg-type]
        cron={"tasks": {"enabled": False}},  # type: ignore[arg-type]
    )


async def _stored(app: App, session: str) -> list[tuple[str, str]]:
    assert app.history is not None
    with scopes.use(app.runtime.default_scope):
        rows = await app.history.load_conversation(session)
    return [(m.role, m.content) for m in rows]


@pytest.mark.parametrize("wording", WORDINGS)
async def test_a_session_outgrows_the_servers_context(
    stub_llm: StubLLM, tmp_path: Path, wording: str
) -> None:
    """Sixteen turns of ~150 tokens into a 2,048-token server: every turn is answered."""
    stub_llm.context, stub_llm.wording = CONTEXT, wording  # type: ignore[assignment]
    stub_llm.fallback = lambda body: Reply(text="noted")
    questions = [f"fact {i}: " + "the quick brown fox jumps over it. " * 17 for i in range(16)]
    async with open_app(_settings(tmp_path, stub_llm)) as app:
        for text in questions:
            result = await app.runtime.ask("s", text)
            assert result.message.content == "noted"
        stored = await _stored(app, "s")
    expected = [row for q in questions for row in (("user", q), ("assistant", "noted"))]
    assert stored == expected
    accepted = [r for r in stub_llm.requests if r not in stub_llm.rejected]
    assert len(accepted) == len(questions)
    if wording == "llama":
        assert stub_llm.rejected == []  # the context was known from /props: nothing refused
    else:
        # Not told the context (max_tokens 4,096): refused once, it learned the limit.
        assert len(stub_llm.rejected) == 1


@pytest.mark.parametrize("wording", WORDINGS)
async def test_a_message_larger_than_the_context_is_answered_plainly(
    stub_llm: StubLLM, tmp_path: Path, wording: str
) -> None:
    """A paste of ~5,000 tokens gets a clear answer; the session goes on and is stored whole."""
    stub_llm.context, stub_llm.wording = CONTEXT, wording  # type: ignore[assignment]
    stub_llm.fallback = lambda body: Reply(text="fine")
    paste = "lorem ipsum dolor sit amet " * 750
    async with open_app(_settings(tmp_path, stub_llm)) as app:
        first = await app.runtime.ask("s", "hello")
        refused = await app.runtime.ask("s", paste)
        after = await app.runtime.ask("s", "still there?")
        stored = await _stored(app, "s")
    assert (first.message.content, after.message.content) == ("fine", "fine")
    assert refused.message.content.startswith(TOO_LONG.split("{")[0])
    assert [role for role, _ in stored] == ["user", "assistant"] * 3
    assert stored[2] == ("user", paste)
    assert all(len(r["messages"][-1]["content"]) < len(paste) for r in stub_llm.requests[-1:])
