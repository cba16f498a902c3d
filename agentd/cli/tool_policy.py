"""What ``agentd config show`` says about tools: the effective policy and the sandbox's state."""

from __future__ import annotations

from agentd.config import Settings
from agentd.tools import sandbox
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.memory import TOOL_NAMES as MEMORY_TOOLS
from agentd.tools.policy import ToolPolicy
from agentd.tools.registry import ToolRegistry


def tool_names(settings: Settings) -> list[str]:
    """The agent's own tools under ``settings`` (what the daemon registers, by name)."""
    registry = ToolRegistry()
    register_builtin_tools(registry, settings.workdir)  # registering touches no file
    names = list(registry.names)
    if settings.memory.embed:
        # memory_forget needs the model to decide (memory.curate).
        names += [n for n in MEMORY_TOOLS if settings.memory.curate or n != "memory_forget"]
    if settings.tools.exec.enabled:
        names.append("exec")
    if settings.tools.web_fetch.enabled:
        names.append("web_fetch")
    return sorted(names)


def policy_lines(settings: Settings) -> list[str]:
    """Comment lines: each audience's tools, then warnings about the sandbox."""
    lines = ["# tool policy (tools offered per audience; tools.policy, tenants.<name>.tools):"]
    lines += [
        f"#   {line}" for line in ToolPolicy.from_settings(settings).describe(tool_names(settings))
    ]
    exec_settings = settings.tools.exec
    if exec_settings.enabled and sandbox.find_bwrap(exec_settings.bwrap) is None:
        if exec_settings.unsandboxed:
            lines.append(
                "# WARNING: tools.exec.unsandboxed is set and bubblewrap is missing: exec runs "
                "commands WITHOUT a sandbox, as the daemon's user, with its files and network"
            )
        else:
            lines.append(
                f"# note: bubblewrap ({exec_settings.bwrap!r}) is not installed: exec refuses "
                "to run (apt-get install bubblewrap)"
            )
    elif exec_settings.enabled and exec_settings.unsandboxed:
        lines.append(
            "# WARNING: tools.exec.unsandboxed is set: should bubblewrap go missing, exec runs "
            "commands WITHOUT a sandbox"
        )
    return lines
