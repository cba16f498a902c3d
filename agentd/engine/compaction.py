"""Compaction after each successful turn: ``truncate`` (the window only) or ``summarize``.

A summary replaces the older messages of a session (after its system message) by one assistant
message; the newest :data:`KEEP_LAST` (widened back to a whole tool exchange) follow it. The
parts (:func:`cut_for`, :func:`write_summary`, :func:`applied`) let the runtime write the
summary in the background and apply it later to a conversation that has grown meanwhile
(:mod:`agentd.engine.summaries`); :func:`summarize_compaction` runs them in one go.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import structlog

from agentd.messages import Conversation, Message, assistant, system, user

log = structlog.get_logger("agentd.engine.compaction")

KEEP_LAST = 10
SUMMARY_PREFIX = "Summary of the earlier conversation:\n"
SUMMARIZER_PROMPT = (
    "You write summaries of conversations between a user and an assistant. Keep every fact, "
    "decision, name, number and open task the assistant will need later; drop small talk. "
    "Answer with the summary only, as short bullet points."
)

#: Runs a non-streaming, tool-less turn on a synthetic conversation and returns its text.
Summarize = Callable[[Conversation], Awaitable[str]]
#: Persists a summary and the messages it is followed by (the tail kept after it).
SaveSummary = Callable[[Message, Sequence[Message]], Awaitable[None]]


def estimate_tokens(messages: Sequence[Message]) -> int:
    """The seed's estimate: ``len(content) // 4`` per message."""
    return sum(len(m.content) // 4 for m in messages)


def is_summary(message: Message) -> bool:
    return message.role == "assistant" and bool(message.metadata.get("summary"))


def split_for_summary(
    messages: list[Message],
) -> tuple[list[Message], list[Message], list[Message]]:
    """(system, middle, tail): the tail is the last KEEP_LAST messages, widened backwards so
    that it never starts inside a tool exchange."""
    head = messages[:1] if messages and messages[0].role == "system" else []
    rest = messages[len(head) :]
    start = max(0, len(rest) - KEEP_LAST)
    while start > 0 and rest[start].role == "tool":
        start -= 1
    return head, rest[:start], rest[start:]


def _transcript(messages: Sequence[Message]) -> str:
    lines = []
    for m in messages:
        if m.role == "tool":
            lines.append(f"[tool {m.name} result]: {m.content}")
        elif m.tool_calls:
            calls = ", ".join(f"{c.name}({c.arguments})" for c in m.tool_calls)
            lines.append(f"assistant (calls {calls}): {m.content}".rstrip(": "))
        else:
            lines.append(f"{m.role}: {m.content}")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Cut:
    """Where a summary goes: it replaces ``middle`` (everything between the system message and
    ``first``), and ``first`` and whatever follows it stay as they are."""

    middle: list[Message]
    first: Message


def cut_for(messages: Sequence[Message], threshold: int) -> Cut | None:
    """Where to cut ``messages`` for a summary, or None when they are within ``threshold`` (a
    token estimate) or too few to summarise."""
    if estimate_tokens(messages) <= threshold:
        return None
    _, middle, tail = split_for_summary(list(messages))
    if not middle or not tail:
        return None
    return Cut(middle, tail[0])


async def write_summary(
    middle: Sequence[Message], summarize: Summarize, max_transcript_chars: int | None = None
) -> Message:
    """The summary message of ``middle``; raises when the model gives no summary."""
    transcript = _transcript(middle)
    if max_transcript_chars is not None and len(transcript) > max_transcript_chars:
        # The summary call has to fit the model's context too: its oldest part goes first.
        dropped = len(transcript) - max_transcript_chars
        transcript = f"[{dropped} earlier characters left out]\n" + transcript[dropped:]
    synthetic = Conversation(
        [system(SUMMARIZER_PROMPT), user("Summarize this conversation:\n\n" + transcript)]
    )
    text = (await summarize(synthetic)).strip()
    if not text:
        raise ValueError("the model returned an empty summary")
    summary = assistant(SUMMARY_PREFIX + text)
    summary.metadata["summary"] = True
    return summary


def applied(messages: Sequence[Message], summary: Message, first: Message) -> list[Message] | None:
    """``messages`` with the summary in place of everything between the system message and
    ``first`` (the very message object), or None when ``first`` is no longer among them (the
    window or a reload dropped it: the summary would leave a gap)."""
    at = next((i for i, m in enumerate(messages) if m is first), None)
    if at is None:
        return None
    head = list(messages[:1]) if messages and messages[0].role == "system" else []
    return [*head, summary, *messages[at:]]


async def summarize_compaction(
    conversation: Conversation,
    *,
    threshold: int,
    summarize: Summarize,
    save_summary: SaveSummary | None = None,
    max_transcript_chars: int | None = None,
) -> Message | None:
    """Replace the middle of ``conversation`` by one summary message when it is over threshold.

    Returns the summary message, or None when nothing changed. A failed summary changes nothing.
    """
    cut = cut_for(conversation.messages, threshold)
    if cut is None:
        return None
    try:
        summary = await write_summary(cut.middle, summarize, max_transcript_chars)
        messages = applied(conversation.messages, summary, cut.first)
        assert messages is not None  # nothing changed the conversation meanwhile
        tail = tail_of(messages)
        if save_summary is not None:
            await save_summary(summary, tail)
    except Exception as exc:
        log.warning("compaction.failed", error=str(exc), exc_type=type(exc).__name__)
        return None
    conversation.messages = messages
    log.info("compaction.summarized", replaced=len(cut.middle), kept=len(tail))
    return summary


def tail_of(messages: Sequence[Message]) -> list[Message]:
    """The messages after the summary of a conversation that :func:`applied` returned."""
    return list(messages[2:] if messages and messages[0].role == "system" else messages[1:])
