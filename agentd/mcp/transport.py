"""How agentd reaches one MCP server: a stdio child process, or streamable HTTP.

:func:`open_transport` yields the SDK's stream pair with the read side watched: when the
server's side ends (a stdio server exits, its pipe closes) ``lost`` is set, so the link
notices a crash while idle, not only at the next call.

A stdio server is started through :mod:`agentd.mcp.orphan_guard` (a small supervisor that
kills the server's whole tree when the server exits, on stop, and when agentd dies) in its
own session (the SDK's), with a scrubbed environment (the SDK's PATH, HOME, USER... plus the
configured ``env``); its stderr goes to ``<state_dir>/mcp/<name>.log``. An HTTP server's
bearer token is read at each connect and sent as a header; it is never logged nor put in an
error message.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, Self, TextIO, TypeVar

import anyio

from agentd.config.mcp import McpServerSettings
from agentd.errors import McpError

if TYPE_CHECKING:
    from mcp.client._transport import TransportStreams
    from mcp.shared._stream_protocols import ReadStream

__all__ = ["GUARD", "last_log_line", "open_transport", "stdio_command"]

GUARD = Path(__file__).with_name("orphan_guard.py")
LOG_ROTATE = 10 * 1024 * 1024
#: The line written to a server's log before each start.
START_MARK = "--- agentd: starting the server"
#: A server may hold an HTTP response open while a tool runs; calls are bounded by their timeout.
HTTP_READ_TIMEOUT = 300.0

T = TypeVar("T")


def stdio_command(settings: McpServerSettings) -> list[str]:
    """The argv that starts a stdio server under the orphan guard."""
    assert settings.command is not None
    guard = [sys.executable, "-I", "-S", str(GUARD), str(os.getpid())]
    return [*guard, settings.command, *settings.args]


class _Watched(Generic[T]):
    """A read stream that sets ``lost`` when it ends."""

    __slots__ = ("_inner", "_lost")

    def __init__(self, inner: ReadStream[T], lost: anyio.Event) -> None:
        self._inner = inner
        self._lost = lost

    async def receive(self) -> T:
        try:
            return await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._lost.set()
            raise

    @property
    def last_context(self) -> object:
        """The inner stream's sender context (the SDK runs handlers in it), if it has one."""
        return getattr(self._inner, "last_context", None)

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> T:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


@asynccontextmanager
async def open_transport(
    name: str, settings: McpServerSettings, log_dir: Path, lost: anyio.Event
) -> AsyncIterator[TransportStreams]:
    """The server's streams, open for the block; ``lost`` is set when the server's side ends."""
    if settings.command is not None:
        cm = _stdio(name, settings, log_dir)
    else:
        cm = _http(settings)
    async with cm as (read, write):
        yield _Watched(read, lost), write


@asynccontextmanager
async def _stdio(
    name: str, settings: McpServerSettings, log_dir: Path
) -> AsyncIterator[TransportStreams]:
    from mcp.client.stdio import StdioServerParameters, stdio_client

    argv = stdio_command(settings)
    params = StdioServerParameters(
        command=argv[0],
        args=argv[1:],
        env={k: v.get_secret_value() for k, v in settings.env.items()},
        cwd=settings.cwd,
        encoding_error_handler="replace",
    )
    with _server_log(log_dir, name) as errlog:
        async with stdio_client(params, errlog=errlog) as streams:
            yield streams


def last_log_line(log_dir: Path, name: str, limit: int = 300) -> str | None:
    """The last line a stdio server wrote to stderr (its reason, when it would not start)."""
    try:
        with (log_dir / f"{name}.log").open("rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - 4096))
            tail = fh.read().decode("utf-8", "replace")
    except OSError:
        return None
    lines = [line.strip() for line in tail.splitlines() if line.strip()]
    if not lines or lines[-1].startswith(START_MARK):
        return None  # it said nothing since it was started
    return lines[-1][:limit]


def _server_log(log_dir: Path, name: str) -> TextIO:
    """The server's stderr file (the previous one is kept as ``.1`` past 10 MB)."""
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / f"{name}.log"
    if log_path.is_file() and log_path.stat().st_size > LOG_ROTATE:
        log_path.replace(log_path.with_name(log_path.name + ".1"))
    errlog = log_path.open("a", encoding="utf-8")
    errlog.write(f"{START_MARK} {time.strftime('%Y-%m-%dT%H:%M:%S%z')}\n")
    errlog.flush()
    return errlog


@asynccontextmanager
async def _http(settings: McpServerSettings) -> AsyncIterator[TransportStreams]:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    assert settings.url is not None
    headers = {k: v.get_secret_value() for k, v in settings.headers.items()}
    token = bearer_token(settings)
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    timeout = httpx2.Timeout(settings.connect_timeout, read=HTTP_READ_TIMEOUT)
    async with (
        httpx2.AsyncClient(headers=headers, timeout=timeout) as http,
        streamable_http_client(settings.url, http_client=http) as streams,
    ):
        yield streams


def bearer_token(settings: McpServerSettings) -> str | None:
    """The bearer token from ``bearer_token_env`` or ``bearer_token_file`` (McpError, not
    naming the value, when it cannot be read or is empty)."""
    where: Any
    if settings.bearer_token_env is not None:
        where = f"env variable {settings.bearer_token_env}"
        token = os.environ.get(settings.bearer_token_env, "")
    elif settings.bearer_token_file is not None:
        where = f"file {settings.bearer_token_file}"
        try:
            token = settings.bearer_token_file.expanduser().read_text(encoding="utf-8")
        except OSError as exc:
            raise McpError(f"bearer token {where}: {exc.strerror}") from None
    else:
        return None
    token = token.strip()
    if not token:
        raise McpError(f"bearer token {where} is empty or unset")
    return token
