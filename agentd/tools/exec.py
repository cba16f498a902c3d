"""The ``exec`` tool: a shell command in the tenant's workdir, inside the bubblewrap sandbox.

Each call runs in the workdir of the current scope's tenant (no scope, no command), with the
network the turn's tool policy grants (:func:`agentd.tools.policy.current`). Without ``bwrap``
the tool refuses and says how to install it, unless the operator set ``tools.exec.unsandboxed``
(then only the limits and the scrubbed environment apply; ``agentd config show`` warns).
In a turn whose request asks for no change (:func:`agentd.tools.policy.read_only`) the sandbox
binds the workdir read-only, without the network, and the result says so; unsandboxed, such a
command does not run.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import stat
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from pathlib import Path

import anyio
import structlog

from agentd import scope as scopes
from agentd.config import ExecSettings
from agentd.errors import ToolError
from agentd.tools import exec_user, policy, sandbox, seccomp, workdir_fs, workdir_guard
from agentd.tools.kinds import COMMAND
from agentd.tools.quota import NO_QUOTA, WorkdirQuota
from agentd.tools.registry import ToolRegistry
from agentd.tools.workdir_guard import Owner

log = structlog.get_logger("agentd.tools.exec")

NO_BWRAP = (
    "exec is unavailable: bubblewrap ({bwrap!r}) is not installed, and agentd runs commands "
    "only inside its sandbox. Tell the user: install it (Debian: apt-get install bubblewrap)."
)
#: A command of a turn whose request asks for no change (:func:`agentd.tools.policy.read_only`)
#: sees the workdir read-only; without the sandbox it cannot, so it does not run.
READ_ONLY_UNSANDBOXED = (
    "this request asks for no change, and commands then run only in the sandbox with the "
    "workdir read-only; the sandbox is off (tools.exec.unsandboxed), so none runs"
)
READ_ONLY_NOTE = "(the workdir was read-only: this request asks for no change)"
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


def protect(
    workdir: Path, files: Iterable[Path], stack: ExitStack, *, staged: str | None = None
) -> tuple[list[str], list[int]]:
    """bwrap options that keep the instruction files read-only in the sandbox, and their fds.

    An existing file is bound read-only over itself from an fd opened without following
    symlinks (a path could be swapped for a symlink out of the workdir); a command cannot
    write, replace or remove it (a mount point). With ``staged`` (where a root daemon's
    workdir is shown to an unprivileged bwrap, :func:`agentd.tools.exec_user.drop_args`) it
    is bound by its path there instead, once checked through the fd: bwrap, running as the
    unprivileged user, could not reach the fd's own path, and reads nothing that user could
    not. A missing one at the workdir's top gets an
    empty read-only file, so a command cannot create it either; bwrap leaves an empty file
    as its mount point, removed when ``stack`` closes (after the command) so the user's
    workdir does not fill with empty instruction files. A file in a folder is
    protected by binding that top folder read-only; a missing folder is not protected.
    The fds are closed by ``stack``.
    """
    args: list[str] = []
    fds: list[int] = []
    for file in files:
        parts = workdir_fs.inside(workdir, file.expanduser())
        if not parts:
            continue
        top = parts[:1]
        dest = f"{sandbox.WORKDIR}/{top[0]}"
        try:
            with workdir_fs.open_dir(workdir, ()) as dir_fd:
                fd = os.open(top[0], os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
        except FileNotFoundError:
            if len(parts) > 1:
                continue
            fd, write_end = os.pipe()
            os.close(write_end)  # nothing: an empty file
            stack.callback(os.close, fd)
            stack.callback(_remove_mount_point, workdir, top[0])
            args += ["--ro-bind-data", str(fd), dest]
            fds.append(fd)
            continue
        stack.callback(os.close, fd)
        if stat.S_ISLNK(os.fstat(fd).st_mode):
            raise ToolError(
                f"{top[0]!r} in the workdir is a symlink: exec does not run while an "
                "instruction file (or its folder) is one; ask the operator to replace it"
            )
        if staged is not None:
            args += ["--ro-bind", f"{staged}/{top[0]}", dest]
            continue
        args += ["--ro-bind-fd", str(fd), dest]
        fds.append(fd)
    return args, fds


def _remove_mount_point(workdir: Path, name: str) -> None:
    """Remove the empty file bwrap left at ``name`` as the mount point of a missing
    instruction file (a file with content, a folder or a symlink there is left alone)."""
    try:
        with workdir_fs.open_dir(workdir, ()) as dir_fd:
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and st.st_size == 0:
                os.unlink(name, dir_fd=dir_fd)
    except (OSError, ToolError):
        pass  # nothing left there, or the workdir is gone: nothing to tidy


def _sandboxed_argv(
    bwrap: str,
    folder: Path,
    settings: ExecSettings,
    read_only: Sequence[Path],
    stack: ExitStack,
    *,
    staged: str | None,
) -> tuple[list[str], list[int]]:
    """bwrap's command line for one command (without the command) and the fds it needs."""
    try:
        filter_fd = seccomp.program_fd()
    except seccomp.Unsupported as exc:
        raise ToolError(f"exec is unavailable: {exc}; commands run only under that filter") from exc
    stack.callback(os.close, filter_fd)
    grant = policy.current()
    # With the whole workdir read-only the instruction files need no binds of their own (bwrap
    # could not make a missing one's mount point in it).
    no_binds: tuple[list[str], list[int]] = ([], [])
    inside, fds = (
        no_binds if grant.exec_read_only else protect(folder, read_only, stack, staged=staged)
    )
    argv = sandbox.bwrap_args(
        bwrap,
        staged or str(folder),
        network=grant.exec_network,
        seccomp_fd=filter_fd,
        proc=settings.proc,
        inside=inside,
        read_only=grant.exec_read_only,
    )
    return argv, [filter_fd, *fds]


def _within(limits: sandbox.Limits, left: int) -> sandbox.Limits:
    """``limits`` with no file larger than ``left`` bytes (none at all when 0)."""
    return dataclasses.replace(limits, file_bytes=min(limits.file_bytes, left))


def _past(quota: WorkdirQuota, folder: Path, start: int) -> Callable[[], str]:
    """The check that stops a command that took the workdir past its quota (one that only
    reads, or removes files, in a full workdir runs on)."""

    def check() -> str:
        now = quota.used_by(folder)
        if now <= max(quota.limit, start):
            return ""
        return "the workdir went past its quota. " + quota.full(now)

    return check


async def _settle(folder: Path, owner: Owner | None, when: str) -> None:
    with anyio.CancelScope(shield=True):
        await anyio.to_thread.run_sync(
            functools.partial(workdir_guard.settle, folder, owner, when=when)
        )


def register_exec_tool(
    registry: ToolRegistry,
    settings: ExecSettings,
    workdir_for: Callable[[str], Path],
    read_only: Sequence[Path] = (),
    quota: WorkdirQuota = NO_QUOTA,
) -> None:
    """Add ``exec``; ``workdir_for`` gives a tenant's workdir (made if missing).

    ``read_only`` are the instruction files (relative to the workdir, or absolute), kept
    read-only inside the sandbox too (:func:`protect`). A root daemon runs commands as
    ``settings.user`` (:mod:`agentd.tools.exec_user`); around each command the workdir is
    settled (:func:`agentd.tools.workdir_guard.settle`). The workdir's ``quota`` bounds
    each file a command writes to what is left, and the command is stopped when the
    workdir goes past it (:mod:`agentd.tools.quota`).
    """
    limits = limits_of(settings)
    # Root is exempt from RLIMIT_NPROC: a pids cgroup bounds the processes instead.
    as_root = os.geteuid() == 0
    owners: list[Owner | None] = []

    # The model asks for a timeout by this name (exec(command, timeout?)); the sandbox applies it.
    async def exec_command(command: str, timeout: float | None = None) -> str:  # noqa: ASYNC109
        """Run a shell command in the workdir (sandboxed): status and output. To count
        lines (wc -l), search (grep), run scripts.

        Args:
            command: e.g. "wc -l notes.txt".
            timeout: Seconds.
        """
        if not command.strip():
            raise ToolError("command is empty")
        wait = min(timeout if timeout and timeout > 0 else settings.timeout, settings.max_timeout)
        folder = workdir_for(scopes.current().tenant)
        folder.mkdir(mode=workdir_guard.MODE, parents=True, exist_ok=True)
        bwrap = sandbox.find_bwrap(settings.bwrap)
        if bwrap is None and not settings.unsandboxed:
            raise ToolError(NO_BWRAP.format(bwrap=settings.bwrap))
        looking = policy.current().exec_read_only
        if looking and bwrap is None:
            raise ToolError(READ_ONLY_UNSANDBOXED)
        if not owners:
            owners.append(exec_user.command_owner(settings.user))
            if as_root:
                log.warning(
                    "exec.as_root",
                    hint="the daemon runs as root: commands run as an unprivileged user "
                    "(tools.exec.user), in a pids cgroup where one can be made",
                )
        owner = owners[0]
        drop = exec_user.drop_args(owner, folder if bwrap else None) if owner else []
        staged = exec_user.STAGED if owner is not None else None
        await _settle(folder, owner, "before")
        start = await anyio.to_thread.run_sync(quota.used_by, folder) if quota.limit else 0
        bounded = limits if not quota.limit else _within(limits, max(0, quota.limit - start))
        try:
            with ExitStack() as stack:
                fds: list[int] = []
                if bwrap is not None:
                    jail, fds = _sandboxed_argv(
                        bwrap, folder, settings, read_only, stack, staged=staged
                    )
                    argv = [*drop, *jail, *sandbox.limit_args(bounded), "/bin/sh", "-c", command]
                    cwd = Path("/")  # bwrap's own folder; the command's is the workdir
                else:
                    # RLIMIT_NPROC would count every process of the daemon's user here.
                    limit = sandbox.limit_args(bounded, processes=False)
                    argv = [*drop, *limit, "/bin/sh", "-c", command]
                    cwd = folder
                outcome = await sandbox.run(
                    argv,
                    time_limit=wait,
                    limits=bounded,
                    cwd=cwd,
                    cgroup=as_root,
                    pass_fds=fds,
                    stop_when=_past(quota, folder, start) if quota.limit else None,
                )
        finally:
            await _settle(folder, owner, "after")
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
        text = outcome.render(settings.max_output_chars)
        if looking:
            text = f"{READ_ONLY_NOTE}\n{text}"
        if not outcome.stopped and await anyio.to_thread.run_sync(quota.is_full, folder):
            text += "\n" + quota.full(quota.used_by(folder))
        return text

    registry.add(exec_command, name="exec", timeout=settings.max_timeout + _GRACE, kind=COMMAND)
