"""Built-in tools: the current time, and file access confined to the workdir.

The file tools reach the workdir only through :mod:`agentd.tools.workdir_fs` (directory fds,
no symlinks, no hard links); the instruction files are read-only to them by default. With a
resolver instead of one folder, each call works in the workdir of the current scope's tenant
(looked up at call time; no scope, no files).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TextIO

import anyio

from agentd import scope as scopes
from agentd.errors import ToolError
from agentd.tools import workdir_fs
from agentd.tools.edit import edit_file as _edit_file
from agentd.tools.fit import more_marker
from agentd.tools.kinds import FILE
from agentd.tools.overwrite import Overwrites, unchanged
from agentd.tools.quota import NO_QUOTA, WorkdirQuota
from agentd.tools.registry import ToolRegistry
from agentd.zones import find_zone

#: Names of a folder shown when a file in it is missing.
NEARBY = 20
#: The fewest characters a read returns (unless the file ends first).
MIN_READ = 1000
MAX_READ = 64 * 1024  # characters one read_file call returns at most
READ_CHUNK = 1024 * 1024  # characters decoded at a time while skipping or counting
MAX_WRITE = 1024 * 1024
MAX_ENTRIES = 500
#: The workdir's instruction files: read-only to the agent unless the operator allows writing.
INSTRUCTION_FILES = (Path("AGENTS.md"), Path("HEARTBEAT.md"))
#: A tenant's workdir by tenant name (made if missing).
WorkdirFor = Callable[[str], Path]


def register_builtin_tools(
    registry: ToolRegistry,
    workdir: Path | WorkdirFor,
    read_only: Iterable[Path] = INSTRUCTION_FILES,
    quota: WorkdirQuota = NO_QUOTA,
) -> None:
    """Add ``current_time``, ``read_file``, ``write_file``, ``append_file``, ``edit_file`` and
    ``list_dir``.

    ``workdir`` is one folder for every caller, or a resolver called with the tenant of the
    current scope at each call. ``read_only`` are files (relative to the workdir, or absolute)
    the agent may read but not write, nor create anything under: its instruction files,
    unless the operator allows it. Relative ones apply in every tenant's workdir. A write
    that would take a workdir past ``quota`` is refused (:mod:`agentd.tools.quota`).
    """
    files = tuple(read_only)
    # append_file reads and replaces: two appends at once (two sessions of one tenant) would
    # each write what they read, and one line would be lost.
    appending = threading.Lock()
    overwrites = Overwrites()
    per_tenant = not isinstance(workdir, Path)
    resolve: WorkdirFor = workdir if not isinstance(workdir, Path) else lambda _: workdir

    def tenant() -> str:
        # Read in the turn's task, where its scope is set; no scope fails closed.
        return scopes.current().tenant if per_tenant else ""

    def writable(tenant: str, path: str) -> tuple[Path, str]:
        folder = resolve(tenant)
        return folder, _Protected(folder, files).check(path)

    async def current_time(timezone: str = "UTC") -> str:
        """The current date and time.

        Args:
            timezone: IANA name.
        """
        zone = find_zone(timezone)
        if zone is None:
            raise ToolError(
                f"unknown timezone {timezone!r}: use an IANA name like 'Asia/Tokyo' or 'UTC'"
            )
        # The weekday first, as the prompt's date line has it: after "2026-12-04 00:43:55 JST
        # (Friday)" the model answered "Thursday, 2026-12-04", the prompt's UTC weekday.
        now = dt.datetime.now(zone)
        return now.strftime("%A, %Y-%m-%d %H:%M:%S %Z") + f" ({zone.key})"

    async def read_file(path: str, offset: int = 0, length: int = MAX_READ) -> str:
        """Read a text file; offset and length count characters. A long one comes in parts:
        the last line gives the offset to read on."""
        return await anyio.to_thread.run_sync(
            lambda who: _read_file(resolve(who), path, offset, length), tenant()
        )

    async def write_file(path: str, content: str) -> str:
        """Write a text file, replacing all of it (to add lines: append_file)."""

        def write(who: str) -> str:
            folder, checked = writable(who, path)
            with appending:
                _may_replace(folder, checked, content, overwrites.question, who)
                return _write_file(folder, checked, content, quota)

        return await anyio.to_thread.run_sync(write, tenant())

    async def append_file(path: str, text: str) -> str:
        """Add lines at the end of a file (made if missing); its text stays."""

        def append(who: str) -> str:
            with appending:
                return _append_file(*writable(who, path), text, quota)

        return await anyio.to_thread.run_sync(append, tenant())

    async def edit_file(path: str, old: str, new: str) -> str:
        """Change a file: replace one exact piece of its text, found once (copy it from
        read_file); the rest stays."""

        def edit(who: str) -> str:
            with appending:  # it reads and replaces, like append_file
                return _edit_file(*writable(who, path), old, new, quota)

        return await anyio.to_thread.run_sync(edit, tenant())

    async def list_dir(path: str = ".") -> str:
        """List a folder (subfolders end with /).

        Args:
            path: "." is the workdir.
        """
        return await anyio.to_thread.run_sync(lambda who: _list_dir(resolve(who), path), tenant())

    looking = (current_time, read_file, list_dir)
    for fn in (current_time, read_file, write_file, append_file, edit_file, list_dir):
        registry.add(fn, looks=fn in looking, kind="" if fn is current_time else FILE)


class _Protected:
    """The instruction files the agent may not write."""

    __slots__ = ("_files",)

    def __init__(self, workdir: Path, files: Iterable[Path]) -> None:
        self._files = [p for f in files if (p := workdir_fs.inside(workdir, f.expanduser()))]

    def check(self, path: str) -> str:
        """``path`` if the agent may write it; a ToolError if it is or is under one of them."""
        parts = workdir_fs.split(path)
        for file in self._files:
            if parts[: len(file)] == file:
                what = "is" if parts == file else f"is under {'/'.join(file)!r},"
                raise ToolError(
                    f"{path!r} {what} a read-only instruction file: the agent may not change "
                    "its own instructions; ask the user to edit it"
                )
        return path


def _read_file(workdir: Path, path: str, offset: int = 0, length: int = MAX_READ) -> str:
    if offset < 0:
        raise ToolError("offset must be 0 or more")
    # A small model asks for length 1 meaning "the first line" and gets one character, or for
    # length 0, gets an error and asks again the same way: a read is never shorter than
    # MIN_READ (the agentic suite's first_line case).
    length = max(length, MIN_READ)
    try:
        with workdir_fs.open_file(workdir, workdir_fs.split(path)) as fd:
            # newline="" keeps every character, so offsets mean the same in every call.
            with open(fd, encoding="utf-8", errors="replace", newline="", closefd=False) as fh:
                skipped = _count(fh, offset)
                text = fh.read(min(length, MAX_READ))
                rest = _count(fh)
    except (FileNotFoundError, NotADirectoryError):
        raise ToolError(f"no file {path!r} in the workdir{_nearby(workdir, path)}") from None
    if offset and not text:
        raise ToolError(f"offset {offset} is past the end: {path!r} has {skipped:,} characters")
    if rest:
        hint = f"call read_file with offset={offset + len(text)} to read on"
        text += "\n" + more_marker(rest, hint)
    return text


def _nearby(workdir: Path, path: str) -> str:
    """What the folder of a missing file holds, for the error (a small model guesses a file's
    name, "notes/readme.md" for notes/reminder.txt, and then its content): "" if none."""
    parts = workdir_fs.split(path)[:-1]
    try:
        names = sorted(workdir_fs.list_names(workdir, parts))
    except (OSError, ToolError):
        return ""
    if not names:
        return ""
    folder = "/".join(parts) + "/" if parts else "the workdir"
    shown = ", ".join(names[:NEARBY])
    return f"; {folder} holds: {shown}" + (" ..." if len(names) > NEARBY else "")


def _count(fh: TextIO, limit: int | None = None) -> int:
    """Read past up to ``limit`` characters (all when None), a chunk at a time; how many."""
    done = 0
    while limit is None or done < limit:
        chunk = fh.read(READ_CHUNK if limit is None else min(READ_CHUNK, limit - done))
        if not chunk:
            break
        done += len(chunk)
    return done


def _may_replace(
    workdir: Path,
    path: str,
    content: str,
    question: Callable[[str, str, str, str], str | None],
    who: str,
) -> None:
    """Raise the ToolError of a write of ``content`` that would change nothing, or that
    drops most of the file and was not asked about yet (:mod:`agentd.tools.overwrite`)."""
    old = _old_text(workdir, path)
    refused = unchanged(old, content) or question(who, path, old or "", content)
    if refused is not None:
        raise ToolError(refused)


def _old_text(workdir: Path, path: str) -> str | None:
    """A file's text before it is replaced (None when missing, "" when too large)."""
    try:
        with workdir_fs.open_file(workdir, workdir_fs.split(path)) as fd:
            with open(fd, "rb", closefd=False) as fh:
                data = fh.read(MAX_WRITE + 1)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    if len(data) > MAX_WRITE:
        return ""
    return data.decode("utf-8", errors="replace")


def _write_file(workdir: Path, path: str, content: str, quota: WorkdirQuota) -> str:
    data = content.encode()
    if len(data) > MAX_WRITE:
        raise ToolError(f"content is larger than {MAX_WRITE} bytes")
    parts = workdir_fs.split(path)
    quota.check_write(workdir, parts, len(data))
    workdir_fs.replace_file(workdir, parts, data)
    return f"wrote {len(content)} characters to {path}"


def _append_file(workdir: Path, path: str, text: str, quota: WorkdirQuota) -> str:
    parts = workdir_fs.split(path)
    try:
        with workdir_fs.open_file(workdir, parts) as fd, open(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_WRITE + 1)
    except (FileNotFoundError, NotADirectoryError):
        data = b""
    if len(data) > MAX_WRITE:
        raise ToolError(f"the file would be larger than {MAX_WRITE} bytes")
    try:
        old = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ToolError(f"{path!r} is not UTF-8 text: append_file cannot add to it") from None
    sep = "\n" if old and not old.endswith("\n") else ""
    new = old + sep + text + ("" if text.endswith("\n") else "\n")
    if len(new.encode()) > MAX_WRITE:
        raise ToolError(f"the file would be larger than {MAX_WRITE} bytes")
    quota.check_write(workdir, parts, len(new.encode()))
    workdir_fs.replace_file(workdir, parts, new.encode())
    return f"appended {len(text)} characters to {path}"


def _list_dir(workdir: Path, path: str) -> str:
    parts = workdir_fs.split(path)
    try:
        entries = sorted(workdir_fs.list_names(workdir, parts))
    except (FileNotFoundError, NotADirectoryError):
        if parts and _is_file(workdir, parts):
            # Like `ls FILE`: the file is named (a small model lists a file it means to read).
            return f"{'/'.join(parts)}\n(a file, not a folder: read_file shows its text)"
        raise ToolError(f"no folder {path!r} in the workdir") from None
    if not entries:
        return "(empty)"
    more = len(entries) - MAX_ENTRIES
    return "\n".join(entries[:MAX_ENTRIES]) + (f"\n[... {more} more]" if more > 0 else "")


def _is_file(workdir: Path, parts: Sequence[str]) -> bool:
    """Whether ``parts`` names a file (not a folder) in its folder of the workdir."""
    try:
        return parts[-1] in workdir_fs.list_names(workdir, parts[:-1])
    except (FileNotFoundError, NotADirectoryError):
        return False
