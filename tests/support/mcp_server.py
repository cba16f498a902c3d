"""A real MCP server built with the SDK, for tests and benchmarks: stdio or streamable HTTP.

``python tests/support/mcp_server.py stdio`` serves it on stdin/stdout;
:func:`serving_http` runs it on a free 127.0.0.1 port in a thread (uvicorn) for the block.
``tools=N`` adds N simple ``toolK(query)`` tools (one string argument); with ``extras=False``
they are its only tools (the payload benchmark's servers).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.types import ToolAnnotations

SECRET = "the-deny-list-hides-me"


def build(name: str = "test", tools: int = 0, extras: bool = True) -> MCPServer:
    server: MCPServer = MCPServer(name, log_level="WARNING")
    for k in range(tools):
        server.add_tool(_numbered(k), name=f"tool{k}")
    if extras:
        _add_extras(server)
    return server


def _add_extras(server: MCPServer) -> None:

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    @server.tool()
    async def slow(seconds: float) -> str:
        """Wait, then answer."""
        await anyio.sleep(seconds)
        return "done"

    @server.tool()
    def huge(chars: int) -> str:
        """Answer with many characters."""
        line = "y" * 99 + "\n"
        return (line * (chars // 100 + 1))[:chars]

    @server.tool()
    def crash() -> str:
        """Exit the server process at once."""
        os._exit(3)

    @server.tool()
    def fail() -> str:
        """Raise an error in the tool."""
        raise ValueError("the tool broke")

    @server.tool()
    def secret() -> str:
        """A tool the deny list hides."""
        return SECRET

    @server.tool()
    def pid() -> int:
        """The server's process id."""
        return os.getpid()

    @server.tool()
    async def grow(ctx: Context) -> str:
        """Add a tool named extra and tell the client."""

        def extra() -> str:
            """A tool added at run time."""
            return "extra!"

        server.add_tool(extra)
        await ctx.notify_tools_changed()
        return "grown"


def _numbered(k: int) -> Any:
    def tool(query: str) -> str:
        """Search this source for a query."""
        return f"{k}: nothing found for {query}"

    return tool


class HttpServer:
    """The test server on streamable HTTP in a thread (uvicorn), on ``port`` (0: a free one)."""

    def __init__(
        self, name: str = "web", tools: int = 0, extras: bool = True, token: str | None = None
    ) -> None:
        self._build = (name, tools, extras)
        self.token = token
        #: The Authorization headers received (with a token required).
        self.authorizations: list[str] = []
        self.port = 0
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def start(self) -> str:
        import uvicorn

        # A new server each start: the SDK's session manager runs once per instance.
        app: Any = build(*self._build).streamable_http_app()
        if self.token is not None:
            app = self._guarded(app)
        # log_config=None: uvicorn's own logging config would stop its loggers from
        # reaching the root handler, which the logging tests of the same process rely on.
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
            log_config=None,
        )
        self._server = server = uvicorn.Server(config)
        self._thread = thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("the MCP test server did not start")
            time.sleep(0.02)
        self.port = server.servers[0].sockets[0].getsockname()[1]
        return self.url

    def _guarded(self, app: Any) -> Any:
        """``app`` answering 401 unless the request has ``Authorization: Bearer <token>``."""

        async def guarded(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                headers = dict(scope["headers"])
                given = headers.get(b"authorization", b"").decode()
                self.authorizations.append(given)
                if given != f"Bearer {self.token}":
                    await send({"type": "http.response.start", "status": 401, "headers": []})
                    await send({"type": "http.response.body", "body": b"unauthorized"})
                    return
            await app(scope, receive, send)

        return guarded

    def stop(self) -> None:
        """Stop serving; open streams (a client's listen stream) are cut after a second."""
        assert self._server is not None and self._thread is not None
        self._server.should_exit = True
        self._thread.join(timeout=1)
        self._server.force_exit = True
        self._thread.join(timeout=10)


@contextmanager
def serving_http(name: str = "web", tools: int = 0, extras: bool = True) -> Iterator[str]:
    """The server on streamable HTTP at a free loopback port; yields its /mcp URL."""
    server = HttpServer(name, tools, extras)
    try:
        yield server.start()
    finally:
        server.stop()


if __name__ == "__main__":
    build(sys.argv[2] if len(sys.argv) > 2 else "local").run("stdio")
