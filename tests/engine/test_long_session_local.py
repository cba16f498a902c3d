"""A session over twice as long as the real model's context never fails a turn.

The real llama-server with the packaged model, a 2,048-token context so the test stays short,
and messages that add up to about 2.3 contexts, once with ``truncate`` and once with
``summarize``; halfway, the model reads a 60 KB file. Once the context is full every turn
costs a whole context of prompt, so the turns are few (the sweep over longer sessions is
``bench/long_session.py``). Skipped without the local model unless AGENTD_REQUIRE_LOCAL_MODEL=1
(``make bench-smoke``; marker ``bench``: minutes of model time, so not in ``make test``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agentd import scope as scopes
from agentd.config import LLMSettings, Settings, SidecarSettings
from agentd.daemon.app import open_app
from tests.model.test_local_model import SEED, _local

pytestmark = [
    pytest.mark.integration,
    pytest.mark.bench,
    pytest.mark.timeout(900),
    pytest.mark.anyio,
]

CONTEXT = 2048
#: About 800 tokens of text the model has to carry; six of them are ~2.3 contexts.
FILLER = (
    "Here is a note for the record, numbered {i}. The warehouse in Lyon ships {i} crates of "
    "pears every Tuesday; the driver is called Ana and the truck is blue. "
) * 16
FILLER_TURNS = 6


def _settings(tmp: Path, strategy: str) -> Settings:
    binary, gguf = _local()
    sidecar = SidecarSettings(
        enabled=True, binary=binary, model_path=gguf, context=CONTEXT, max_answer_tokens=64
    )
    return Settings(
        state_dir=tmp / "state",
        workdir=tmp / "workdir",
        llm=LLMSettings(temperature=0.0, seed=SEED, sidecar=sidecar),
        memory={"embed": False},  # type: ignore[arg-type]
        default={"compaction_strategy": strategy},  # type: ignore[arg-type]
        # The file and time tools: all thirteen tools' schemas alone would fill most of the
        # 2,048-token context, and each step would go without tools (the read_file turn too).
        tools={"exec": {"enabled": False}, "web_fetch": {"enabled": False}},  # type: ignore[arg-type]
        cron={"tasks": {"enabled": False}},  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("strategy", ["truncate", "summarize"])
async def test_a_session_longer_than_the_context(tmp_path: Path, strategy: str) -> None:
    """No turn fails, the 60 KB file does not break the session, and history keeps it all."""
    settings = _settings(tmp_path, strategy)
    settings.workdir.mkdir(parents=True)
    (settings.workdir / "big.txt").write_text("pears and crates\n" * 3600)  # ~61 KB
    turns = [FILLER.format(i=i) + "Reply with one short sentence." for i in range(FILLER_TURNS)]
    turns.insert(3, "Use the read_file tool on big.txt, then tell me its first word.")
    async with open_app(settings) as app:
        assert app.runtime.agent_loop.budget is not None
        assert app.runtime.agent_loop.budget.context == CONTEXT
        for text in turns:
            result = await app.runtime.ask("long", text)  # raises on a failed turn
            assert not result.message.tool_calls
        status = app.runtime.status("long")
        assert 0 < status.context_tokens <= CONTEXT
        stored = await app.runtime.history("long")
        assert app.history is not None
        with scopes.use(app.runtime.default_scope):
            rows = await app.history.load_conversation("long")
    tool_results = [m for m in rows if m.role == "tool"]
    assert tool_results, "the model did not read the file"
    assert sum(m.role == "user" for m in rows) == len(turns)
    assert stored[0].role == "system"
