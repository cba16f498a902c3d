"""What a command leaves in its workdir: mode 0700, no set-id bit, owned by whoever runs commands.

exec calls :func:`settle` before and after each command. The workdir's own mode is fixed at
0700 (a command could ``chmod 777 /workdir``, and another local user could then plant files
the agent reads); every set-user-id or set-group-id bit under it is removed (the sandbox's
seccomp filter refuses to set one, this is the second line); and, for a daemon running as root,
every entry is handed to the unprivileged user that runs commands (files the daemon's own file
tools wrote are root's until then). A bit or mode that is not as it should be is logged where
it is fixed (``exec.workdir_fixed``).

Nothing under the workdir is followed: each entry is opened with ``O_PATH | O_NOFOLLOW`` from
its folder's fd and changed through that fd, so a name swapped for a symlink between the look
and the change cannot send the change elsewhere. A regular file with another hard link keeps
its owner (one of its names may be outside the workdir).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

import structlog

from agentd.tools.seccomp import SET_ID

log = structlog.get_logger("agentd.tools.workdir_guard")

#: The workdir's own mode.
MODE = 0o700
#: Fixes logged one by one per call; past this, only their count.
_LOGGED = 20


@dataclass(frozen=True, slots=True)
class Owner:
    """Who runs commands, and so owns the workdir's entries."""

    uid: int
    gid: int


@dataclass(slots=True)
class Report:
    """What one :func:`settle` changed."""

    mode_fixed: bool = False
    set_id_removed: int = 0
    chowned: int = 0


def _fd_path(fd: int) -> str:
    return f"/proc/self/fd/{fd}"


def settle(workdir: Path, owner: Owner | None, *, when: str) -> Report:
    """Fix ``workdir`` as the module docstring says; ``when`` ("before"/"after") is logged."""
    report = Report()
    top = os.open(workdir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        st = os.fstat(top)
        if stat.S_IMODE(st.st_mode) != MODE:
            log.warning(
                "exec.workdir_fixed", when=when, path=".", mode=oct(stat.S_IMODE(st.st_mode))
            )
            os.fchmod(top, MODE)
            report.mode_fixed = True
        if owner is not None and (st.st_uid, st.st_gid) != (owner.uid, owner.gid):
            os.fchown(top, owner.uid, owner.gid)
        for folder, dirs, files, dir_fd in os.fwalk(top=".", dir_fd=top, follow_symlinks=False):
            for name in (*dirs, *files):
                _entry(dir_fd, folder, name, owner, report, when)
    finally:
        os.close(top)
    if report.set_id_removed > _LOGGED:
        log.warning("exec.workdir_fixed", when=when, set_id_removed=report.set_id_removed)
    return report


def _entry(
    dir_fd: int, folder: str, name: str, owner: Owner | None, report: Report, when: str
) -> None:
    try:
        fd = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    except FileNotFoundError:
        return  # gone since the folder was listed
    try:
        st = os.fstat(fd)
        if stat.S_ISLNK(st.st_mode):
            return
        mode = stat.S_IMODE(st.st_mode)
        if mode & SET_ID:
            report.set_id_removed += 1
            if report.set_id_removed <= _LOGGED:
                shown = os.path.normpath(os.path.join(folder, name))
                log.warning("exec.workdir_fixed", when=when, path=shown, mode=oct(mode))
            os.chmod(_fd_path(fd), mode & ~SET_ID)
        if owner is None or (st.st_uid, st.st_gid) == (owner.uid, owner.gid):
            return
        if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
            return
        os.chown(_fd_path(fd), owner.uid, owner.gid)
        report.chowned += 1
    finally:
        os.close(fd)
