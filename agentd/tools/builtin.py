"""Built-in tools: the current time, and file access confined to the workdir."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import TextIO
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import anyio

from agentd.errors import ToolError
from agentd.tools.fit import more_marker
from agentd.tools.registry import ToolRegistry

MAX_READ = 64 * 1024  # characters one read_file call returns at most
READ_CHUNK = 1024 * 1024  # characters decoded at a time while skipping or counting
MAX_WRITE = 1024 * 1024
MAX_ENTRIES = 500


def confine(workdir: Path, relative: str) -> Path:
    """``relative`` inside ``workdir``; refuses absolute paths, ``..`` and symlink escapes."""
    if not relative or relative.strip() in ("", "."):
        return workdir.resolve()
    candidate = Path(relative)
    if candidate.is_absolute() or relative.startswith("~"):
        raise ToolError(f"{relative!r} is absolute: paths are relative to the workdir")
    if ".." in candidate.parts:
        raise ToolError(f"{relative!r} contains '..': paths must stay inside the workdir")
    root = workdir.resolve()
    resolved = (root / candidate).resolve()
    if resolved != root and not resolved.is_relative_to(root):
        raise ToolError(f"{relative!r} leaves the workdir (through a symlink)")
    return resolved


def register_builtin_tools(registry: ToolRegistry, workdir: Path) -> None:
    """Add ``current_time``, ``read_file``, ``write_file``, ``append_file`` and ``list_dir``."""

    async def current_time(timezone: str = "UTC") -> str:
        """Get the current date and time.

        Args:
            timezone: IANA timezone name, e.g. "Europe/Berlin". Defaults to UTC.
        """
        try:
            zone = ZoneInfo(timezone)
        except (ZoneInfoNotFoundError, ValueError):
            raise ToolError(f"unknown timezone {timezone!r}") from None
        now = dt.datetime.now(zone)
        return now.strftime("%Y-%m-%d %H:%M:%S %Z (%A)")

    async def read_file(path: str, offset: int = 0, length: int = MAX_READ) -> str:
        """Read a text file from the workdir, or a part of a long one.

        Offset and length count characters. When the file goes on past the part returned, the
        answer ends with a line saying how many characters are left and the offset to read on.

        Args:
            path: File path relative to the workdir.
            offset: The character to start at; 0 is the start of the file.
            length: The most characters to return (at most 65536).
        """
        return await anyio.to_thread.run_sync(_read_file, workdir, path, offset, length)

    async def write_file(path: str, content: str) -> str:
        """Write a text file in the workdir, creating folders as needed; replaces the whole file
        (to add lines to a file, use append_file).

        Args:
            path: File path relative to the workdir.
            content: The full new content of the file.
        """
        return await anyio.to_thread.run_sync(_write_file, workdir, path, content)

    async def append_file(path: str, text: str) -> str:
        """Add text at the end of a file in the workdir (on a new line); creates the file if
        it does not exist. What the file held stays.

        Args:
            path: File path relative to the workdir.
            text: The lines to add.
        """
        return await anyio.to_thread.run_sync(_append_file, workdir, path, text)

    async def list_dir(path: str = ".") -> str:
        """List the entries of a folder in the workdir (folders end with /).

        Args:
            path: Folder path relative to the workdir; "." is the workdir itself.
        """
        return await anyio.to_thread.run_sync(_list_dir, workdir, path)

    for fn in (current_time, read_file, write_file, append_file, list_dir):
        registry.add(fn)


def _read_file(workdir: Path, path: str, offset: int = 0, length: int = MAX_READ) -> str:
    if offset < 0:
        raise ToolError("offset must be 0 or more")
    if length < 1:
        raise ToolError("length must be 1 or more")
    target = confine(workdir, path)
    if not target.is_file():
        raise ToolError(f"no file {path!r} in the workdir")
    # newline="" keeps every character, so offsets mean the same in every call.
    with target.open("r", encoding="utf-8", errors="replace", newline="") as fh:
        skipped = _count(fh, offset)
        text = fh.read(min(length, MAX_READ))
        rest = _count(fh)
    if offset and not text:
        raise ToolError(f"offset {offset} is past the end: {path!r} has {skipped:,} characters")
    if rest:
        hint = f"call read_file with offset={offset + len(text)} to read on"
        text += "\n" + more_marker(rest, hint)
    return text


def _count(fh: TextIO, limit: int | None = None) -> int:
    """Read past up to ``limit`` characters (all when None), a chunk at a time; how many."""
    done = 0
    while limit is None or done < limit:
        chunk = fh.read(READ_CHUNK if limit is None else min(READ_CHUNK, limit - done))
        if not chunk:
            break
        done += len(chunk)
    return done


def _write_file(workdir: Path, path: str, content: str) -> str:
    if len(content.encode()) > MAX_WRITE:
        raise ToolError(f"content is larger than {MAX_WRITE} bytes")
    target = confine(workdir, path)
    if target == workdir.resolve() or target.is_dir():
        raise ToolError(f"{path!r} is a directory")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp{os.getpid()}")
    tmp.write_text(content, encoding="utf-8")
    tmp.replace(target)
    return f"wrote {len(content)} characters to {path}"


def _append_file(workdir: Path, path: str, text: str) -> str:
    target = confine(workdir, path)
    if target == workdir.resolve() or target.is_dir():
        raise ToolError(f"{path!r} is a directory")
    old = target.read_text(encoding="utf-8") if target.is_file() else ""
    sep = "\n" if old and not old.endswith("\n") else ""
    new = old + sep + text + ("" if text.endswith("\n") else "\n")
    if len(new.encode()) > MAX_WRITE:
        raise ToolError(f"the file would be larger than {MAX_WRITE} bytes")
    _write_file(workdir, path, new)
    return f"appended {len(text)} characters to {path}"


def _list_dir(workdir: Path, path: str) -> str:
    target = confine(workdir, path)
    if not target.is_dir():
        raise ToolError(f"no folder {path!r} in the workdir")
    entries = sorted(entry.name + ("/" if entry.is_dir() else "") for entry in target.iterdir())
    if not entries:
        return "(empty)"
    more = len(entries) - MAX_ENTRIES
    return "\n".join(entries[:MAX_ENTRIES]) + (f"\n[... {more} more]" if more > 0 else "")
