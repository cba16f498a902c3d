"""The mcp section: one transport per server, names fit <server>__<tool>, env names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pydantic
import pytest

from agentd.config import load_settings
from agentd.config.mcp import McpServerSettings, McpSettings


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        pytest.param({}, "either command", id="none"),
        pytest.param({"command": "x", "url": "http://h/mcp"}, "either command", id="both"),
        pytest.param({"url": "ftp://h"}, "http:// or https://", id="scheme"),
        pytest.param({"command": "x", "headers": {"a": "b"}}, "url servers only", id="headers"),
        pytest.param({"url": "http://h/mcp", "args": ["-v"]}, "for command", id="args"),
        pytest.param(
            {"url": "http://h/mcp", "bearer_token_env": "A", "bearer_token_file": "/f"},
            "not both",
            id="two-tokens",
        ),
    ],
)
def test_a_server_has_exactly_one_transport(fields: dict[str, Any], message: str) -> None:
    """A server is stdio or HTTP, with only that transport's keys."""
    with pytest.raises(pydantic.ValidationError, match=message):
        McpServerSettings(**fields)


@pytest.mark.parametrize("name", ["a__b", "-a", "", "a" * 33, "a.b"])
def test_server_names_fit_tool_names(name: str) -> None:
    """A server name cannot hold '__' or characters a function name may not have."""
    with pytest.raises(pydantic.ValidationError, match="MCP server name"):
        McpSettings(servers={name: McpServerSettings(command="x")})


def test_servers_come_from_the_environment(tmp_path: Path) -> None:
    """AGENTD_MCP__SERVERS__<NAME>__... configures a server; header values are secrets."""
    env = {
        "AGENTD_MCP__SERVERS__WEB__URL": "http://127.0.0.1:9/mcp",
        "AGENTD_MCP__SERVERS__WEB__HEADERS": '{"X-Key": "s3cret"}',
        "AGENTD_MCP__SERVERS__WEB__TENANTS": '["acme"]',
        "AGENTD_STATE_DIR": str(tmp_path),
    }
    settings = load_settings(environ=env).settings
    (name, server), *_ = settings.mcp.servers.items()
    assert name == "web"
    assert server.transport == "http" and server.tenants == ["acme"]
    assert server.headers["X-Key"].get_secret_value() == "s3cret"
    assert "s3cret" not in repr(settings)
