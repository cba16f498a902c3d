"""A held call started for the model: the text every reply of the step must begin with, sent as
the start of the assistant's reply, so that the model server reads it as prompt instead of
the model writing it a token at a time.

A step held to one tool under agentd's grammar can only open with that tool's name and the
arguments held to one value (``"path": "notes.txt"`` for a file the request names): some 15-30
tokens the model writes at ~60-80 ms each on two cores, and the server reads at ~25-35 ms each
with the rest of the prompt. :func:`agentd.model.grammar.held_call_start` lays the start out in
the form the model writes its next call in (:func:`form_of`) and builds the grammar of the
rest; the client sends it and checks the reply. llama-server continues a last assistant
message (its default; not with ``--no-prefill-assistant``) and sends it back first in the
reply. A reply that does not begin with its start is not trusted (the server may have taken
the start as a message said and written a new one under the rest's grammar), nor is a start
refused (llama-server refuses one when the template thinks first): the step is asked again
without it, and no later step is started (a warning says so).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import structlog

from agentd.messages import Message
from agentd.model.choice import CallRule
from agentd.model.grammar import BARE, CALL_OPEN, FENCED, TAGGED, CallForm, held_call_start
from agentd.model.written import written

log = structlog.get_logger("agentd.model.started")

#: Starts kept (one per held tool, form and call limit; all dropped when that many are kept).
KEPT = 32


def form_of(messages: Sequence[Message]) -> CallForm:
    """The form the model writes its next call in: the form of the conversation's last call
    (the model follows it: after a call sent as ``tool_calls``, which the template writes as
    ``<tool_call>`` and JSON on one line, it wrote a bare object on one line), a fence with
    the object a key a line when there was none (the first call of a turn, mostly)."""
    for message in reversed(messages):
        if message.role == "assistant" and message.tool_calls:
            return _form_written(written(message) or "")
    return FENCED


def _form_written(text: str) -> CallForm:
    """The form of a call written as ``text``: what comes before its object (prose may come
    first), and whether the object breaks its line after the brace."""
    head, _, body = text.partition("{")
    form = FENCED if "```" in head else TAGGED if CALL_OPEN in head else BARE
    return dataclasses.replace(form, pretty=body.startswith("\n"))


@dataclass(frozen=True, slots=True)
class Start:
    """``text``: what the reply begins with; ``grammar``: the grammar of the rest of it."""

    text: str
    grammar: str

    def message(self) -> dict[str, Any]:
        """The wire message that starts the reply."""
        return {"role": "assistant", "content": self.text}


@dataclass(slots=True)
class Starts:
    """The starts of held calls a client sends, while the server continues them."""

    on: bool = True
    _kept: dict[str, Start] = field(default_factory=dict)

    def for_step(
        self, tools: Sequence[dict[str, Any]], rule: CallRule, messages: Sequence[Message]
    ) -> Start | None:
        """The start of a step on ``messages`` offered ``tools`` (narrowed by ``rule``), when
        ``rule`` holds it to one tool; None otherwise."""
        if not self.on or rule.name is None or len(tools) != 1:
            return None
        form = form_of(messages)
        key = json.dumps([tools[0], rule.single, dataclasses.astuple(form)], sort_keys=True)
        start = self._kept.get(key)
        if start is None:
            if len(self._kept) >= KEPT:
                self._kept.clear()
            text, grammar = held_call_start(tools[0], single=rule.single, form=form)
            start = self._kept[key] = Start(text, grammar)
        return start

    def off(self, reason: str) -> None:
        """No step is started from now on (a started step failed for ``reason``)."""
        if self.on:
            self.on = False
            log.warning("llm.start_not_continued", reason=reason)


@dataclass(slots=True)
class Continued:
    """The text deltas of a started reply: what the server sends first is held until it is
    known whether it is the start sent back (``known``); when it is not, nothing more is
    passed on (the step is asked again)."""

    start: Start
    known: bool | None = None
    _held: str = ""

    def feed(self, text: str) -> str:
        if self.known is not None:
            return text if self.known else ""
        self._held += text
        if self.start.text.startswith(self._held):
            return ""  # so far, the start sent back
        self.known = self._held.startswith(self.start.text)
        held, self._held = self._held, ""
        return held if self.known else ""

    def flush(self) -> str:
        """What is still held at the end of the stream (the start alone, sent back)."""
        if self.known is None:
            self.known = self._held.startswith(self.start.text)
            return self._held if self.known else ""
        return ""
