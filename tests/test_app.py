"""The wiring: settings to a runtime with built-in tools and the system prompt."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentd.app import open_app
from agentd.config import load_settings
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
        assert app.runtime.supervisor.max_steps == 3
        assert app.runtime.default_scope.tenant == "acme"
        stub_llm.add(Reply(text="hello"))
        result = await app.runtime.ask("s", "hi")
        assert result.message.content == "hello"
        assert stub_llm.requests[0]["messages"][0]["content"] == "You are Ada."
        (workdir / "AGENTS.md").write_text("Notes live in notes/.")
        app.reload_prompt()
        assert app.runtime.system_prompt == "You are Ada.\n\nNotes live in notes/."
