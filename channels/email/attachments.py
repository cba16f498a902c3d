"""Attachments saved into the tenant's workdir under names that cannot escape it.

The name a sender gives an attachment is hostile: it may hold ``../``, ``/``, NUL, control
characters, a leading dot or thousands of characters. :func:`safe_name` keeps the last path
component's letters, digits, ``.``, ``_`` and ``-`` (others become ``_``), never a leading dot,
at most 100 characters with the extension kept. Files are created with ``O_EXCL`` and
``O_NOFOLLOW`` relative to a folder opened without following symlinks
(:mod:`agentd.tools.workdir_fs`), mode 0600, in a folder of mode 0700; a name taken already
gets ``-1``, ``-2``..., unless that file holds the same bytes already (the same mail saved
again after a restart: its turn then reads the same text). An attachment over the size limit is
listed but not saved.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import structlog

from agentd.errors import ToolError
from agentd.tools import workdir_fs
from channels.email.mail import Attachment

log = structlog.get_logger("channels.email")

MAX_NAME = 100
_UNSAFE = re.compile(r"[^\w.-]+")
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


@dataclass(frozen=True, slots=True)
class Saved:
    """What became of one attachment: where it is in the workdir, or why it is not there."""

    name: str
    content_type: str
    size: int
    path: str | None
    reason: str = ""

    def describe(self) -> str:
        """One line for the model: the name, its type and size, and where to read it."""
        what = f"{self.name} ({self.content_type}, {self.size} bytes)"
        return f"{what}: saved as {self.path}" if self.path else f"{what}: not saved, {self.reason}"


def safe_name(given: str) -> str:
    """A file name made from the untrusted ``given`` one (see the module docstring)."""
    base = re.split(r"[/\\]", given.replace("\0", ""))[-1]
    base = unicodedata.normalize("NFKC", base)
    base = "".join(c for c in base if unicodedata.category(c)[0] != "C")
    base = _UNSAFE.sub("_", base).strip("._ ") or "attachment"
    if len(base) > MAX_NAME:
        stem, dot, ext = base.rpartition(".")
        ext = ext[:16] if dot and stem else ""
        base = base[: MAX_NAME - len(ext) - 1] + "." + ext if ext else base[:MAX_NAME]
    return base


def _write_new(dir_fd: int, name: str, data: bytes) -> str:
    """Create ``name`` (or ``name-1``...) in ``dir_fd`` holding ``data``; the name used."""
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        stem, ext = name, ""
    for n in range(1000):
        candidate = name if n == 0 else f"{stem}-{n}" + (f".{ext}" if ext else "")
        try:
            fd = os.open(candidate, _FLAGS, 0o600, dir_fd=dir_fd)
        except FileExistsError:
            if _holds(dir_fd, candidate, data):
                return candidate
            continue
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                continue  # a symlink by that name: never written through
            raise
        try:
            with open(fd, "wb") as fh:
                fh.write(data)
        except BaseException:
            os.unlink(candidate, dir_fd=dir_fd)
            raise
        return candidate
    raise FileExistsError(errno.EEXIST, "no free name", name)


def _holds(dir_fd: int, name: str, data: bytes) -> bool:
    """Whether ``name`` is a regular file holding exactly ``data`` (never through a symlink)."""
    try:
        fd = os.open(name, _READ, dir_fd=dir_fd)
    except OSError:
        return False
    with open(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
            return False
        return fh.read(len(data) + 1) == data


def save_attachments(
    attachments: Sequence[Attachment],
    workdir: Path,
    folder: str,
    *,
    prefix: str,
    max_bytes: int,
) -> list[Saved]:
    """Save ``attachments`` into ``workdir/folder`` (blocking); what became of each."""
    results: list[Saved] = []
    parts = folder.split("/")
    for item in attachments:
        name = safe_name(item.filename)
        size = len(item.data)
        if size > max_bytes:
            results.append(Saved(name, item.content_type, size, None, "over the size limit"))
            continue
        try:
            with workdir_fs.open_dir(workdir, parts, create=True, mode=0o700) as dir_fd:
                used = _write_new(dir_fd, f"{prefix}-{name}", item.data)
        except (OSError, ToolError) as exc:
            log.warning("email.attachment_unsaved", error=str(exc))
            results.append(Saved(name, item.content_type, size, None, "it could not be written"))
            continue
        results.append(Saved(name, item.content_type, size, f"{folder}/{used}"))
    return results
