"""``agentd mcp list|call|serve``: the configured MCP servers from a terminal, and agentd's own.

``list`` connects to each enabled server as the daemon would and prints its state and the tools
the agent is offered (after the allow and deny lists). ``call`` runs one tool the way the agent
does (timeout, result cap, errors as text), in the scope of ``--tenant``. ``serve`` is
agentd's memory and sessions as an MCP server on stdin/stdout, for one tenant, beside a running
daemon too (:func:`run_serve`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import anyio

from agentd import scope as scopes
from agentd.cli.remote_option import daemon_client, remote_options, target
from agentd.cli.tenant_option import scope_of, tenant_option
from agentd.config import EX_CONFIG, Loaded, Settings
from agentd.errors import AgentdError

EX_USAGE = 2
EX_UNAVAILABLE = 69


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mcp = sub.add_parser("mcp", help="list or call the MCP servers' tools, or serve agentd's own")
    actions = mcp.add_subparsers(dest="mcp_command", metavar="ACTION", required=True)
    actions.add_parser("list", help="each server's state and the tools the agent is offered")
    call = actions.add_parser(
        "call", parents=[tenant_option("tools")], help="call TOOL of SERVER with JSON arguments"
    )
    call.add_argument("server", metavar="SERVER")
    call.add_argument("tool", metavar="TOOL", help="the server's own tool name")
    call.add_argument("arguments", metavar="JSON", nargs="?", default="{}")
    actions.add_parser(
        "serve",
        parents=[tenant_option("memories and sessions"), remote_options(remote_flag=False)],
        help="serve agentd's memory and sessions over MCP (stdio) for one tenant",
    )
    mcp.set_defaults(handler=_handler)


def _handler(args: argparse.Namespace, loaded: Loaded) -> int:
    settings = loaded.settings
    if args.mcp_command == "serve":
        return anyio.run(run_serve, settings, args)
    if args.mcp_command == "list":
        return anyio.run(run_list, settings)
    return anyio.run(run_call, settings, args.server, args.tool, args.arguments, args)


async def run_serve(settings: Settings, args: argparse.Namespace) -> int:
    """Serve agentd's memory and sessions for ``--tenant`` until the client closes stdin.

    Beside a running daemon (it holds the state lock) the memory tools go through its HTTP
    API, since its Milvus Lite store opens in one process only; sessions are read from the
    history file either way. Without a daemon the store opens here, with the packaged model
    server started for embeddings when ``llm.sidecar`` is on (one line on stderr says so).
    """
    from agentd.cli.model_server import embedding_server
    from agentd.daemon.statelock import held_by
    from agentd.mcp.serve import serve_stdio

    scope = scope_of(args, settings)
    if not settings.memory.embed:
        await serve_stdio(settings, scope)
        return 0
    if held_by(settings.state_dir) is not None:
        from agentd.cli.remote_memory import RemoteMemory

        try:
            url, token = target(settings, args)
        except AgentdError as exc:
            print(f"agentd: {exc}", file=sys.stderr)
            return EX_CONFIG
        print(f"agentd: a daemon runs on this state: memory goes through {url}", file=sys.stderr)
        async with daemon_client(url, token, read_timeout=settings.llm.timeout) as client:
            await serve_stdio(settings, scope, memory=RemoteMemory(client, scope.tenant))
        return 0
    async with embedding_server(settings) as served:
        await serve_stdio(served, scope)
    return 0


def _log_dir(settings: Settings) -> Path:
    return settings.state_dir / "mcp"


def _waiting(settings: Settings) -> Settings:
    """The settings with ``start_wait`` long enough for every server's first attempt."""
    longest = max((s.connect_timeout for s in settings.mcp.servers.values()), default=0.0)
    mcp = settings.mcp.model_copy(update={"start_wait": longest + 1.0})
    return settings.model_copy(update={"mcp": mcp})


async def run_list(settings: Settings) -> int:
    """Print each configured server, its state and tools; 1 if an enabled one is not up."""
    from agentd.mcp.servers import McpServers
    from agentd.tools.registry import ToolRegistry

    if not settings.mcp.servers:
        print("(no MCP servers configured: see mcp.servers)")
        return 0
    registry = ToolRegistry()
    settings = _waiting(settings)
    async with McpServers.open(settings.mcp, registry, _log_dir(settings)) as servers:
        infos = {info.name: info for info in servers.info()}
        # Tenant-limited tools too: this is the operator's view.
        descriptions = {tool.name: tool.description for tool in registry}
    failed = False
    for name, server in settings.mcp.servers.items():
        info = infos.get(name)
        state = info.state if info is not None else "off"
        failed = failed or state not in ("up", "off")
        line = f"{name}  {server.transport}  {state}"
        if info is not None and info.state == "up":
            line += f"  {len(info.tools)} tools"
        elif info is not None and info.error:
            line += f"  ({info.error})"
        print(line)
        for tool in info.tools if info is not None else ():
            print(f"  {tool}  {descriptions[tool][:100]}")
    return 1 if failed else 0


async def run_call(
    settings: Settings, server: str, tool: str, arguments: str, args: argparse.Namespace
) -> int:
    """Call one tool as the agent would; prints its result, 1 when it is an error."""
    from agentd.mcp.link import tool_name
    from agentd.mcp.servers import McpServers
    from agentd.messages import ToolCall
    from agentd.tools.registry import ToolRegistry

    config = settings.mcp.servers.get(server)
    if config is None:
        known = ", ".join(settings.mcp.servers) or "none"
        print(f"agentd: no MCP server {server!r} (configured: {known})", file=sys.stderr)
        return EX_USAGE
    try:
        json.loads(arguments)
    except ValueError as exc:
        print(f"agentd: JSON arguments: {exc}", file=sys.stderr)
        return EX_USAGE
    only = settings.mcp.model_copy(
        update={"servers": {server: config.model_copy(update={"enabled": True})}}
    )
    settings = _waiting(settings.model_copy(update={"mcp": only}))
    registry = ToolRegistry()
    try:
        async with McpServers.open(settings.mcp, registry, _log_dir(settings)) as servers:
            link = servers.links[server]
            if link.state != "up":
                print(
                    f"agentd: MCP server {server!r} is {link.state}: {link.error}", file=sys.stderr
                )
                return EX_UNAVAILABLE
            with scopes.use(scope_of(args, settings)):
                outcome = await registry.call(ToolCall("cli", tool_name(server, tool), arguments))
    except AgentdError as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_UNAVAILABLE
    print(outcome.content)
    return 1 if outcome.error else 0
