"""``agentd mcp serve``: agentd's long-term memory and sessions as an MCP server over stdio.

The server works in one tenant's scope, given by the caller: every tool reads and writes that
tenant's memories and sessions only, so another MCP client (an editor, another agent) shares
the memory the agent uses. The tools are the agent's own ``memory_save`` and ``memory_search``
(the same functions, limits and errors) and ``sessions_list`` / ``sessions_show`` over the
durable history. With ``memory.embed`` off, or Milvus unavailable (a warning), only the
session tools are served.
"""

from __future__ import annotations

import json
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING

from agentd import scope as scopes
from agentd._version import __version__
from agentd.config import Settings
from agentd.memory.history import HistoryStore
from agentd.memory.longterm import MemoryAccess
from agentd.memory.stores import open_history
from agentd.messages import Message
from agentd.tools.memory import register_memory_tools
from agentd.tools.registry import Tool, ToolRegistry

if TYPE_CHECKING:
    from mcp.server import MCPServer

__all__ = ["build_server", "serve_stdio"]

#: The most messages sessions_show returns.
MAX_SHOW = 200


def build_server(history: HistoryStore, memory_tools: ToolRegistry | None) -> MCPServer:
    """The MCP server: the registry's memory tools, and the session tools on ``history``."""
    from mcp.server import MCPServer

    server: MCPServer = MCPServer(
        "agentd",
        version=__version__,
        instructions="The long-term memory and stored conversations of one agentd tenant.",
        log_level="WARNING",
    )
    for tool in memory_tools or ():
        assert isinstance(tool, Tool)
        server.add_tool(tool.fn, name=tool.name, description=tool.description)

    async def sessions_list() -> str:
        """List the stored conversations, most recently active first: id, message count and
        last activity (UTC, ISO 8601)."""
        import datetime as dt

        infos = await history.list_sessions()
        return json.dumps(
            [
                {
                    "id": i.session_id,
                    "messages": i.messages,
                    "last_active": dt.datetime.fromtimestamp(i.last_active, dt.UTC).isoformat(
                        timespec="seconds"
                    ),
                }
                for i in infos
            ]
        )

    async def sessions_show(session_id: str, limit: int = 50) -> str:
        """Show a stored conversation's newest messages, oldest first, one a line.

        Args:
            session_id: The id sessions_list gives.
            limit: How many of the newest messages (1-200).
        """
        messages = await history.load_conversation(session_id, limit=max(1, min(limit, MAX_SHOW)))
        if not messages:
            return f"(no messages in {session_id})"
        return "\n".join(_line(m) for m in messages)

    server.add_tool(sessions_list)
    server.add_tool(sessions_show)
    return server


def _line(message: Message) -> str:
    if message.role == "tool":
        return f"[tool {message.name}] {message.content}"
    calls = "".join(f" -> {c.name}({c.arguments})" for c in message.tool_calls)
    return f"[{message.role}{calls}] {message.content}".rstrip()


async def serve_stdio(
    settings: Settings, scope: scopes.Scope, *, memory: MemoryAccess | None = None
) -> None:
    """Serve on stdin/stdout in ``scope`` until the client closes stdin.

    The memory tools use ``memory`` when given (a running daemon's), else a store opened here.
    """
    async with AsyncExitStack() as stack:
        history = await stack.enter_async_context(open_history(settings))
        memory_tools = None
        if memory is not None:
            memory_tools = ToolRegistry()
            register_memory_tools(memory_tools, memory)
        elif settings.memory.embed:
            from agentd.memory.factory import open_store_or_warn
            from agentd.model.client import open_client
            from agentd.model.embed_server import open_memory_embedder

            llm = await stack.enter_async_context(open_client(settings))
            served = await stack.enter_async_context(open_memory_embedder(settings))
            store = await stack.enter_async_context(
                open_store_or_warn(settings, llm.embed_one, served)
            )
            if store is not None:  # else a warning is logged: the session tools only
                memory_tools = ToolRegistry()
                register_memory_tools(memory_tools, store)
        server = build_server(history, memory_tools)
        # Tasks the server starts inherit the scope: every store call is the tenant's.
        with scopes.use(scope):
            await server.run_stdio_async()
