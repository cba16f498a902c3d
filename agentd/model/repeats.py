"""A call written a second time in one step ends the step.

A small model under agentd's grammar sometimes writes the same call again and again in one
reply (the same ``read_file`` six times, up to the grammar's bound of calls: ~270 tokens,
15-20 s on two cores). For a tool that only looks (reads a file, lists tasks), a second
identical call in the same step can only repeat the first one's result. :class:`RepeatWatch`
reads the reply's text as it streams; when a call of such a tool is complete and equal to an
earlier one of the reply, the client stops the stream there (the server stops generating when
the connection closes) and the step keeps the text up to the end of the last distinct call.
Calls of tools that act are never cut: appending the same line twice is two appends.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from agentd.messages import ToolCall
from agentd.model.textcalls import parse_text_tool_calls

# What ends a call written as text: a fence, a tag or an object closing.
_FENCE, _TAG_END = "```", "</tool_call>"
_CLOSERS = frozenset("`>}")


def _ends(text: str) -> list[int]:
    """Where calls in ``text`` may end, last first: after its last closing fence (every second
    one), its last closing tag, and its last closing brace outside a fence (a call inside an
    open fence ends with the fence)."""
    fences = [i for i in range(len(text)) if text.startswith(_FENCE, i)]
    ends = {text.rfind(_TAG_END) + len(_TAG_END)}
    if len(fences) % 2 == 0:
        ends.add(text.rfind("}") + 1)
    closing = fences[1::2]
    if closing:
        ends.add(closing[-1] + len(_FENCE))
    return sorted((end for end in ends if end > 0), reverse=True)


def _same(call: ToolCall) -> tuple[str, str]:
    """A call's name and arguments, the arguments' JSON compared by value."""
    try:
        args = json.dumps(json.loads(call.arguments), sort_keys=True)
    except ValueError:
        args = call.arguments
    return call.name, args


class RepeatWatch:
    """Fed a streamed reply's text piece by piece, says when a call of one of ``once`` (tools
    that only look) is written a second time; :attr:`kept` is then the text before it."""

    __slots__ = ("_names", "_new_id", "_once", "_seen", "_text", "kept")

    def __init__(
        self, names: frozenset[str], once: frozenset[str], new_id: Callable[[], str]
    ) -> None:
        self._names = names
        self._once = once
        self._new_id = new_id
        self._text: list[str] = []
        self._seen = 0
        #: The reply's text up to the end of its last distinct call (when :meth:`feed` said so).
        self.kept = ""

    def feed(self, text: str) -> bool:
        """Add ``text``; True when the reply so far repeats a looking call (cut it here)."""
        self._text.append(text)
        if not _CLOSERS.intersection(text):
            return False
        so_far = "".join(self._text)
        for end in _ends(so_far):
            _, calls = parse_text_tool_calls(so_far[:end], self._names, self._new_id)
            if len(calls) > self._seen:
                return self._repeats(calls, so_far[:end])
        return False

    def _repeats(self, calls: tuple[ToolCall, ...], text: str) -> bool:
        earlier = {_same(call) for call in calls[: self._seen]}
        for call in calls[self._seen :]:
            if call.name in self._once and _same(call) in earlier:
                return True
            earlier.add(_same(call))
        self._seen = len(calls)
        self.kept = text
        return False
