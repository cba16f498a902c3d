"""The wiring: settings to a runtime with built-in tools and the system prompt."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentd.config import load_settings
from agentd.daemon.app import open_app
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio


async def test_open_app_wires_a_working_runtime(tmp_path: Path, stub_llm: StubLLM) -> None:
    """open_app() builds tools, prompt and runtime from settings; a turn reaches the model."""
    workdir = tmp_path / "workdir"
    workdir.mkdir()
    (tmp_path / "SYSTEM.md").write_text("You are Ada.")
    settings = load_settings(
        environ={
            "LLAMA_URL": stub_llm.url,
            "AGENT_WORKDIR": str(workdir),
            "AGENT_MAX_STEPS": "3",
            "AGENTD_TENANT": "acme",
        }
    ).settings
    async with open_app(settings) as app:
        assert {"current_time", "read_file", "write_file", "list_dir"} <= app.tools.names
        assert app.runtime.system_prompt == "You are Ada."
        assert app.runtime.agent_loop.max_steps == 3
        assert app.runtime.default_scope.tenant == "acme"
        stub_llm.add(Reply(text="hello"))
        result = await app.runtime.ask("s", "hi")
        assert result.message.content == "hello"
        assert stub_llm.requests[0]["messages"][0]["content"] == "You are Ada."
        (workdir / "AGENTS.md").write_text("Notes live in notes/.")
        app.reload_prompt()
        assert app.runtime.system_prompt == "You are Ada.\n\nNotes live in notes/."


@pytest.mark.parametrize(
    ("env", "state", "tools"),
    [
        pytest.param({"MEMORY_EMBED": "false"}, "off", False, id="off"),
        pytest.param({"MEMORY_EMBED": "true", "MILVUS_ADDR": ""}, "degraded", False, id="no-addr"),
        pytest.param({"MEMORY_EMBED": "true"}, "ok", True, id="lite"),
    ],
)
async def test_memory_state_reaches_readiness_and_metrics(
    tmp_path: Path, stub_llm: StubLLM, env: dict[str, str], state: str, tools: bool
) -> None:
    """Long-term memory is off, degraded or ok; the metrics gauge says degraded only then."""
    environ = {"LLAMA_URL": stub_llm.url, "AGENTD_STATE_DIR": str(tmp_path / "state"), **env}
    settings = load_settings(environ=environ).settings
    async with open_app(settings) as app:
        assert app.memory_state() == state
        assert ("memory_search" in app.tools.names) is tools
        text = app.metrics.exposition().decode()
    degraded = 1.0 if state == "degraded" else 0.0
    assert f"agentd_memory_degraded {degraded}" in text
