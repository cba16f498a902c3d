"""The configured MCP servers, each kept connected by a task of one task group.

:meth:`McpServers.open` starts every enabled server and waits for their first connection
attempts at most ``mcp.start_wait`` seconds, so the daemon's ``READY=1`` never waits longer for
a slow server: one that comes up later adds its tools then. Leaving the block stops them all
(a stdio server's stdin is closed, then its process group is signalled, by the SDK).

The SDK takes a second or more to import: it is imported in a worker thread, within the wait,
so the event loop (and every channel on it) never stalls on it.
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import anyio
import structlog
from anyio.abc import TaskGroup

from agentd.config.mcp import McpSettings
from agentd.mcp.link import McpLink
from agentd.tools.registry import ToolRegistry

__all__ = ["McpServers", "ServerInfo"]

log = structlog.get_logger("agentd.mcp.servers")

#: What a link imports when it first connects.
SDK_MODULES = ("mcp", "mcp.client.stdio", "mcp.client.streamable_http", "mcp_types", "httpx2")


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """What ``agentd mcp list``, ``/readyz`` and ``/metrics`` show of one server."""

    name: str
    transport: str
    state: str
    tools: tuple[str, ...]
    reconnects: int
    error: str | None


class McpServers:
    """The links to the enabled servers of ``mcp.servers``, by name."""

    def __init__(
        self,
        settings: McpSettings,
        registry: ToolRegistry,
        log_dir: Path,
        *,
        on_reconnect: Callable[[str], None] | None = None,
    ) -> None:
        self.settings = settings
        self.links = {
            name: McpLink(name, server, registry, log_dir, on_reconnect=on_reconnect)
            for name, server in settings.servers.items()
            if server.enabled
        }

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        settings: McpSettings,
        registry: ToolRegistry,
        log_dir: Path,
        *,
        on_reconnect: Callable[[str], None] | None = None,
    ) -> AsyncIterator[McpServers]:
        """Start the servers; yield once each is up or failed, or ``start_wait`` has passed."""
        servers = cls(settings, registry, log_dir, on_reconnect=on_reconnect)
        async with anyio.create_task_group() as tg:
            tg.start_soon(servers._start, tg)
            with anyio.move_on_after(settings.start_wait) as waiting:
                for link in servers.links.values():
                    await link.settled()
            if waiting.cancelled_caught:
                slow = [n for n, link in servers.links.items() if link.state == "starting"]
                log.warning("mcp.slow_start", servers=slow, waited=settings.start_wait)
            try:
                yield servers
            finally:
                tg.cancel_scope.cancel()

    async def _start(self, tg: TaskGroup) -> None:
        if self.links:
            await anyio.to_thread.run_sync(_import_sdk)
        for name, link in self.links.items():
            tg.start_soon(link.run, name=f"mcp:{name}")

    def states(self) -> Mapping[str, str]:
        """Each server's state: ``starting``, ``up`` or ``down``."""
        return {name: link.state for name, link in self.links.items()}

    def info(self) -> list[ServerInfo]:
        return [
            ServerInfo(
                name,
                link.settings.transport,
                link.state,
                tuple(link.tools),
                link.reconnects,
                link.error,
            )
            for name, link in self.links.items()
        ]


def _import_sdk() -> None:
    """Import the SDK's client modules (in a worker thread: it takes a second or more)."""
    for module in SDK_MODULES:
        importlib.import_module(module)
