"""Tool calls sent back to the model as the text it wrote them in.

A local model under agentd's grammar writes its calls as text (a ```` ```json ```` fence of
indented JSON, mostly); :mod:`agentd.model.textcalls` turns that text into ``tool_calls``. Sent
back as ``tool_calls``, the server's template renders them in its own form (``<tool_call>`` and
compact JSON), which differs from the tokens the model generated: the server's prompt cache
then ends where the call began, and the next step evaluates the call again (~40-70 tokens,
about a second a tool step on two cores). Sent back as the text the model wrote, the next
step's prompt starts with exactly the tokens the server already holds.

The text is kept in the message's metadata with the calls it said; it stands for the message
only while the calls are still those (a call dropped or shortened since is sent as
``tool_calls``), and only to a server whose calls are text under agentd's grammar: an
OpenAI-style server needs the ``tool_calls`` before its tool results.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agentd.messages import Message, ToolCall

#: The metadata key of the text a message's calls were written in.
WRITTEN = "written"


def _said(calls: Sequence[ToolCall]) -> list[list[str]]:
    return [[call.name, call.arguments] for call in calls]


def keep(message: Message, text: str) -> Message:
    """``message`` (its calls parsed from ``text``) marked with the text they were written in."""
    if message.tool_calls:
        message.metadata[WRITTEN] = {"text": text, "calls": _said(message.tool_calls)}
    return message


def written(message: Message) -> str | None:
    """The text ``message``'s calls were written in, if they are still the calls it said."""
    held = message.metadata.get(WRITTEN) if message.metadata else None
    if not isinstance(held, dict) or not message.tool_calls:
        return None
    text = held.get("text")
    if not isinstance(text, str) or held.get("calls") != _said(message.tool_calls):
        return None
    return text


def to_wire(messages: Sequence[Message], *, as_written: bool) -> list[dict[str, Any]]:
    """``messages`` as a chat request sends them; with ``as_written``, calls the model wrote
    as text go as that text."""
    if not as_written:
        return [m.to_openai() for m in messages]
    out: list[dict[str, Any]] = []
    for message in messages:
        text = written(message)
        out.append(message.to_openai() if text is None else {"role": "assistant", "content": text})
    return out
