"""Overwrites that drop most of a file are asked about once.

Asked to add a line to a file, the small local model often calls ``write_file`` with only the
new line, and the file's other lines are gone (four of the agentic suite's held-out appends in
one run). ``write_file`` is still how a whole file is replaced on purpose, so it is not
refused: when a write would keep fewer than half of the lines of a file of two or more, the
first call is answered with an error that lists what it drops and names ``append_file`` and
``edit_file``; the same call sent again (same tenant, path and content) goes through. Nothing
here reads the request's words: it compares the file with the new text.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

#: How the error for a write held back opens (the engine's ``overwrite`` rule knows it by this).
HELD_BACK = "not written: this would replace all of"
#: How the error for a write that would change nothing opens.
UNCHANGED = "not written: nothing would change:"
#: Writes asked about and not yet confirmed, at most (the oldest is forgotten first).
REMEMBERED = 256
#: Dropped lines quoted in the error.
QUOTED = 3


def unchanged(old: str | None, new: str) -> str | None:
    """The error for writing ``new`` over a file that holds ``old`` already (trailing newlines
    aside); None when the write changes something (or the file is missing: ``old`` None).

    A write that changes nothing is no action: asked to run a command on a file it had just
    read, or only to show one, the small local model wrote the file's own text back (every
    unasked write after a read in three runs of the agentic suite, five of five; no write
    the requests asked for did). Refused, the call reads as failed to the turn, which is then
    routed again, and nothing claims a change."""
    if old is None or old.rstrip("\n") != new.rstrip("\n"):
        return None
    return f"{UNCHANGED} the file already holds exactly this text; nothing was written"


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def dropped_lines(old: str, new: str) -> list[str] | None:
    """The lines of ``old`` that ``new`` drops, when it keeps fewer than half of two or more;
    None when the write keeps enough (or the file had fewer than two lines)."""
    before = _lines(old)
    if len(before) < 2:
        return None
    after = set(_lines(new))
    dropped = [line for line in before if line not in after]
    return dropped if len(before) - len(dropped) < len(before) / 2 else None


class Overwrites:
    """The overwrites asked about, so that the same call again goes through."""

    def __init__(self) -> None:
        self._asked: OrderedDict[tuple[str, str, str], None] = OrderedDict()

    def question(self, tenant: str, path: str, old: str, new: str) -> str | None:
        """The error for a first write of ``new`` over ``old`` that drops most of it; None
        when it keeps enough, or was asked about already (then it is confirmed)."""
        dropped = dropped_lines(old, new)
        if dropped is None:
            return None
        key = (tenant, path, hashlib.sha256(new.encode()).hexdigest())
        if key in self._asked:
            del self._asked[key]
            return None
        self._asked[key] = None
        while len(self._asked) > REMEMBERED:
            self._asked.popitem(last=False)
        quoted = "; ".join(repr(line) for line in dropped[:QUOTED])
        more = f" and {len(dropped) - QUOTED} more" if len(dropped) > QUOTED else ""
        return (
            f"{HELD_BACK} {path} and drop {len(dropped)} of its "
            f"{len(_lines(old))} lines ({quoted}{more}). To add lines, use append_file; to "
            "change one piece, edit_file; to replace the whole file anyway, send this same "
            "write_file call again"
        )
