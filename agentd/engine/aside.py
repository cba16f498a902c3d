"""Answers that go back to an earlier question of the session instead of the turn's own.

After its tool ran, a small model sometimes answers an earlier question again: "The capital of
France is Paris." to "And what weekday is it now in New York?" right after ``current_time``
returned Wednesday, when the session had opened with "What is the capital of France? One
word." (the 1.5B's most likely answer at temperature 0, one in four at 0.8), and to "Please
remember for the future: my favourite tea is sencha." after ``memory_save`` ran.
:func:`answers_earlier` finds such an answer: none of its telling words is in the turn (the
request, the calls' arguments, their results) and some are in the session's earlier messages.
The agent loop then asks once more with the turn alone in view (the earlier turns left out of
that one call): replayed 20 times, that answered the weekday each time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from agentd.memory.recall import words
from agentd.messages import Message


def _said(messages: Iterable[Message]) -> frozenset[str]:
    """The telling words of ``messages``: their text and their calls' arguments."""
    parts: list[str] = []
    for m in messages:
        parts.append(m.content)
        parts.extend(f"{c.name} {c.arguments}" for c in m.tool_calls)
    return words("\n".join(parts))


def answers_earlier(answer: str, earlier: Sequence[Message], turn: Sequence[Message]) -> bool:
    """Whether ``answer`` shares no telling word with ``turn`` (the request and what its tools
    did) and some with ``earlier`` (the session's messages before the request; system
    messages do not count). An answer of no telling word ("OK.") is never one."""
    said = words(answer)
    if not said or said & _said(turn):
        return False
    return bool(said & _said(m for m in earlier if m.role != "system"))
