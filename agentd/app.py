"""The wiring: settings -> prompt -> LLM client -> tools -> supervisor -> runtime."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import structlog

from agentd import scope as scopes
from agentd.builtin_tools import register_builtin_tools
from agentd.config import Settings
from agentd.llm import LLMClient, open_client
from agentd.prompt import build_system_prompt
from agentd.runtime import Runtime
from agentd.supervisor import Supervisor
from agentd.tools import ToolRegistry

if TYPE_CHECKING:
    from agentd.sidecar import Sidecar

log = structlog.get_logger("agentd.app")


@dataclass(slots=True)
class App:
    """Everything a channel or the CLI needs, built from one Settings."""

    settings: Settings
    llm: LLMClient
    tools: ToolRegistry
    runtime: Runtime
    sidecar: Sidecar | None = None

    def reload_prompt(self) -> None:
        """Re-read SYSTEM.md and AGENTS.md; sessions keep their history."""
        self.runtime.system_prompt = build_system_prompt(self.settings.workdir)
        log.info("prompt.reloaded", chars=len(self.runtime.system_prompt))


@asynccontextmanager
async def open_app(settings: Settings) -> AsyncIterator[App]:
    """Build the runtime and close what it opened on exit."""
    prompt = build_system_prompt(settings.workdir)
    async with AsyncExitStack() as stack:
        sidecar = None
        if settings.llm.sidecar.enabled:
            from agentd.sidecar import open_sidecar, with_sidecar_url

            sidecar = await stack.enter_async_context(open_sidecar(settings))
            settings = with_sidecar_url(settings, sidecar)
        llm = await stack.enter_async_context(open_client(settings))
        tools = ToolRegistry(default_timeout=settings.default.tool_timeout)
        register_builtin_tools(tools, settings.workdir)
        supervisor = Supervisor(llm, tools, max_steps=settings.default.max_steps)
        runtime = Runtime(
            supervisor,
            system_prompt=prompt,
            defaults=settings.default,
            default_scope=scopes.Scope(tenant=settings.tenant),
        )
        yield App(settings=settings, llm=llm, tools=tools, runtime=runtime, sidecar=sidecar)
