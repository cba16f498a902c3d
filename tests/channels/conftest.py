from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agentd.builtin_tools import register_builtin_tools
from agentd.config import AgentDefaults, Settings
from agentd.llm import open_client
from agentd.metrics import Metrics
from agentd.runtime import Runtime
from agentd.supervisor import Supervisor
from agentd.tools import ToolRegistry
from tests.support.stub_llm import StubLLM

SYSTEM = "You are agentd under test."


@pytest.fixture
def metrics() -> Metrics:
    """A private metrics registry per test."""
    return Metrics()


@pytest.fixture
async def runtime(stub_llm: StubLLM, metrics: Metrics, tmp_path: Path) -> AsyncIterator[Runtime]:
    """A runtime on the loopback stub LLM, with the built-in tools and metrics hooked in."""
    settings = Settings(llm={"base_url": stub_llm.url, "max_retries": 0})  # type: ignore[arg-type]
    async with open_client(settings) as llm:
        tools = ToolRegistry()
        register_builtin_tools(tools, tmp_path)
        supervisor = Supervisor(metrics.timed(llm), tools, on_tool=metrics.on_tool)
        runtime = Runtime(
            supervisor,
            system_prompt=SYSTEM,
            defaults=AgentDefaults(max_concurrent_turns=32),
            on_turn=metrics.on_turn,
        )
        metrics.watch_runtime(runtime)
        yield runtime
