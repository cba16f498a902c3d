"""What one agent turn did, read from agentd's stored history, and the faults found in it.

Pure functions, no I/O: the agentic benchmark (``bench/agentic.py``) reads the history rows and
the answers, and these decide per turn:

- :func:`leaked_call`: the answer holds a tool call written as text (``<tool_call>``, a JSON
  object with ``"name"`` and ``"arguments"``, doubled braces ``{{"``, ``<function ...``,
  ``<tools>``, a fenced JSON object with a ``"name"``, ``tool_name(...)``);
- :func:`is_empty`: the answer has no letter or digit;
- :func:`claimed_action`: the answer says something was done (saved, written, created...);
  :func:`action_ran` says whether a tool that does things ran successfully in the turn;
- :func:`repeated_calls`: the calls repeating an earlier call of the turn (same tool, same
  arguments) that had not failed.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agentd.engine.loop import REPEATED

#: Tools that only look: a claim of having done something needs another tool to have run.
READ_ONLY_TOOLS = frozenset(
    {"current_time", "read_file", "list_dir", "memory_search", "list_tasks", "web_fetch"}
)
#: A memory tool's "cannot answer" is a normal result, but nothing was saved.
UNAVAILABLE = "memory unavailable"


@dataclass(frozen=True, slots=True)
class Call:
    """One tool call of a turn and what it returned."""

    name: str
    arguments: str
    result: str = ""
    failed: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "arguments": self.arguments,
            "result": self.result[:500],
            "failed": self.failed,
        }


def turn_calls(rows: Iterable[Mapping[str, Any]]) -> list[Call]:
    """The tool calls in the stored messages of one turn (decoded ``messages.body`` rows), in
    order, each with its result; a call without a stored result counts as failed."""
    asked: list[tuple[str, str, str]] = []
    results: dict[str, tuple[str, bool]] = {}
    for row in rows:
        if row.get("role") == "assistant":
            asked.extend(
                (str(c.get("id", "")), str(c.get("name", "")), str(c.get("arguments") or ""))
                for c in row.get("tool_calls") or ()
            )
        elif row.get("role") == "tool":
            content = str(row.get("content") or "")
            meta = row.get("metadata") or {}
            failed = bool(meta.get("error")) or content.startswith(UNAVAILABLE)
            results[str(row.get("tool_call_id"))] = (content, failed)
    calls = []
    for call_id, name, arguments in asked:
        content, failed = results.get(call_id, ("(no result stored)", True))
        calls.append(Call(name, arguments, content, failed))
    return calls


def is_empty(answer: str) -> bool:
    """No letter or digit in the answer."""
    return not any(ch.isalnum() for ch in answer)


_LEAKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("<tool_call>", re.compile(r"</?tool_call\b", re.I)),
    ("<tools>", re.compile(r"</?tools\s*>", re.I)),
    ("<function", re.compile(r"<function\b", re.I)),
    ('{{"', re.compile(r'\{\{\s*"')),
    ('"tool_calls"', re.compile(r'"tool_calls"\s*:')),
    ('"function": {', re.compile(r'"function"\s*:\s*\{')),
)
_NAME_KEY = re.compile(r'"name"\s*:\s*"')
_ARGS_KEY = re.compile(r'"(?:arguments|parameters)"\s*:')
_FENCE = re.compile(r"```[\w-]*\s*\n?(.*?)```", re.S)


def leaked_call(answer: str, tool_names: Iterable[str] = ()) -> str | None:
    """Which tool-call pattern the answer text holds, or None."""
    for label, pattern in _LEAKS:
        if pattern.search(answer):
            return label
    if _NAME_KEY.search(answer) and _ARGS_KEY.search(answer):
        return '"name" + "arguments"'
    for block in _FENCE.findall(answer):
        if block.lstrip().startswith(("{", "[")) and _NAME_KEY.search(block):
            return 'fenced {"name": ...}'
    for name in tool_names:
        if re.search(rf"\b{re.escape(name)}\s*\(", answer):
            return f"{name}(...)"
        if re.search(rf'"name"\s*:\s*"{re.escape(name)}"', answer):
            return f'"name": "{name}"'
    return None


_DONE = (
    r"saved|wrote|written|created|appended|stored|scheduled|reminded|updated|added|noted|"
    r"recorded|remembered|changed|modified|copied|replaced|overwritten"
)
_ADVERBS = r"just|now|also|already|successfully|then|again"
_NEGATION = re.compile(r"\b(?:not|never|unable|cannot)\b|n't")
_CLAIMS = (
    # "I saved", "I've now written", "I have just created", "we appended"
    re.compile(rf"\b(?:I|we)(?:'ve|\s+have|\s+had)?(?:\s+(?:{_ADVERBS}))*\s+(?:{_DONE})\b", re.I),
    # "hello.py has been created", "the note has now been saved"
    re.compile(rf"\b(?:has|have)(?:\s+\w+)?\s+been\s+(?:\w+\s+)?(?:{_DONE})\b", re.I),
    # "The note was saved to notes.txt.", "were successfully written."
    re.compile(
        rf"\b(?:was|were)\s+(?:\w+ly\s+)?(?:{_DONE})(?:\s+(?:to|in|into|as)\b|\s*[.!]|$)",
        re.I,
    ),
    # "is now saved", "are safely stored"
    re.compile(rf"\b(?:is|are)\s+(?:now|safely|successfully)\s+(?:{_DONE})\b", re.I),
    # "Saved!", "Done: ...", "Successfully created hello.txt", at the start of a sentence
    re.compile(rf"(?:^|[.!?]\s+|\n\s*)(?:done\b|successfully\s+\w+|(?:{_DONE})\b)", re.I),
)


def claimed_action(answer: str) -> str | None:
    """The phrase in which the answer says it did something (not negated), or None."""
    text = answer.replace("\u2019", "'")
    for pattern in _CLAIMS:
        for match in pattern.finditer(text):
            phrase = match.group(0).strip(" .!?\n")
            if not _NEGATION.search(phrase.lower()):
                return phrase
    return None


def action_ran(calls: Sequence[Call]) -> bool:
    """Whether a tool that changes something (not a read-only one) ran without failing."""
    return any(not c.failed and c.name not in READ_ONLY_TOOLS for c in calls)


def canonical_arguments(arguments: str) -> str:
    """The arguments as sorted, compact JSON (the raw text stripped when it is not JSON)."""
    try:
        return json.dumps(json.loads(arguments), sort_keys=True, separators=(",", ":"))
    except ValueError:
        return arguments.strip()


def repeated_calls(calls: Sequence[Call]) -> list[Call]:
    """The calls that repeat an earlier successful call of the turn with the same arguments
    and were run again (agentd answers a repeat with the earlier result: see
    :func:`stopped_repeats`)."""
    seen: set[tuple[str, str]] = set()
    repeats = []
    for call in calls:
        key = (call.name, canonical_arguments(call.arguments))
        if key in seen and not call.result.startswith(REPEATED):
            repeats.append(call)
        if not call.failed:
            seen.add(key)
    return repeats


def stopped_repeats(calls: Sequence[Call]) -> list[Call]:
    """The repeated calls the model asked for and agentd did not run again."""
    return [c for c in calls if c.result.startswith(REPEATED)]


def normalized(text: str) -> str:
    """Lower case, no accents, plain quotes and dashes, single spaces: for lenient matching."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    table = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
    text = text.translate(table).replace("\u2013", "-").replace("\u2014", "-")
    return " ".join(text.lower().split())


def mentions(text: str, needle: str) -> bool:
    """``needle`` occurs in ``text``, compared :func:`normalized`."""
    return normalized(needle) in normalized(text)
