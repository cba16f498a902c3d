"""Who runs exec's commands: never root on the host.

A daemon running as root runs each command as ``tools.exec.user`` (a name or a number; the
install makes ``agentd-exec``), dropping to it with ``setpriv`` before bubblewrap starts; when
that user does not exist, as ``nobody`` (with a warning: ``nobody`` is shared with other
services). A daemon running as any other user runs commands as itself (bubblewrap maps the
sandbox's user to it), and needs no setting.
"""

from __future__ import annotations

import os
import pwd
import shutil
from pathlib import Path

import structlog

from agentd.errors import ToolError
from agentd.tools.workdir_guard import Owner

log = structlog.get_logger("agentd.tools.exec_user")

#: Where a root daemon's workdir is bound for bwrap to find it (see :func:`drop_args`).
STAGED = "/tmp"
_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"
_STAGE = f'mount --bind "$1" {STAGED} || exit 125; shift; exec "$@"'
#: The user of last resort (its conventional number where the name is missing too).
NOBODY = "nobody"
_NOBODY_ID = 65534


def _lookup(name: str) -> Owner | None:
    try:
        entry = pwd.getpwuid(int(name)) if name.isdigit() else pwd.getpwnam(name)
    except (KeyError, OverflowError):
        return Owner(int(name), int(name)) if name.isdigit() else None
    return Owner(entry.pw_uid, entry.pw_gid)


def command_owner(name: str, *, euid: int | None = None) -> Owner | None:
    """The user commands run as, or None when the daemon is not root (they run as it)."""
    if (os.geteuid() if euid is None else euid) != 0:
        return None
    owner = _lookup(name)
    if owner is None:
        log.warning(
            "exec.user_missing",
            user=name,
            hint=f"commands run as {NOBODY!r}; create a dedicated user (useradd --system "
            f"--no-create-home {name}) or set tools.exec.user",
        )
        owner = _lookup(NOBODY) or Owner(_NOBODY_ID, _NOBODY_ID)
    if owner.uid == 0 or owner.gid == 0:
        raise ToolError(
            f"exec is unavailable: tools.exec.user {name!r} is root; ask the operator to "
            "set an unprivileged user"
        )
    return owner


def _tool(name: str) -> str:
    return shutil.which(name, path=_PATH) or f"/usr/bin/{name}"


def drop_args(owner: Owner, workdir: Path | None) -> list[str]:
    """What runs first, then ``--``: it shows ``workdir`` at :data:`STAGED` and becomes ``owner``.

    bubblewrap resolves the folders it binds as the user it runs as, and the path to a root
    daemon's workdir (``/root/.agentd/...``) is closed to ``owner``. So, still as root, in a
    mount namespace of its own (private: nothing is seen outside it), the workdir is bound
    over :data:`STAGED`; then ``setpriv`` becomes ``owner`` and runs bwrap, which binds
    :data:`STAGED` (a fresh /tmp replaces it inside the sandbox). Without ``workdir`` (no
    sandbox) only ``setpriv`` runs.
    """
    stage = [
        _tool("unshare"),
        "--mount",
        "--propagation",
        "private",
        "--",
        "/bin/sh",
        "-c",
        _STAGE,
        "sh",
        str(workdir),
    ]
    return [
        *(stage if workdir is not None else []),
        _tool("setpriv"),
        f"--reuid={owner.uid}",
        f"--regid={owner.gid}",
        "--clear-groups",
        "--",
    ]
