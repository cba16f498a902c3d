"""Claimed actions: an answer that says something was done when no tool did it.

A small model that has read a file or the time often ends there and answers as if it had also
done the rest: "The theme has been changed to dark." after ``read_file`` alone, "The date
written to today.txt is ..." after ``current_time`` alone (the agentic suite, ``bench/agentic.py``,
counts these as false claims). :func:`unbacked_claim` finds such an answer: it says, in the
past tense, that something was saved, written, changed...; the turn's request or the answer
names something a tool acts on (a file, memory, a reminder); and no tool that acts ran
successfully in the turn. The agent loop then asks once more, with a call required.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agentd.messages import Message

#: Built-in tools that only look: a claim of having done something needs another one to have
#: run. A tool not listed (an MCP server's, exec) counts as acting.
LOOKING = frozenset(
    {"current_time", "read_file", "list_dir", "memory_search", "list_tasks", "web_fetch"}
)

_DONE = (
    "saved|wrote|written|created|appended|stored|scheduled|updated|added|changed|copied|"
    "replaced|edited|modified|recorded|remembered"
)
_CLAIM = re.compile(
    rf"\b(?:I(?:'ve|\s+have)?(?:\s+(?:now|just|also|successfully))?|(?:has|have)\s+been"
    rf"|(?:was|were)(?:\s+successfully)?|(?:is|are)\s+now)\s+(?:{_DONE})\b"
    # "Met Bruno about the roof is added as the last line of journal.txt." (after read_file)
    rf"|\b(?:is|are)\s+(?:{_DONE})\s+(?:to|as|in|into)\b",
    re.I,
)
#: What a tool acts on: a file name (a dot and an extension), or these words.
_OBJECT = re.compile(r"\b\w[\w-]*\.[A-Za-z]{1,5}\b|\b(?:file|memory|remind\w*|task|note)s?\b", re.I)


def claims_action(answer: str) -> bool:
    """Whether ``answer`` says that something was done (saved, written, changed...)."""
    return _CLAIM.search(answer.replace("\u2019", "'")) is not None


def acted(added: Sequence[Message]) -> bool:
    """Whether a tool that acts (not one of :data:`LOOKING`) ran without an error among the
    turn's ``added`` messages."""
    return any(
        m.role == "tool" and not m.metadata.get("error") and m.name not in LOOKING for m in added
    )


def unbacked_claim(request: str, answer: str, added: Sequence[Message]) -> bool:
    """The answer claims an action on a file, memory or a reminder that no tool of the turn
    performed."""
    if not claims_action(answer) or acted(added):
        return False
    return _OBJECT.search(request) is not None or _OBJECT.search(answer) is not None
