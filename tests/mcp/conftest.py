"""Real MCP servers built with the SDK: one on streamable HTTP (a thread), stdio commands."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agentd.config import Settings
from tests.support.mcp_server import serving_http
from tests.support.stub_llm import StubLLM

SERVER = Path(__file__).resolve().parents[1] / "support" / "mcp_server.py"


def stdio_server(**extra: Any) -> dict[str, Any]:
    """The config of the test server started over stdio."""
    return {"command": sys.executable, "args": [str(SERVER), "stdio", "loc"], **extra}


@pytest.fixture(scope="module")
def web_url() -> Iterator[str]:
    """The test server on streamable HTTP, shared by a module's tests (its tools never change)."""
    with serving_http() as url:
        yield url


def app_settings(
    tmp_path: Path, stub: StubLLM, start_wait: float = 20.0, **servers: Any
) -> Settings:
    """Settings of an app on the stub model with these MCP servers."""
    (tmp_path / "workdir").mkdir(exist_ok=True)
    return Settings(
        workdir=tmp_path / "workdir",
        state_dir=tmp_path / "state",
        llm={"base_url": stub.url, "max_retries": 0},  # type: ignore[arg-type]
        memory={"embed": False},  # type: ignore[arg-type]
        mcp={"servers": servers, "start_wait": start_wait},  # type: ignore[arg-type]
        # The stub reports no context size; the 4,096-token default leaves no room beside
        # agentd's eleven tools and the servers' (the step would then go without tools).
        default={"max_tokens": 16384},  # type: ignore[arg-type]
    )
