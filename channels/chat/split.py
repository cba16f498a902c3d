"""Splitting a long reply into messages: at paragraph ends, then lines, then words.

A code fence cut in two is closed at the end of one part and reopened in the next, so each
message renders on its own. Lengths are counted in UTF-16 code units, as Telegram counts them;
a part is never longer in characters either (Matrix's limit).
"""

from __future__ import annotations

import re

_FENCE_LINE = re.compile(r"^\s*```")


def utf16_len(text: str) -> int:
    """Length as Telegram counts it."""
    return len(text.encode("utf-16-le")) // 2


def _prefix_within(text: str, limit: int) -> int:
    """The largest index ``i`` with ``utf16_len(text[:i]) <= limit``."""
    i = min(len(text), limit)
    while i > 0 and utf16_len(text[:i]) > limit:
        i -= max(1, (utf16_len(text[:i]) - limit) // 2)
    return i


def _cut(text: str, limit: int, keep: int) -> int:
    """Where to cut ``text`` (longer than ``limit``): a paragraph, a line, a space, or hard.

    The cut is after the first ``keep`` characters (a reopened fence), so every part progresses.
    """
    end = max(_prefix_within(text, limit), keep + 1)
    window = text[:end]
    floor = max(end // 4, keep)
    for sep in ("\n\n", "\n", " "):
        at = window.rfind(sep)
        if at > floor:
            return at
    return max(end, 1)


def split_text(text: str, limit: int) -> list[str]:
    """Split ``text`` into parts of at most ``limit`` UTF-16 units, preferring paragraph ends.

    A code fence open at a cut is closed at the end of the part and reopened in the next one.
    """
    limit = max(limit, 32)
    parts: list[str] = []
    rest = text.strip("\n")
    reopen = ""
    while rest:
        rest = reopen + rest
        if utf16_len(rest) <= limit:
            parts.append(rest)
            break
        at = _cut(rest, limit, len(reopen))
        fence = _open_fence(rest[:at])
        if fence is not None:  # leave room to close the fence
            at = _cut(rest, limit - 4, len(reopen))
            fence = _open_fence(rest[:at])
        head, rest = rest[:at].rstrip(), rest[at:].lstrip("\n")
        if rest.startswith(" "):
            rest = rest[1:]
        if fence is not None:
            head += "\n```"
            reopen = fence + "\n"
        else:
            reopen = ""
        parts.append(head)
    return [p for p in parts if p.strip()]


def _open_fence(text: str) -> str | None:
    """The opening fence line when ``text`` ends inside a code block, else None."""
    opening: str | None = None
    for line in text.split("\n"):
        if _FENCE_LINE.match(line):
            opening = None if opening is not None else line.strip()
    return opening
