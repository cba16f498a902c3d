"""The wiring: settings -> prompt -> LLM client -> tools -> supervisor -> runtime."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import structlog

from agentd import scope as scopes
from agentd.builtin_tools import register_builtin_tools
from agentd.config import Settings
from agentd.llm import LLMClient, open_client
from agentd.memory.longterm import MemoryStore, open_store_or_warn
from agentd.memory.tools import register_memory_tools
from agentd.prompt import build_system_prompt
from agentd.runtime import Runtime
from agentd.supervisor import Supervisor
from agentd.tools import ToolRegistry

log = structlog.get_logger("agentd.app")


@dataclass(slots=True)
class App:
    """Everything a channel or the CLI needs, built from one Settings."""

    settings: Settings
    llm: LLMClient
    tools: ToolRegistry
    runtime: Runtime
    memory: MemoryStore | None = None

    def reload_prompt(self) -> None:
        """Re-read SYSTEM.md and AGENTS.md; sessions keep their history."""
        self.runtime.system_prompt = build_system_prompt(self.settings.workdir)
        log.info("prompt.reloaded", chars=len(self.runtime.system_prompt))


@asynccontextmanager
async def open_app(settings: Settings) -> AsyncIterator[App]:
    """Build the runtime and close what it opened on exit."""
    prompt = build_system_prompt(settings.workdir)
    async with (
        open_client(settings) as llm,
        open_store_or_warn(settings, llm.embed_one if settings.memory.embed else None) as memory,
    ):
        tools = ToolRegistry(default_timeout=settings.default.tool_timeout)
        register_builtin_tools(tools, settings.workdir)
        if memory is not None:
            register_memory_tools(tools, memory)
        supervisor = Supervisor(llm, tools, max_steps=settings.default.max_steps)
        runtime = Runtime(
            supervisor,
            system_prompt=prompt,
            defaults=settings.default,
            default_scope=scopes.Scope(tenant=settings.tenant),
        )
        yield App(settings=settings, llm=llm, tools=tools, runtime=runtime, memory=memory)
