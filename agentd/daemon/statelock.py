"""One daemon per state: an exclusive ``flock`` held for the daemon's whole life.

Two daemons on one history file serve the same sessions from two diverging in-memory contexts,
and every compaction of one fails against the rows the other appended. So ``agentd run`` locks
``state_dir/agentd.lock`` and ``<history file>.lock`` (the latter covers two configs that share
a history file from different state dirs) before it opens anything, and a second daemon stops
with :class:`~agentd.errors.StateLocked` naming the lock file and the holder's PID (exit 75).

With ``history.url`` (PostgreSQL) several daemons share the history: only the state directory
is locked then (:func:`lock_paths`), and sessions are serialised in PostgreSQL.

The history file itself is locked too (``flock`` on the database file, which SQLite's own
``fcntl`` locks do not touch): a lock file next to a path is keyed by the path, and a second
daemon whose ``history.db`` is a symlink or a hard link to the first's would get a lock file
of its own. The ``flock`` is on the inode, whatever name led to it; and a history file with
more than one hard link is refused outright (SQLite would keep a ``-wal`` per name).

The lock is the kernel's: it goes with the process, also after ``kill -9``, so a stale lock
file never blocks a restart (the file stays; only the lock on it matters). Lock files are
opened with ``O_NOFOLLOW``: a symlink planted in their place is refused, not followed. The tick
log is not locked: daemons that share only it claim each tick in SQLite (``cron_ticks``).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import ExitStack, asynccontextmanager, contextmanager
from pathlib import Path

from agentd.errors import ConfigError, StateLocked
from agentd.private import private_dir

#: ``EX_TEMPFAIL`` (sysexits.h): another daemon holds the state; trying later may work.
EX_TEMPFAIL = 75
LOCK_NAME = "agentd.lock"


def lock_paths(state_dir: Path, history_path: Path, *, shared: bool = False) -> list[Path]:
    """The lock files of a daemon's state, without duplicates.

    With a ``shared`` history (PostgreSQL), the history file is not the daemon's and is not
    locked: replicas serialise each session's turns in the database instead. The state
    directory stays locked (its token file, Milvus Lite, MCP state are one daemon's), so each
    replica has a state directory of its own (``agentd@.service`` gives one per instance).
    """
    paths = [state_dir / LOCK_NAME]
    if not shared:
        paths.append(history_path.with_name(history_path.name + ".lock"))
    unique: dict[Path, Path] = {}
    for path in paths:
        path = path.expanduser()
        unique.setdefault(path.parent.resolve() / path.name, path)
    return list(unique.values())


def state_dir_lock(state_dir: Path) -> list[Path]:
    """The state directory's lock alone: whoever holds it owns the state directory (its Milvus
    Lite store, its token), which is all a command on long-term memory needs to know."""
    return [state_dir.expanduser() / LOCK_NAME]


def held_by(state_dir: Path) -> StateLocked | None:
    """The :class:`StateLocked` a process holding ``state_dir``'s lock causes, or None.

    The lock is taken and released at once to learn this, so a daemon starting in that very
    instant is refused (exit 75) and started again by its supervisor. A command that then
    works on the state itself holds the lock instead (:func:`hold_state`).
    """
    try:
        with _locked(state_dir_lock(state_dir)[0]):
            return None
    except StateLocked as exc:
        return exc


def _holder(fd: int) -> int | None:
    try:
        return int(os.pread(fd, 32, 0).decode().strip())
    except (OSError, ValueError):
        return None


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    private_dir(path.parent)
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as exc:
        raise ConfigError(
            "state_dir",
            str(path),
            f"cannot open the lock file: {exc.strerror}; it must be a regular file "
            "(not a symlink) in a writable directory",
        ) from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StateLocked(str(path), _holder(fd)) from None
        # Only the holder writes its PID, so a refused daemon never overwrites it.
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        # Closing the descriptor releases the lock; the file stays for the next daemon.
        with contextlib.suppress(OSError):
            os.close(fd)


@contextmanager
def _locked_database(path: Path) -> Iterator[None]:
    """An exclusive ``flock`` on the database file itself (made empty if missing: SQLite
    takes an empty file as an empty database)."""
    path = path.expanduser()
    private_dir(path.parent)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise ConfigError(
            "history.path", str(path), f"cannot open the history file: {exc.strerror}"
        ) from exc
    # Held until the daemon ends, after SQLite has closed the file: closing another fd of the
    # file would drop SQLite's fcntl locks on it.
    try:
        links = os.fstat(fd).st_nlink
        if links > 1:
            raise ConfigError(
                "history.path",
                str(path),
                f"the history file has {links} hard links: another name may be another "
                "daemon's history; give this one a file of its own (cp it, then remove the link)",
            )
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StateLocked(str(path.resolve()), None) from None
        yield
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)


@asynccontextmanager
async def hold_state(paths: Iterable[Path], *, database: Path | None = None) -> AsyncIterator[None]:
    """Hold every lock in ``paths`` (and on the ``database`` file itself) until the block exits;
    raise StateLocked if one is taken.

    Asynchronous only to sit in the daemon's ``async with`` line: taking a lock never blocks.
    """
    with ExitStack() as stack:
        for path in paths:
            stack.enter_context(_locked(path))
        if database is not None:
            stack.enter_context(_locked_database(database))
        yield
