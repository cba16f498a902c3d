"""A tenant's workdir has a size bound (``tools.workdir_quota_mb``): its files, added up.

The file tools check before they write: a write that would take the workdir past its quota
is refused with a message saying how full it is and what to do. ``exec`` cannot be asked
beforehand, so it is bounded three ways: no file a command writes may be larger than what
is left (``RLIMIT_FSIZE``; nothing at all once the workdir is full, though removing files
still works), the workdir is measured every quarter second while the command runs and the
command is killed when it took the workdir past the quota (a command that writes fast can
pass it by what it writes in that time; every later write is then refused), and the result
says so. The measure is the apparent size of the
regular files under the workdir (symlinks are not followed); ``0`` turns the quota off.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from agentd.errors import ToolError

MIB = 1024 * 1024


def used(workdir: Path) -> int:
    """Bytes in the regular files under ``workdir`` (nothing followed)."""
    total = 0
    for folder, _, files in os.walk(workdir, followlinks=False):
        for name in files:
            try:
                st = os.lstat(os.path.join(folder, name))
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                total += st.st_size
    return total


def _size(workdir: Path, parts: Sequence[str]) -> int:
    try:
        st = os.lstat(workdir.joinpath(*parts))
    except OSError:
        return 0
    return st.st_size if stat.S_ISREG(st.st_mode) else 0


@dataclass(frozen=True, slots=True)
class WorkdirQuota:
    """The bound on one workdir, in bytes (0: none)."""

    limit: int

    @classmethod
    def of_mb(cls, mb: int) -> WorkdirQuota:
        return cls(mb * MIB)

    def used_by(self, workdir: Path) -> int:
        """Bytes ``workdir`` holds now (see :func:`used`)."""
        return used(workdir)

    def is_full(self, workdir: Path) -> bool:
        """Whether the workdir has reached its quota (nothing more may be written)."""
        return bool(self.limit) and used(workdir) >= self.limit

    def check_write(self, workdir: Path, parts: Sequence[str], size: int) -> None:
        """Refuse (ToolError) writing ``size`` bytes at ``parts`` when it would pass the quota."""
        if not self.limit:
            return
        now = used(workdir)
        after = now - _size(workdir, parts) + size
        if after > self.limit:
            raise ToolError(self.full(now, need=after - self.limit))

    def full(self, now: int, *, need: int = 0) -> str:
        """What the model reads when the workdir is (or would be) past its quota."""
        more = f"; this write needs {need:,} bytes more than is left" if need else ""
        return (
            f"the workdir is full: {now / MIB:.1f} MiB of its {self.limit / MIB:g} MiB quota "
            f"(tools.workdir_quota_mb) are used{more}. Remove files that are no longer needed "
            "(exec rm works when full), or tell the user the workdir is full"
        )


#: No bound on a workdir's size.
NO_QUOTA = WorkdirQuota(0)
