"""A real Runtime (real LLMClient over loopback HTTP) for in-process tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx

from agentd.config import AgentDefaults
from agentd.engine.loop import AgentLoop
from agentd.engine.quotas import Quotas
from agentd.engine.runtime import Runtime
from agentd.model.client import LLMClient
from agentd.tools.registry import ToolRegistry


@asynccontextmanager
async def stub_runtime(
    url: str, *, quotas: Quotas | None = None, **defaults: Any
) -> AsyncIterator[Runtime]:
    async with httpx.AsyncClient(timeout=30) as http:
        llm = LLMClient(http, base_url=url, model="stub", max_retries=0)
        agent_loop = AgentLoop(llm, ToolRegistry(), max_steps=4)
        async with Runtime(
            agent_loop,
            system_prompt="You are a test.",
            defaults=AgentDefaults(**defaults),
            quotas=quotas,
        ) as runtime:
            yield runtime
