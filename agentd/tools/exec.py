"""The ``exec`` tool: a shell command in the tenant's workdir, inside the bubblewrap sandbox.

Each call runs in the workdir of the current scope's tenant (no scope, no command), with the
network the turn's tool policy grants (:func:`agentd.tools.policy.current`). Without ``bwrap``
the tool refuses and says how to install it, unless the operator set ``tools.exec.unsandboxed``
(then only the limits and the scrubbed environment apply; ``agentd config show`` warns).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import structlog

from agentd import scope as scopes
from agentd.config import ExecSettings
from agentd.errors import ToolError
from agentd.tools import policy, sandbox
from agentd.tools.registry import ToolRegistry

log = structlog.get_logger("agentd.tools.exec")

NO_BWRAP = (
    "exec is unavailable: bubblewrap ({bwrap!r}) is not installed, and agentd runs commands "
    "only inside its sandbox. Tell the user: install it (Debian: apt-get install bubblewrap)."
)
#: Seconds beyond a command's own timeout that the registry waits before giving up on the tool.
_GRACE = 10.0


def limits_of(settings: ExecSettings) -> sandbox.Limits:
    return sandbox.Limits(
        cpu_seconds=settings.cpu_seconds,
        memory_bytes=settings.memory_mb * 1024 * 1024,
        processes=settings.max_processes,
        file_bytes=settings.file_mb * 1024 * 1024,
        output_chars=settings.max_output_chars,
    )


def register_exec_tool(
    registry: ToolRegistry, settings: ExecSettings, workdir_for: Callable[[str], Path]
) -> None:
    """Add ``exec``; ``workdir_for`` gives a tenant's workdir (made if missing)."""
    limits = limits_of(settings)
    # Root is exempt from RLIMIT_NPROC: a pids cgroup bounds the processes instead.
    as_root = os.geteuid() == 0
    warned: list[bool] = []

    # The model asks for a timeout by this name (exec(command, timeout?)); the sandbox applies it.
    async def exec_command(command: str, timeout: float | None = None) -> str:  # noqa: ASYNC109
        """Run a shell command (/bin/sh -c) in the workdir and return its exit status and output.

        It runs in a sandbox: the workdir (the current folder) is the only place it can write,
        the system is read-only, /tmp is empty and private, and there is no network unless
        allowed. Use it for what files tools cannot do: count lines (wc -l), search (grep),
        run scripts and programs.

        Args:
            command: The shell command, e.g. "wc -l notes.txt".
            timeout: Seconds it may run before it is killed (default 30).
        """
        if not command.strip():
            raise ToolError("command is empty")
        wait = min(timeout if timeout and timeout > 0 else settings.timeout, settings.max_timeout)
        folder = workdir_for(scopes.current().tenant)
        folder.mkdir(parents=True, exist_ok=True)
        bwrap = sandbox.find_bwrap(settings.bwrap)
        if bwrap is not None:
            network = policy.current().exec_network
            argv = [
                *sandbox.bwrap_args(bwrap, folder, network=network, proc=settings.proc),
                *sandbox.limit_args(limits),
                "/bin/sh",
                "-c",
                command,
            ]
            cwd = Path("/")  # bwrap's own folder; the command's is the workdir
        elif settings.unsandboxed:
            # RLIMIT_NPROC would count every process of the daemon's user here.
            argv = [*sandbox.limit_args(limits, processes=False), "/bin/sh", "-c", command]
            cwd = folder
        else:
            raise ToolError(NO_BWRAP.format(bwrap=settings.bwrap))
        if as_root and not warned:
            warned.append(True)
            log.warning(
                "exec.as_root",
                hint="the daemon runs as root: RLIMIT_NPROC does not bind; a pids cgroup is used "
                "where one can be made",
            )
        outcome = await sandbox.run(argv, time_limit=wait, limits=limits, cwd=cwd, cgroup=as_root)
        log.info(
            "exec.done",
            status=outcome.status,
            timed_out=outcome.timed_out,
            stdout_bytes=outcome.stdout_size,
            stderr_bytes=outcome.stderr_size,
        )
        if bwrap is not None and outcome.status == 1 and outcome.stderr.startswith(b"bwrap: "):
            # bwrap itself failed to set the sandbox up (the command never ran).
            log.error(
                "exec.sandbox_failed",
                error=outcome.stderr[:300].decode("utf-8", "replace").strip(),
                hint="under a hardened systemd unit set tools.exec.proc=false (a new /proc is "
                "refused); user namespaces must be allowed (RestrictNamespaces)",
            )
        return outcome.render(settings.max_output_chars)

    registry.add(exec_command, name="exec", timeout=settings.max_timeout + _GRACE)
