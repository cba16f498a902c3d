"""The ``mcp`` section: the MCP servers whose tools the agent may use.

Each ``mcp.servers.<name>`` is either a stdio server (``command``, ``args``, ``env``, ``cwd``)
or a streamable HTTP one (``url``, ``headers``, a bearer token from an env variable or a file).
Env names follow the nested form: ``AGENTD_MCP__SERVERS__<NAME>__URL``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pydantic
from pydantic import BaseModel, ConfigDict, Field, SecretStr


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_default=True)


class McpToolFilter(_Section):
    """Which of a server's tools the agent is offered, by the server's own tool names."""

    allow: list[str] | None = Field(
        None, description="Shell-style patterns; only matching tools are offered (None: all)."
    )
    deny: list[str] = Field([], description="Shell-style patterns of tools never offered.")


class McpServerSettings(_Section):
    """One MCP server: stdio (``command``) or streamable HTTP (``url``), not both."""

    enabled: bool = True
    command: str | None = Field(None, description="stdio: the program to run.")
    args: list[str] = Field([], description="stdio: its arguments.")
    env: dict[str, SecretStr] = Field(
        {}, description="stdio: variables added to a scrubbed environment (PATH, HOME, ...)."
    )
    cwd: Path | None = Field(None, description="stdio: its working directory.")
    url: str | None = Field(None, description="Streamable HTTP: the endpoint, e.g. .../mcp.")
    headers: dict[str, SecretStr] = Field({}, description="HTTP: headers sent with each request.")
    bearer_token_env: str | None = Field(
        None, description="HTTP: the env variable holding a bearer token (read at connect)."
    )
    bearer_token_file: Path | None = Field(
        None, description="HTTP: a file holding a bearer token (read at connect)."
    )
    tools: McpToolFilter = McpToolFilter()
    timeout: float = Field(30.0, gt=0, description="Seconds one tool call may take.")
    connect_timeout: float = Field(
        10.0, gt=0, description="Seconds to start (stdio) or reach (HTTP) and list the tools."
    )
    tenants: list[str] | None = Field(
        None, description="Tenants whose turns may use its tools (None: every tenant)."
    )
    max_result_chars: int = Field(
        65536, ge=256, description="A longer tool result is cut, with a line saying so."
    )

    @pydantic.model_validator(mode="after")
    def _one_transport(self) -> McpServerSettings:
        if (self.command is None) == (self.url is None):
            raise ValueError("set either command (stdio) or url (streamable HTTP)")
        if self.url is None and (self.headers or self.bearer_token_env or self.bearer_token_file):
            raise ValueError("headers and bearer tokens are for url servers only")
        if self.command is None and (self.args or self.env or self.cwd is not None):
            raise ValueError("args, env and cwd are for command (stdio) servers only")
        if self.bearer_token_env and self.bearer_token_file:
            raise ValueError("set bearer_token_env or bearer_token_file, not both")
        return self

    @pydantic.field_validator("url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not re.match(r"^https?://[^/\s]+", value):
            raise ValueError("url must start with http:// or https://")
        return value

    @property
    def transport(self) -> str:
        return "stdio" if self.command is not None else "http"


class McpSettings(_Section):
    servers: dict[str, McpServerSettings] = Field(
        {}, description="MCP servers by name; their tools are offered as <name>__<tool>."
    )
    start_wait: float = Field(
        5.0,
        ge=0,
        description="Seconds the daemon waits for its servers before READY=1; slower ones join "
        "when they are up.",
    )

    @pydantic.field_validator("servers")
    @classmethod
    def _server_names(cls, value: dict[str, McpServerSettings]) -> dict[str, McpServerSettings]:
        for name in value:
            if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}", name) or "__" in name:
                raise ValueError(
                    f"MCP server name {name!r}: 1-32 letters, digits, _ and -, starting with a "
                    "letter or digit, without '__' (tools are named <server>__<tool>)"
                )
        return value
