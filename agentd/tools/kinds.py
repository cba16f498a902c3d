"""What a tool works on: the kinds of action a request can ask for.

The built-in tools that act say what they change: files (``write_file``, ``append_file``,
``edit_file``), long-term memory (``memory_save``, ``memory_forget``), scheduled tasks
(``schedule_task``, ``cancel_task``) or a command (``exec``); the tools that look at the same
things say it too (``read_file``, ``memory_search``, ``list_tasks``). The turn's intent question
(:mod:`agentd.engine.guards.intent`) offers words for the kinds of the turn's acting tools, so
the model, asked about the request alone, names what the request changes ("remember that ..."
is memory, in any language) and the first step offers only those tools. A tool of no kind (an
MCP server's) is always offered with the others that act.
"""

from __future__ import annotations

from collections.abc import Mapping

FILE, MEMORY, SCHEDULE, COMMAND = "file", "memory", "schedule", "command"
#: ``exec``'s kind has no word of its own: a command is asked for with ``action`` (every tool).
#: Named "run", the word drew requests to show a command without running it, summaries and
#: edits of a file, and ``exec`` ran them (``rm``, ``sed -i``).
#: Each kind with the word the model names it by (a verb: asked with nouns, the model named
#: "file" for "What files are in your workdir?") and what that word means, in the order the
#: question lists them. These are the options of the intent question's grammar and their
#: meanings as its prompt states them to the model: the model answers with one of them,
#: whatever the request's language; no request's words are ever matched against them.
KINDS: tuple[tuple[str, str, str], ...] = (
    (FILE, "write", "a file written, created, edited, added to or deleted"),
    (MEMORY, "remember", "a fact or preference saved to memory for later, or a memory forgotten"),
    (SCHEDULE, "schedule", "a reminder or repeating job scheduled, or one cancelled"),
)
#: The kind each word names.
KIND_OF_WORD = {word: kind for kind, word, _ in KINDS}
#: The word of each kind.
WORD_OF_KIND = {kind: word for kind, word, _ in KINDS}


def acting_kinds(acting: frozenset[str], kinds: Mapping[str, str]) -> tuple[str, ...]:
    """The kinds of the ``acting`` tools, in :data:`KINDS` order."""
    present = {kinds.get(name, "") for name in acting}
    return tuple(kind for kind, _, _ in KINDS if kind in present)


def of_kind(kind: str, names: frozenset[str], kinds: Mapping[str, str]) -> frozenset[str]:
    """The tools among ``names`` of ``kind``, and those of no kind (they may do anything)."""
    return frozenset(n for n in names if kinds.get(n, "") in (kind, ""))
