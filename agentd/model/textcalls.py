"""Tool calls that local models write as text instead of ``tool_calls``.

Two forms are recognised: ``<tool_call>{"name": ..., "arguments": ...}</tool_call>`` blocks (the
Qwen/Hermes template), and a whole reply that is one bare JSON object (or a list of them, or one
per line, optionally in a code fence) whose ``name`` is a registered tool. Anything else stays text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from agentd.messages import ToolCall

# The closing tag is optional at the very end: models often stop right after the JSON.
_BLOCK = re.compile(r"<tool_call>\s*(.*?)\s*(</tool_call>|\Z)", re.S)
_FENCE = re.compile(r"```[a-zA-Z]*[ \t]*\n?(.*?)\n?```", re.S)
# Other wrappers seen around a call: <tools>, <function_call>, <response>, <json>.
_WRAPPER = re.compile(r"^<(tools|function_call|tool|response|json)>\s*(.*?)\s*</\1>$", re.S)
_TAG = "<tool_call>"
# Where calls after prose begin: a line opening a ```json fence, an object or a wrapper tag.
_TRAILING = re.compile(r"(?m)^(?:```json|\{|<tools>|<tool>|<function_call>)")
# Mid-reply, text from one of these on is held back until the end decides what it is.
_MID_HOLDS = (_TAG, "\n```json", "\n{", "\n<tools>", "\n<function_call>")
_HOLD_PREFIXES = (
    "{",
    "[",
    "```",
    _TAG,
    "<tools>",
    "<tool>",
    "<function_call>",
    "<response>",
    "<json>",
)


def _as_call(obj: Any, new_id: Callable[[], str]) -> ToolCall | None:
    if not isinstance(obj, dict):
        return None
    # Keys as the model wrote them, stray blanks and all ({"name ": ...} was seen).
    obj = {k.strip() if isinstance(k, str) else k: v for k, v in obj.items()}
    if not isinstance(obj.get("name"), str):
        return None
    args = obj.get("arguments", obj.get("parameters", {}))
    if isinstance(args, str):
        text = args
    else:
        text = json.dumps(args if args is not None else {}, ensure_ascii=False)
    return ToolCall(id=new_id(), name=obj["name"], arguments=text)


def _unfenced(body: str) -> str:
    """What the code fences of ``body`` hold, one after the other, when ``body`` is nothing
    but fences (calls made together are often written one fence each); else ``body``."""
    if not body.startswith("```"):
        return body
    blocks = list(_FENCE.finditer(body))
    if not blocks or _FENCE.sub("", body).strip():
        return body
    return "\n".join(b.group(1).strip() for b in blocks)


def offered_name(name: str, names: frozenset[str]) -> str:
    """``name`` as offered: a dotted name (``math.factorial``) written for an offered name
    whose dots became underscores is that name."""
    if name in names:
        return name
    flat = re.sub(r"[^a-zA-Z0-9_-]", "_", name)
    return flat if flat in names else name


def _bare_objects(text: str) -> list[Any] | None:
    body = _unfenced(text.strip()).strip()
    wrapped = _WRAPPER.match(body)
    if wrapped:
        body = wrapped.group(2).strip()
    if not body or body[0] not in "{[":
        return None
    try:
        parsed = json.loads(body)
    except ValueError:
        parsed = None
        # Qwen2.5 sometimes copies its template's doubled braces: {{"name": ..., ...}}, with
        # as many closing braces as it likes.
        if body.startswith("{{"):
            try:
                parsed, end = json.JSONDecoder().raw_decode(body, 1)
            except ValueError:
                parsed = None
            else:
                parsed = parsed if not body[end:].strip().strip("}") else None
    if isinstance(parsed, dict):
        return [parsed]
    if isinstance(parsed, list):
        return parsed
    return _object_sequence(body)


def _object_sequence(body: str) -> list[Any] | None:
    """JSON values one after the other (one per line, or pretty-printed across lines)."""
    decoder = json.JSONDecoder()
    objects: list[Any] = []
    at = 0
    while at < len(body):
        try:
            obj, at = decoder.raw_decode(body, at)
        except ValueError as exc:
            if objects and body[at] == "{" and _cut_short(body, at, exc):
                break  # the last object ran into the token cap: the ones before it stand
            return None
        objects.append(obj)
        while at < len(body) and body[at].isspace():
            at += 1
    return objects or None


def _cut_short(body: str, at: int, exc: ValueError) -> bool:
    """Whether the JSON from ``at`` on fails only because the text ends inside it."""
    pos = getattr(exc, "pos", -1)
    if pos >= len(body) - 1:
        return True
    # A string cut mid-way is reported where the string starts ("Unterminated string").
    return "Unterminated string" in str(exc) and '"' not in body[pos + 1 :]


def parse_text_tool_calls(
    text: str, tool_names: Iterable[str], new_id: Callable[[], str]
) -> tuple[str, tuple[ToolCall, ...]]:
    """Split ``text`` into (remaining text, tool calls written in it)."""
    names = frozenset(tool_names)
    if not names or not text:
        return text, ()
    calls: list[ToolCall] = []
    if "<tool_call>" in text:
        rest: list[str] = []
        last = 0
        for match in _BLOCK.finditer(text):
            block, closed = match.group(1), bool(match.group(2))
            try:
                call = _as_call(json.loads(block), new_id)
            except ValueError:
                # Broken JSON in a closed block is still a tool call: the model gets the error
                # back. An unclosed tag with no JSON after it is just prose about the tag.
                call = ToolCall(new_id(), _guess_name(block), block) if closed else None
            if call is not None:
                calls.append(ToolCall(call.id, offered_name(call.name, names), call.arguments))
                rest.append(text[last : match.start()])
                last = match.end()
        if calls:
            rest.append(text[last:])
            return "".join(rest).strip(), tuple(calls)
    found = _known_calls(text, names, new_id)
    if found:
        return "", found
    # Prose, then the calls it announces on lines of their own ("I'll check:\n```json...").
    for match in _TRAILING.finditer(text):
        found = _known_calls(text[match.start() :], names, new_id)
        if found:
            return text[: match.start()].strip(), found
    return text, ()


def _known_calls(
    text: str, names: frozenset[str], new_id: Callable[[], str]
) -> tuple[ToolCall, ...]:
    """The calls ``text`` consists of, if it is nothing but calls to tools in ``names``."""
    objects = _bare_objects(text)
    if not objects:
        return ()
    found = [_as_call(obj, new_id) for obj in objects]
    calls = [
        ToolCall(c.id, offered_name(c.name, names), c.arguments) for c in found if c is not None
    ]
    if len(calls) == len(found) and all(c.name in names for c in calls):
        return tuple(calls)
    return ()


def _guess_name(block: str) -> str:
    match = re.search(r'"name"\s*:\s*"([^"]+)"', block)
    return match.group(1) if match else "unknown"


class TextToolCallFilter:
    """Streaming helper: passes text through, but holds back what may be a tool call written
    as text: a whole reply that starts like one, and anything from a ``<tool_call>`` tag or a
    line opening a ```json fence or an object on. Held text comes out of :meth:`flush` at the
    end (when it turned out not to be a call)."""

    __slots__ = ("_buffer", "_enabled", "_holding", "_started")

    def __init__(self, *, enabled: bool) -> None:
        self._enabled = enabled
        self._buffer: list[str] = []
        self._holding = False
        self._started = False

    def feed(self, text: str) -> str:
        if not self._enabled:
            return text
        self._buffer.append(text)
        pending = "".join(self._buffer)
        if not self._started or self._holding:
            head = pending.lstrip()
            if not head:
                return ""
            if any(p.startswith(head) or head.startswith(p) for p in _HOLD_PREFIXES):
                self._started = self._holding = True
                return ""
            self._started = True
            self._holding = False
        # Mid-reply, a call written after the prose is held from where it starts; a tail that
        # may be the start of such a marker waits for the next piece.
        hits = [at for at in (pending.find(m) for m in _MID_HOLDS) if at >= 0]
        if hits:
            at = min(hits)
            self._holding = True
            self._buffer = [pending[at:]]
            return pending[:at]
        keep = max(
            (n for m in _MID_HOLDS for n in range(len(m) - 1, 0, -1) if pending.endswith(m[:n])),
            default=0,
        )
        self._buffer = [pending[len(pending) - keep :]] if keep else []
        return pending[: len(pending) - keep]

    def flush(self) -> str:
        out = "".join(self._buffer)
        self._buffer.clear()
        return out
