"""One MCP server, kept connected: its tools in the registry while it is up, and only then.

:meth:`McpLink.run` connects (bounded by ``connect_timeout``), lists the tools, puts them in
the registry as ``<server>__<tool>`` and waits: for a change of the server's tool list (the
2026 ``subscriptions/listen`` stream, or the older ``notifications/tools/list_changed``), which
re-lists them, or for the connection to be lost (the server exits, a call finds it closed).
Then its tools leave the registry, a warning is logged, and it reconnects after a backoff.
Calls run in the callers' tasks over the shared session; a call that outlives its timeout is
cancelled by the registry and answered as a tool error.
"""

from __future__ import annotations

import fnmatch
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import anyio
import structlog

from agentd._version import __version__
from agentd.backoff import Backoff
from agentd.config.mcp import McpServerSettings
from agentd.errors import McpError
from agentd.mcp.transport import last_log_line, open_transport
from agentd.tools.registry import SchemaTool, ToolOutcome, ToolRegistry

if TYPE_CHECKING:
    import mcp_types as types
    from mcp import Client

log = structlog.get_logger("agentd.mcp.link")

State = Literal["starting", "up", "down"]
#: The separator of ``<server>__<tool>``.
SEP = "__"
MAX_NAME = 64  # OpenAI function names: ^[a-zA-Z0-9_-]{1,64}$
MAX_DESCRIPTION = 1024
#: More tools than this from one server is a warning: every schema is sent on every model call.
MANY_TOOLS = 40
STABLE_AFTER = 60.0  # a connection that lasted this long reconnects from the first step again
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
#: Schema keys that tell the model nothing (compact_parameters drops titles as well).
_NOISE = ("$schema", "$id", "$comment")


def tool_name(server: str, tool: str) -> str:
    """The registry name of ``tool`` of ``server``: ``<server>__<tool>``, in the characters and
    length function names may have."""
    return (server + SEP + _UNSAFE.sub("_", tool))[:MAX_NAME]


def allowed(settings: McpServerSettings, tool: str) -> bool:
    """Whether the server's allow and deny lists let the agent see ``tool``."""
    rules = settings.tools
    if any(fnmatch.fnmatchcase(tool, p) for p in rules.deny):
        return False
    return rules.allow is None or any(fnmatch.fnmatchcase(tool, p) for p in rules.allow)


def _parameters(schema: dict[str, Any]) -> dict[str, Any]:
    params = {k: v for k, v in schema.items() if k not in _NOISE}
    params.setdefault("type", "object")
    if params.get("type") == "object":
        params.setdefault("properties", {})
    return params


@dataclass(slots=True)
class McpLink:
    """A configured MCP server and its connection; ``state`` is starting, up or down."""

    name: str
    settings: McpServerSettings
    registry: ToolRegistry
    log_dir: Path
    on_reconnect: Callable[[str], None] | None = None
    state: State = "starting"
    error: str | None = None
    reconnects: int = 0
    tools: list[str] = field(default_factory=list)
    _client: Client | None = field(default=None, repr=False)
    _lost: anyio.Event = field(default_factory=anyio.Event, repr=False)
    _changed: anyio.Event = field(default_factory=anyio.Event, repr=False)
    _settled: anyio.Event = field(default_factory=anyio.Event, repr=False)

    async def run(self) -> None:
        """Keep the server connected until cancelled."""
        backoff = Backoff(1.0, 60.0, reset_after=STABLE_AFTER)
        while True:
            began = anyio.current_time()
            self._lost = anyio.Event()
            try:
                await self._session()
                reason = "the connection was lost"
            except Exception as exc:
                reason = describe(exc)
                if self.settings.command is not None:
                    said = last_log_line(self.log_dir, self.name)
                    reason += f"; its stderr said: {said}" if said else ""
            finally:
                self._drop_tools()
                self._client = None
            self.state, self.error = "down", reason
            self._settled.set()
            delay = backoff.next_delay(ran_for=anyio.current_time() - began)
            log.warning("mcp.server_down", server=self.name, error=reason, retry_in=round(delay, 1))
            await anyio.sleep(delay)
            self.reconnects += 1
            if self.on_reconnect is not None:
                self.on_reconnect(self.name)

    async def settled(self) -> None:
        """Return once the first connection attempt has ended, up or down."""
        await self._settled.wait()

    async def _session(self) -> None:
        from mcp import Client
        from mcp_types import Implementation

        with anyio.CancelScope(deadline=anyio.current_time() + self.settings.connect_timeout) as cs:
            transport = open_transport(self.name, self.settings, self.log_dir, self._lost)
            async with Client(
                transport,
                cache=None,
                message_handler=self._on_message,
                client_info=Implementation(name="agentd", version=__version__),
            ) as client:
                await self._list(client)
                cs.deadline = math.inf
                self._client = client
                self.state, self.error = "up", None
                self._settled.set()
                log.info("mcp.server_up", server=self.name, tools=len(self.tools))
                async with anyio.create_task_group() as tg:
                    tg.start_soon(self._listen, client)
                    tg.start_soon(self._relist_on_change, client)
                    await self._lost.wait()
                    tg.cancel_scope.cancel()
        if cs.cancelled_caught:
            raise McpError(f"no answer within {self.settings.connect_timeout:g}s (connect_timeout)")

    async def _list(self, client: Client) -> None:
        """List the server's tools (every page) and put the allowed ones in the registry."""
        listed: list[types.Tool] = []
        cursor: str | None = None
        for _ in range(100):
            page = await client.list_tools(cursor=cursor)
            listed.extend(page.tools)
            cursor = page.next_cursor
            if cursor is None:
                break
        self._drop_tools()
        tenants = frozenset(self.settings.tenants) if self.settings.tenants is not None else None
        for tool in listed:
            if not allowed(self.settings, tool.name):
                continue
            name = tool_name(self.name, tool.name)
            if name in self.registry:
                log.warning("mcp.tool_skipped", server=self.name, tool=tool.name, reason="clash")
                continue
            description = " ".join((tool.description or tool.title or tool.name).split())
            self.registry.add_schema_tool(
                SchemaTool(
                    name=name,
                    description=description[:MAX_DESCRIPTION],
                    parameters=_parameters(tool.input_schema),
                    fn=partial(self.call, tool.name),
                    timeout=self.settings.timeout,
                    tenants=tenants,
                    looks=_reads_only(tool),
                )
            )
            self.tools.append(name)
        if len(self.tools) > MANY_TOOLS:
            log.warning(
                "mcp.many_tools",
                server=self.name,
                tools=len(self.tools),
                hint=f"every schema is sent on every model call: narrow mcp.servers.{self.name}"
                ".tools.allow",
            )

    def _drop_tools(self) -> None:
        for name in self.tools:
            self.registry.remove(name)
        self.tools = []

    async def _on_message(self, message: Any) -> None:
        from mcp_types import ToolListChangedNotification

        if isinstance(message, ToolListChangedNotification):
            self._changed.set()

    async def _listen(self, client: Client) -> None:
        """On a 2026 connection, follow the server's tool list changes; a lost stream is a
        lost connection."""
        from mcp.client.subscriptions import ListenNotSupportedError, SubscriptionLost
        from mcp.shared.exceptions import MCPError

        try:
            async with client.listen(tools_list_changed=True) as events:
                async for _ in events:
                    self._changed.set()
        except ListenNotSupportedError:
            return  # an older server: notifications/tools/list_changed come to _on_message
        except SubscriptionLost:
            self._lost.set()
        except MCPError as exc:
            log.info("mcp.no_listen", server=self.name, error=exc.error.message)

    async def _relist_on_change(self, client: Client) -> None:
        while True:
            await self._changed.wait()
            self._changed = anyio.Event()
            try:
                with anyio.fail_after(self.settings.connect_timeout):
                    await self._list(client)
            except Exception as exc:
                log.warning("mcp.relist_failed", server=self.name, error=describe(exc))
                self._lost.set()
                return
            log.info("mcp.tools_changed", server=self.name, tools=len(self.tools))

    async def call(self, tool: str, arguments: dict[str, Any]) -> ToolOutcome:
        """Call the server's ``tool``; every failure is an error outcome."""
        from mcp.shared.exceptions import MCPError
        from mcp_types.jsonrpc import CONNECTION_CLOSED

        from agentd.mcp.results import outcome_of

        client = self._client
        if client is None:
            return ToolOutcome(
                f"error: the MCP server {self.name!r} is not connected ({self.error or 'starting'})"
                "; it is being reconnected, try again later",
                True,
            )
        try:
            result = await client.call_tool(tool, arguments)
        except MCPError as exc:
            if exc.error.code != CONNECTION_CLOSED:
                return ToolOutcome(f"error: {exc.error.message}", True)
            self._lost.set()
            return ToolOutcome(
                f"error: the MCP server {self.name!r} went away during the call; "
                "it is being reconnected",
                True,
            )
        except Exception as exc:
            self._lost.set()
            return ToolOutcome(f"error: the MCP server {self.name!r} failed: {describe(exc)}", True)
        return outcome_of(result, self.settings.max_result_chars)


def describe(exc: BaseException) -> str:
    """One line about a failure, without secrets: the type and message of its innermost cause
    (an exception group is described by its first member)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = " ".join(str(exc).split())[:300]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _reads_only(tool: Any) -> bool:
    """Whether an MCP tool says it changes nothing (``annotations.readOnlyHint``); a tool
    that says nothing acts."""
    annotations = getattr(tool, "annotations", None)
    return getattr(annotations, "read_only_hint", None) is True
