"""Files a message names: the workdir's files that a request mentions by path.

"Copy source.txt into backup.txt", "What is the timeout in app.conf?", "In settings.ini,
change the theme": a small model asked to do these in one step wrote the copy without reading
the file (``"The contents of source.txt."``), answered a made-up value, explained ``sed``. The
agent loop has it read the files such a request names first (see ``AgentLoop``'s
``mentioned``); this module finds them.

A candidate is a word with a ``/`` or a dot followed by a letter or digit, trimmed of quotes
and punctuation. It counts only when it is a regular file in the workdir, reached the way the
file tools reach it (:mod:`agentd.tools.workdir_fs`: no ``..``, no absolute paths, no symlinks),
so what a message names can never lead outside the workdir.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio

from agentd import scope as scopes
from agentd.errors import ToolError
from agentd.tools import workdir_fs

#: At most this many files are named back (the first ones, in the message's order).
MAX_FILES = 4
#: Words looked at, at most (a pasted log names many "paths").
MAX_CANDIDATES = 32
#: ``workdir_files`` lists at most this many files, in folders at most this deep.
MAX_LISTED = 64
MAX_DEPTH = 3

_WORD = re.compile(r"[\w./\-]+")
_PATHLIKE = re.compile(r"(?:/|\.[A-Za-z0-9])")
#: A file name's extension, with a letter ("3.14" and "v1.2" are numbers, not files).
_EXTENSION = re.compile(r"\.[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*$")


def candidates(text: str) -> list[str]:
    """The words of ``text`` that look like relative paths, each once, in order."""
    seen: dict[str, None] = {}
    for match in _WORD.finditer(text):
        start, end = match.span()
        if text[end : end + 3] == "://" or text[max(0, start - 3) : start] == "://":
            continue  # a URL's scheme or host
        # "app.conf." ends a sentence; "./notes.md" is "notes.md"; "notes.mdを要約して" is
        # "notes.md" (a script without spaces runs on after the name)
        word = _cut_after_extension(match.group(0)).removeprefix("./").rstrip(".-")
        if _PATHLIKE.search(word) and not word.startswith("/"):
            seen.setdefault(word, None)
        if len(seen) >= MAX_CANDIDATES:
            break
    return list(seen)


#: An ASCII extension followed by a character no ASCII name has: the name ends there.
_RUNS_ON = re.compile(r"^(.*?\.[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*)(?=[^\x00-\x7f])")


def _cut_after_extension(word: str) -> str:
    """``word`` up to the end of its first extension when a non-ASCII character follows it
    ("メモ.txtを読んで" names "メモ.txt"); else as it is."""
    match = _RUNS_ON.match(word)
    return match.group(1) if match else word


def named_paths(text: str) -> list[str]:
    """The file paths ``text`` names, whether or not the files exist yet: candidates whose
    last part has an extension, inside the workdir by ``workdir_fs.split``'s rules (no
    ``..``, not absolute) and plain, at most ``MAX_FILES``. No file is looked at."""
    found: list[str] = []
    for word in candidates(text):
        try:
            parts = workdir_fs.split(word)
        except ToolError:
            continue
        path = "/".join(parts)
        if parts and _EXTENSION.search(parts[-1]) and _plain(path) and path not in found:
            found.append(path)
        if len(found) >= MAX_FILES:
            break
    return found


def _plain(path: str) -> bool:
    """Whether ``path`` can go into a grammar: UTF-8 (a name of raw bytes comes back with
    lone surrogates) and no control characters. The model can make such names (write_file),
    and a grammar llama-server refuses turns grammars off for every turn after it."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return not any(ord(c) < 0x20 or ord(c) == 0x7F for c in path)


def _is_file(workdir: Path, path: str) -> bool:
    try:
        parts = workdir_fs.split(path)
        with workdir_fs.open_file(workdir, parts):
            return True
    except (ToolError, OSError):
        return False


def mentioned_files(workdir: Path, text: str) -> list[str]:
    """The workdir's regular files that ``text`` names by path, at most ``MAX_FILES``."""
    found: list[str] = []
    for path in candidates(text):
        if _is_file(workdir, path):
            found.append(path)
            if len(found) >= MAX_FILES:
                break
    return found


def workdir_files(workdir: Path) -> list[str] | None:
    """The workdir's files (not symlinks; at most ``MAX_DEPTH`` folders down; names that are
    not plain UTF-8 text left out), sorted; None when there are more than ``MAX_LISTED`` or it
    cannot be read."""
    found: list[str] = []
    pending: list[tuple[str, ...]] = [()]
    try:
        while pending:
            parts = pending.pop()
            for name in workdir_fs.list_names(workdir, parts):
                if name.endswith("/"):
                    if len(parts) < MAX_DEPTH:
                        pending.append((*parts, name[:-1]))
                    continue
                path = "/".join((*parts, name))
                if _plain(path) and _is_file(workdir, path):
                    found.append(path)
                    if len(found) > MAX_LISTED:
                        return None
    except (ToolError, OSError):
        return None
    return sorted(found)


def workdir_mentions(workdir_for: Callable[[str], Path]) -> Callable[[str], Awaitable[list[str]]]:
    """``mentioned_files`` in the workdir of the current scope's tenant (``workdir_for`` maps
    a tenant to its folder, as for the file tools), off the event loop."""

    async def mentioned(text: str) -> list[str]:
        workdir = workdir_for(scopes.current().tenant)
        return await anyio.to_thread.run_sync(mentioned_files, workdir, text)

    return mentioned


def workdir_listing(
    workdir_for: Callable[[str], Path],
) -> Callable[[], Awaitable[list[str] | None]]:
    """``workdir_files`` of the current scope's tenant, off the event loop."""

    async def listing() -> list[str] | None:
        workdir = workdir_for(scopes.current().tenant)
        return await anyio.to_thread.run_sync(workdir_files, workdir)

    return listing
