"""exec with the real local model: it counts a file's lines by running a command in the sandbox.

Same setup as tests/model/test_local_model.py (one llama-server for the module, temperature 0,
fixed seed), skipped without bwrap or the local model unless AGENTD_REQUIRE_LOCAL_MODEL=1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agentd import scope as scopes
from agentd.config import ExecSettings
from agentd.daemon.prompt import FALLBACK_INSTRUCTIONS
from agentd.engine.loop import AgentLoop
from agentd.messages import Conversation, system, user
from agentd.model.sidecar import Sidecar
from agentd.tools.exec import register_exec_tool
from agentd.tools.registry import ToolRegistry
from tests.model.test_local_model import _client, server
from tests.support.bwrap import needs_bwrap

__all__ = ["server"]  # the module's llama-server fixture, shared with the model tests' setup

pytestmark = [
    pytest.mark.integration,
    pytest.mark.timeout(600),
    needs_bwrap,
]


@pytest.mark.anyio
async def test_the_model_counts_lines_with_exec(server: Sidecar, tmp_path: Path) -> None:
    """Asked how many lines notes.txt has, the model runs exec and answers with the count."""
    (tmp_path / "notes.txt").write_text("".join(f"note {i}\n" for i in range(1, 8)))
    tools = ToolRegistry()
    register_exec_tool(tools, ExecSettings(), lambda tenant: tmp_path)
    conversation = Conversation(
        [
            system(FALLBACK_INSTRUCTIONS),
            user("How many lines does notes.txt have? Run a shell command to count them."),
        ]
    )
    async with _client(server) as llm:
        with scopes.use(scopes.Scope()):
            result = await AgentLoop(llm, tools, max_steps=4).run(conversation, stream=False)
    calls = [c for m in result.added for c in m.tool_calls]
    assert calls and calls[0].name == "exec"
    outputs = [m for m in result.added if m.role == "tool"]
    assert outputs and "exit status: 0" in outputs[0].content and "7" in outputs[0].content
    assert "7" in result.message.content or "seven" in result.message.content.lower()
