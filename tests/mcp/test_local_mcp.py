"""Against the real local model: the agent calls an MCP server's tool (streamable HTTP).

Skipped when llama-server or the default model is missing, unless AGENTD_REQUIRE_LOCAL_MODEL=1
(`make test` sets it). Assertions are on what the tool was called with and answered, never on
the model's prose.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentd.config import LLMSettings, Settings, SidecarSettings, load_settings
from agentd.daemon.app import open_app
from agentd.errors import AgentdError
from agentd.model.packages import DEFAULT_MODEL, resolve_model_file
from agentd.model.sidecar import find_binary
from tests.support.mcp_server import serving_http

pytestmark = [pytest.mark.integration, pytest.mark.anyio, pytest.mark.timeout(600)]

REQUIRED = os.environ.get("AGENTD_REQUIRE_LOCAL_MODEL") == "1"


def _find_local() -> tuple[Path, Path] | str:
    # Read before the tests isolate HOME: the model lives where `agentd model fetch` put it.
    try:
        state_dir = load_settings().settings.state_dir
        return find_binary(None), resolve_model_file(state_dir, DEFAULT_MODEL, None)
    except AgentdError as exc:
        return str(exc)


LOCAL = _find_local()


async def test_the_local_model_calls_an_mcp_tool(tmp_path: Path) -> None:
    """Asked to add two numbers with the tool, the model calls calc__add and sees its sum."""
    if isinstance(LOCAL, str):
        if REQUIRED:
            pytest.fail(f"the local model is required: {LOCAL}")
        pytest.skip(f"no local model: {LOCAL}")
    binary, gguf = LOCAL
    (tmp_path / "workdir").mkdir()
    with serving_http("calc") as url:
        settings = Settings(
            state_dir=tmp_path / "state",
            workdir=tmp_path / "workdir",
            memory={"embed": False},  # type: ignore[arg-type]
            llm=LLMSettings(
                temperature=0.0,
                seed=42,
                sidecar=SidecarSettings(
                    enabled=True, binary=binary, model_path=gguf, max_answer_tokens=256
                ),
            ),
            mcp={"servers": {"calc": {"url": url, "tools": {"allow": ["add"]}}}},  # type: ignore[arg-type]
        )
        async with open_app(settings) as app:
            result = await app.runtime.ask(
                "s", "Use the calc__add tool to add 1234 and 5678. What is the sum?"
            )
    calls = [c for m in result.added for c in m.tool_calls]
    results = [m.content for m in result.added if m.role == "tool"]
    assert [c.name for c in calls][:1] == ["calc__add"], result.added
    assert "6912" in results[0]
