"""Files agentd makes are its user's alone (0600 files, 0700 folders), whatever the umask.

The entry point sets :data:`UMASK` before anything is made; SQLite's own files are also
chmod-ed where they are opened, because SQLite gives a new ``-wal`` or ``-shm`` the mode of
the database file, which a start under another umask (or an older agentd) may have left open.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

#: No bit for the group or others on anything made.
UMASK = 0o077
_SQLITE_SUFFIXES = ("", "-wal", "-shm", "-journal")


def restrict_umask() -> int:
    """Set :data:`UMASK` for this process; returns the one before."""
    return os.umask(UMASK)


def private_dir(path: Path) -> None:
    """Make ``path`` (and missing parents) mode 0700; an existing folder is left as it is."""
    missing = []
    while not path.exists() and path.parent != path:
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made by another process meanwhile
            folder.mkdir(mode=0o700)


def private_sqlite(path: Path) -> None:
    """The database at ``path`` and its ``-wal``, ``-shm`` and ``-journal``: mode 0600 if open."""
    for suffix in _SQLITE_SUFFIXES:
        file = path.with_name(path.name + suffix)
        with contextlib.suppress(FileNotFoundError):
            mode = stat.S_IMODE(file.stat().st_mode)
            if mode & 0o077:
                file.chmod(mode & 0o700)


def open_to_others(path: Path) -> int:
    """The group and other bits of an existing ``path`` (0: private or missing)."""
    try:
        return stat.S_IMODE(path.stat().st_mode) & 0o077
    except OSError:
        return 0
