"""Cutting a tool result to a size, with a line that says what was left out and where it is."""

from __future__ import annotations

__all__ = ["cut_to_fit", "more_marker"]


def more_marker(count: int, hint: str = "") -> str:
    """``[... 12,345 more characters; <hint>]``: the line that ends a shortened text."""
    return f"[... {count:,} more characters{'; ' + hint if hint else ''}]"


def cut_to_fit(text: str, max_chars: int, *, hint: str) -> str:
    """``text`` if it has at most ``max_chars`` characters, else its start and a marker line.

    The marker (:func:`more_marker`) says how many characters were dropped, then ``hint``,
    which should say where the rest is (e.g. "call read_file with offset=N to read on"). The
    cut falls on a line end when one is near, and the result, marker included, never has more
    than ``max_chars`` characters (with less room than the marker needs, the marker is cut).
    """
    if len(text) <= max_chars:
        return text
    max_chars = max(0, max_chars)
    # Room for the longest marker this cut can need: dropping everything.
    room = max_chars - len("\n" + more_marker(len(text), hint))
    if room <= 0:
        return more_marker(len(text), hint)[:max_chars]
    keep = room
    line_end = text.rfind("\n", 0, keep)
    if line_end >= keep // 2:
        keep = line_end
    return text[:keep] + "\n" + more_marker(len(text) - keep, hint)
