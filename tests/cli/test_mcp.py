"""`agentd mcp list|call`: the configured servers' state and tools, one call as the agent does."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog

from agentd import cli
from tests.support.mcp_server import serving_http


@pytest.fixture(autouse=True)
def _restore_logging() -> Iterator[None]:
    """main() configures logging for the process; undo it after each test."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    structlog.reset_defaults()
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.fixture(scope="module")
def web_url() -> Iterator[str]:
    with serving_http() as url:
        yield url


def _config(tmp_path: Path, **servers: Any) -> str:
    path = tmp_path / "config.json"
    config = {
        "state_dir": str(tmp_path / "state"),
        "workdir": str(tmp_path / "workdir"),
        "memory": {"embed": False},
        "mcp": {"servers": servers},
    }
    path.write_text(json.dumps(config))
    return str(path)


def test_list_shows_state_and_offered_tools(
    tmp_path: Path, web_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each server with its state and the tools the agent is offered; 1 when one is down."""
    config = _config(
        tmp_path,
        web={"url": web_url, "tools": {"allow": ["add", "slow"]}},
        bad={"url": "http://127.0.0.1:9/mcp", "connect_timeout": 2},
        off={"command": "x", "enabled": False},
    )
    assert cli.main(["--config", config, "mcp", "list"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [
        "web  http  up  2 tools",
        "  web__add  Add two numbers.",
        "  web__slow  Wait, then answer.",
    ]
    assert out[3].startswith("bad  http  down  (")
    assert out[4] == "off  stdio  off"


@pytest.mark.parametrize(
    ("tool", "arguments", "code", "printed"),
    [
        pytest.param("add", '{"a": 2, "b": 40}', 0, "42", id="ok"),
        pytest.param("fail", "{}", 1, "error: Error executing tool fail", id="tool-error"),
        pytest.param("secret", "{}", 1, "error: unknown tool 'web__secret'", id="denied"),
    ],
)
def test_call_runs_one_tool_as_the_agent_would(
    tmp_path: Path,
    web_url: str,
    capsys: pytest.CaptureFixture[str],
    tool: str,
    arguments: str,
    code: int,
    printed: str,
) -> None:
    """The result is printed; an error result exits 1; the deny list applies."""
    config = _config(tmp_path, web={"url": web_url, "tools": {"deny": ["secret"]}})
    assert cli.main(["--config", config, "mcp", "call", "web", tool, arguments]) == code
    assert capsys.readouterr().out.startswith(printed)


def test_call_refuses_an_unknown_server_and_bad_json(
    tmp_path: Path, web_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Usage errors exit 2 and say what is wrong."""
    config = _config(tmp_path, web={"url": web_url})
    assert cli.main(["--config", config, "mcp", "call", "nope", "add", "{}"]) == 2
    assert "no MCP server 'nope' (configured: web)" in capsys.readouterr().err
    assert cli.main(["--config", config, "mcp", "call", "web", "add", "{"]) == 2
    assert "JSON arguments" in capsys.readouterr().err
