"""The workdir's files through directory fds: paths that cannot be raced out of the workdir.

Every path is walked one component at a time from an fd of the workdir, each folder opened
with ``O_NOFOLLOW | O_DIRECTORY`` relative to the one before (``openat``). A symlink anywhere
in a path is refused, not followed, so swapping a folder or file for a symlink between a
check and an open leads nowhere: there is no check apart from the open. Regular files with
more than one hard link are refused too (one of their names may be outside the workdir).
Writes go to a new file made with ``O_CREAT | O_EXCL | O_NOFOLLOW`` under a random name in the
already-open folder, then renamed over the target with both directory fds, which replaces the
target's name and never writes through it.

What is missing raises :class:`FileNotFoundError` (a caller decides whether that is fine); a
path or file these rules refuse raises :class:`~agentd.errors.ToolError` with a message for
the model.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path, PurePosixPath

from agentd.errors import ToolError

Parts = tuple[str, ...]

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO must not hang the tool; it is refused after fstat anyway.
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NOCTTY | os.O_NONBLOCK
_NEW_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def split(path: str) -> Parts:
    """The components of ``path`` relative to the workdir; ``()`` is the workdir itself.

    Refuses absolute and home paths, ``..`` and NUL bytes; ``.`` and empty components drop.
    Blanks around the path go (a model writes " drafts/ideas.md" and means the folder
    ``drafts``), so a name that starts or ends with a blank cannot be named.
    """
    path = path.strip()
    if "\0" in path:
        raise ToolError(f"{path!r} contains a NUL byte")
    if path.startswith(("/", "~")):
        raise ToolError(f"{path!r} is absolute: paths are relative to the workdir")
    parts = PurePosixPath(path).parts if path else ()
    if ".." in parts:
        raise ToolError(f"{path!r} contains '..': paths must stay inside the workdir")
    return tuple(parts)


def inside(workdir: Path, path: Path) -> Parts | None:
    """``path`` (absolute, or relative to the workdir) as components, or None if outside.

    ``..`` is taken lexically. The first folder on the way down that is the workdir (by name,
    or the same inode under another name) starts the components, so nothing under the
    workdir is resolved: a symlink there stays a component for the walker to refuse.
    """
    full = Path(os.path.normpath(workdir / path))
    named = Path(os.path.normpath(workdir))
    try:
        real = os.stat(workdir)
    except OSError:
        real = None
    for base in (*reversed(full.parents), full):
        if base == named or (real is not None and _same(base, real)):
            return split(str(full.relative_to(base)))
    return None


def _same(path: Path, st: os.stat_result) -> bool:
    try:
        other = os.stat(path)
    except OSError:
        return False
    return (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino)


def _symlink_refused(shown: str, name: str) -> ToolError:
    where = "" if shown == name else f" (at {name!r})"
    return ToolError(
        f"{shown!r} is or goes through a symlink{where}: the file tools never follow "
        "symlinks; use the real path inside the workdir"
    )


def _is_symlink(dir_fd: int, name: str) -> bool:
    # Only to word the error: the open that failed already refused the symlink.
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _open_child_dir(dir_fd: int, name: str, shown: str, *, create: bool, mode: int = 0o777) -> int:
    for _ in range(2):
        try:
            return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
        except FileNotFoundError:
            if not create:
                raise
            with suppress(FileExistsError):  # made meanwhile: the next open decides what it is
                os.mkdir(name, mode, dir_fd=dir_fd)
        except OSError as exc:
            if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
                raise
            if _is_symlink(dir_fd, name):
                raise _symlink_refused(shown, name) from None
            if create:
                raise ToolError(f"{shown!r}: {name!r} is a file, not a folder") from None
            raise NotADirectoryError(errno.ENOTDIR, "not a folder", shown) from None
    raise ToolError(f"{shown!r}: {name!r} keeps changing; try again")


@contextmanager
def open_dir(
    workdir: Path, parts: Sequence[str], *, create: bool = False, mode: int = 0o777
) -> Iterator[int]:
    """An fd of the folder ``parts`` inside ``workdir``, closed on exit.

    With ``create``, missing folders (the workdir too) are made, those under the workdir with
    ``mode`` (less the umask). The workdir itself may be a symlink (the operator chose it);
    nothing under it may be.
    """
    shown = "/".join(parts) or "."
    if create:
        workdir.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        fd = os.open(workdir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        stack.callback(os.close, fd)
        for name in parts:
            fd = _open_child_dir(fd, name, shown, create=create, mode=mode)
            stack.callback(os.close, fd)
        yield fd


def _check_regular(st: os.stat_result, shown: str) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise ToolError(f"{shown!r} is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise ToolError(f"{shown!r} is not a regular file")
    if st.st_nlink > 1:
        raise ToolError(
            f"{shown!r} has {st.st_nlink} hard links: the file tools refuse hard-linked files "
            "(another name of it may be outside the workdir)"
        )


@contextmanager
def open_file(workdir: Path, parts: Sequence[str]) -> Iterator[int]:
    """A read-only fd of the regular, singly linked file ``parts``, closed on exit."""
    shown = "/".join(parts)
    if not parts:
        raise ToolError("'.' is a directory")
    with open_dir(workdir, parts[:-1]) as dir_fd:
        try:
            fd = os.open(parts[-1], _READ_FLAGS, dir_fd=dir_fd)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise _symlink_refused(shown, parts[-1]) from None
            raise
        try:
            _check_regular(os.fstat(fd), shown)
            os.set_blocking(fd, True)
            yield fd
        finally:
            os.close(fd)


def read_text(workdir: Path, parts: Sequence[str]) -> str | None:
    """The UTF-8 text of a workdir file, or None when it (or its folder) does not exist."""
    try:
        with open_file(workdir, parts) as fd, open(fd, "rb", closefd=False) as fh:
            data = fh.read()
    except (FileNotFoundError, NotADirectoryError):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ToolError(f"{'/'.join(parts)!r} is not UTF-8 text ({exc.reason})") from None


def replace_file(workdir: Path, parts: Sequence[str], data: bytes) -> None:
    """Make ``parts`` hold ``data``: a new file renamed over it; missing folders are made."""
    shown = "/".join(parts)
    if not parts:
        raise ToolError("'.' is a directory")
    name = parts[-1]
    with open_dir(workdir, parts[:-1], create=True) as dir_fd:
        try:
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            pass
        else:
            # The rename below replaces a name and never writes through it, so this check
            # being raceable lets nothing out; it says why a link or folder is not replaced.
            if stat.S_ISLNK(st.st_mode):
                raise _symlink_refused(shown, name)
            _check_regular(st, shown)
        tmp = f".{name[:64]}.tmp{secrets.token_hex(8)}"
        fd = os.open(tmp, _NEW_FLAGS, 0o666, dir_fd=dir_fd)
        try:
            with open(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except IsADirectoryError:
            _discard(dir_fd, tmp)
            raise ToolError(f"{shown!r} is a directory") from None
        except BaseException:
            _discard(dir_fd, tmp)
            raise


def _discard(dir_fd: int, name: str) -> None:
    with suppress(OSError):
        os.unlink(name, dir_fd=dir_fd)


def list_names(workdir: Path, parts: Sequence[str]) -> list[str]:
    """The entries of the folder ``parts``, folders marked with a trailing ``/``.

    A symlink is listed by its name and never marked as a folder: it is not followed.
    """
    with open_dir(workdir, parts) as dir_fd, os.scandir(dir_fd) as entries:
        return [e.name + ("/" if e.is_dir(follow_symlinks=False) else "") for e in entries]
