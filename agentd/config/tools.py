"""The settings of the tools that reach outside the workdir: ``exec``, ``web_fetch``, and the
tool policy that decides, per channel audience and per tenant, which tools the model is offered.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_default=True)


class ExecSettings(_Section):
    """The ``exec`` tool: ``/bin/sh -c`` in a bubblewrap sandbox (docs/tools.md)."""

    enabled: bool = Field(True, description="Offer the exec tool (where the policy allows it).")
    bwrap: str = Field("bwrap", min_length=1, description="The bubblewrap binary (name or path).")
    unsandboxed: bool = Field(
        False,
        description="DANGEROUS: when bwrap is missing, run commands WITHOUT a sandbox (only the "
        "limits and a scrubbed environment apply). `agentd config show` flags it.",
    )
    network: bool = Field(
        False, description="Network inside the sandbox, unless a policy rule says otherwise."
    )
    proc: bool = Field(
        True,
        description="Mount a fresh /proc (the sandbox's own processes) in the sandbox. The "
        "systemd unit turns it off: under its ProtectKernelTunables, ProtectKernelLogs and "
        "ProcSubset the kernel refuses a new /proc in a user namespace.",
    )
    user: str = Field(
        "agentd-exec",
        min_length=1,
        pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$",
        description="Who runs commands when the daemon runs as root (a user name or number, "
        "never root): the install makes 'agentd-exec'; when it is missing, 'nobody'. A daemon "
        "running as another user runs commands as itself.",
    )
    timeout: float = Field(30.0, gt=0, description="Seconds a command gets if the model asks none.")
    max_timeout: float = Field(120.0, gt=0, description="The most seconds the model may ask for.")
    cpu_seconds: int = Field(60, ge=1, description="CPU time per process (RLIMIT_CPU).")
    memory_mb: int = Field(1024, ge=16, description="Address space per process (RLIMIT_AS), MiB.")
    max_processes: int = Field(
        64, ge=1, description="Processes and threads in the sandbox (RLIMIT_NPROC / pids cgroup)."
    )
    file_mb: int = Field(256, ge=1, description="Largest file a command may write (RLIMIT_FSIZE).")
    max_output_chars: int = Field(
        20_000, ge=200, description="Output the model sees (stdout and stderr); the rest is cut."
    )


class WebFetchSettings(_Section):
    """The ``web_fetch`` tool: public addresses only, size and time limits."""

    enabled: bool = Field(True, description="Offer the web_fetch tool (where the policy allows).")
    allow: list[str] = Field(
        [],
        description="Hosts, addresses or networks (CIDR) fetched although not public, e.g. "
        "'127.0.0.1' or 'intranet.example'.",
    )
    timeout: float = Field(20.0, gt=0, description="Seconds for a whole fetch, redirects included.")
    max_bytes: int = Field(2_000_000, ge=1024, description="Body bytes read; the rest is cut.")
    max_chars: int = Field(20_000, ge=200, description="Text the model sees when it asks no limit.")
    max_redirects: int = Field(5, ge=0, le=20, description="Redirects followed, each one checked.")


class ToolRule(_Section):
    """Which tools one audience (or one tenant) may use; a tool must pass every rule."""

    allow: list[str] | None = Field(
        None, description="Only these tools (null: all tools not denied)."
    )
    deny: list[str] = Field([], description="Tools never offered.")
    exec_network: bool | None = Field(
        None, description="Network inside exec's sandbox (null: no opinion; false wins)."
    )


class ToolPolicySettings(_Section):
    """The rule of each audience: who is on the other end of a turn."""

    console: ToolRule = Field(ToolRule(), description="`agentd chat --local`: the operator.")
    cron: ToolRule = Field(ToolRule(), description="Cron jobs and heartbeats.")
    telegram_private: ToolRule = Field(
        ToolRule(), description="Private Telegram chats of allowed senders."
    )
    telegram_group: ToolRule = Field(
        ToolRule(deny=["exec"]), description="Telegram group chats: anyone there can write."
    )
    matrix_private: ToolRule = Field(
        ToolRule(), description="Direct Matrix rooms (two members) of allowed users."
    )
    matrix_group: ToolRule = Field(
        ToolRule(deny=["exec"]), description="Matrix rooms of more than two: anyone can write."
    )
    email: ToolRule = Field(
        ToolRule(deny=["exec"]),
        description="Mail from admitted senders: a mail account is easier to take over than "
        "a chat login, so no commands unless allowed here.",
    )
    http_admin: ToolRule = Field(ToolRule(), description="HTTP API callers that are admins.")
    http_user: ToolRule = Field(
        ToolRule(deny=["exec"]), description="HTTP API callers that are not admins."
    )


class ToolsSettings(_Section):
    workdir_quota_mb: int = Field(
        1024,
        ge=0,
        description="The most MiB of files one tenant's workdir may hold; the file tools refuse "
        "a write past it and exec's commands are stopped there. 0 = no quota.",
    )
    exec: ExecSettings = ExecSettings()
    web_fetch: WebFetchSettings = WebFetchSettings()
    policy: ToolPolicySettings = ToolPolicySettings()
