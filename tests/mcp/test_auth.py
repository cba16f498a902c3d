"""Streamable HTTP servers that want a bearer token: sent when read, never shown."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from agentd.config.mcp import McpSettings
from agentd.mcp.servers import McpServers
from agentd.messages import ToolCall
from agentd.tools.registry import ToolRegistry
from tests.support.mcp_server import HttpServer

pytestmark = pytest.mark.anyio

TOKEN = "tok-4c1d9e0b7f"


@pytest.fixture(scope="module")
def guarded() -> Iterator[HttpServer]:
    server = HttpServer(token=TOKEN)
    server.start()
    yield server
    server.stop()


async def test_the_token_from_a_file_is_sent(guarded: HttpServer, tmp_path: Path) -> None:
    """bearer_token_file: the server gets Authorization: Bearer <token> and answers."""
    (tmp_path / "token").write_text(TOKEN + "\n")
    server = {"url": guarded.url, "bearer_token_file": str(tmp_path / "token")}
    registry = ToolRegistry()
    settings = McpSettings(servers={"web": server})
    async with McpServers.open(settings, registry, tmp_path) as servers:
        assert servers.states() == {"web": "up"}
        outcome = await registry.call(ToolCall("1", "web__add", '{"a": 1, "b": 2}'))
    assert outcome.content == "3"
    assert f"Bearer {TOKEN}" in guarded.authorizations


@pytest.mark.parametrize(
    ("env", "reason"),
    [
        pytest.param({"MCP_TOKEN": "wrong-" + TOKEN}, "error response", id="wrong"),
        pytest.param({}, "env variable MCP_TOKEN is empty or unset", id="unset"),
    ],
)
async def test_a_refused_or_missing_token_is_a_warning_without_it(
    guarded: HttpServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    env: dict[str, str],
    reason: str,
) -> None:
    """The server is down with a reason that never holds the token."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    server = {"url": guarded.url, "bearer_token_env": "MCP_TOKEN", "connect_timeout": 5}
    settings = McpSettings(servers={"web": server})
    with capture_logs() as logs:
        async with McpServers.open(settings, ToolRegistry(), tmp_path) as servers:
            (info,) = servers.info()
    assert info.state == "down"
    assert info.error is not None and reason in info.error, info.error
    assert TOKEN not in repr(logs) and TOKEN not in info.error
