"""What a model did with one item, and the lenient read of calls it wrote as text.

llama-server's own parser takes a call only in the chat template's form; the packaged
Qwen2.5-Coder models mostly write theirs as bare or fenced JSON objects (``{"name": ...,
"arguments": ...}``), which it leaves as text. :func:`lenient` reads such text with agentd's own
parser (:mod:`agentd.model.textcalls`, the fallback agentd's model client applies), so that the
direct mode is not scored on a format the model was never held to.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agentd.model.textcalls import parse_text_tool_calls
from bench.bfcl.scorer import RawCall


@dataclass(slots=True)
class Answer:
    """What the model did with one item: its calls, its text, how long it took."""

    calls: list[RawCall]
    content: str
    seconds: float
    finish_reason: str | None = None
    #: The request itself failed (an HTTP error of the server): no answer at all.
    failure: str | None = None


def lenient(answer: Answer, tools: Sequence[dict[str, Any]]) -> Answer:
    """``answer``, or when it has no calls but its text holds calls of ``tools``, an answer
    with those calls (and the text around them as its content)."""
    if answer.calls or answer.failure or not answer.content:
        return answer
    names = [str(t["function"]["name"]) for t in tools]
    counter = itertools.count()
    rest, calls = parse_text_tool_calls(answer.content, names, lambda: f"text_{next(counter)}")
    if not calls:
        return answer
    read = [(c.name, c.arguments) for c in calls]
    return dataclasses.replace(answer, calls=read, content=rest)
