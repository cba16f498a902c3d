"""Long prompts read ahead in pieces, out of the turns' way.

Work that is no turn's (a compaction summary, a session's prompt read again after one) has
llama-server read a long prompt. The server reads one request's prompt to its end before a
request that arrives meanwhile gets any of its batch, whatever slot either is on, the batch size,
or whether the first request's client is still there: measured directly on 2 cores, a short
request sent while another slot read a ~2,500-token prompt waited 37.5-37.8 s. In the 50-turn
long session (``summarize``, 15 s between turns) a summary's ~1,800-token prompt and then the
session's new ~1,500-token one held the two turns that came meanwhile 18.8 and 26.9 s.

So such a prompt is read in pieces (:func:`prefixes`): requests for one token whose prompts are
ever longer prefixes of it, each about :data:`PIECE_CHARS` longer than the one before. The
server's prompt cache keeps what each read, so each reads only its own piece, and the request
itself, sent last, reads the last piece. Before each, the work waits until no turn is in
flight (``go_on``, the runtime's :meth:`~agentd.engine.runtime.Runtime.quiet`): a turn that
comes meanwhile waits for one piece at most.
A piece ends inside a message's text where it is long (the summary's transcript is one
message), never inside a message with tool calls nor, when tools are sent, inside the system
message (a template renders calls and tools after the text: cut, they would not render as a
prefix of the whole).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import structlog

from agentd.errors import LLMError
from agentd.messages import Message
from agentd.model.usage import Usage

log = structlog.get_logger("agentd.engine.readahead")

#: About 400 tokens of English text: 5-6 s for the packaged model on 2 cores.
PIECE_CHARS = 1600

#: Evaluates a prompt and generates (almost) nothing: ``LLMClient.warm``.
Warm = Callable[[Sequence[Message], Sequence[dict[str, Any]] | None], Awaitable[Usage]]
#: Returns once no turn is in flight (or the runtime's patience ran out): whether to go on.
GoOn = Callable[[], Awaitable[bool]]


@dataclass(slots=True)
class Read:
    """What :func:`read_ahead` did: the pieces' usage, how many, whether to send the request."""

    usage: Usage
    pieces: int = 0
    done: bool = False


def prefixes(
    messages: Sequence[Message], piece_chars: int = PIECE_CHARS, *, tools: bool = False
) -> list[list[Message]]:
    """The prompts that read ``messages`` in pieces: proper prefixes of them, each ending about
    ``piece_chars`` characters of text after the one before (see the module docstring). With
    ``tools`` sent, no piece ends inside the system message: templates render the tools after
    its text, so a cut one would not be a prefix of the whole."""
    if piece_chars < 1:
        raise ValueError("piece_chars must be positive")
    out: list[list[Message]] = []
    read = 0  # text of the messages before the current one
    last = 0  # where the last piece ended
    for at, message in enumerate(messages):
        size = len(message.content)
        if not message.tool_calls and not (tools and message.role == "system"):
            cut = last + piece_chars - read
            while cut < size:
                out.append([*messages[:at], replace(message, content=message.content[:cut])])
                last = read + cut
                cut += piece_chars
        read += size
        if read - last >= piece_chars and at + 1 < len(messages):
            out.append(list(messages[: at + 1]))
            last = read
    return out


async def read_ahead(
    warm: Warm,
    messages: Sequence[Message],
    tools: Sequence[dict[str, Any]] | None,
    go_on: GoOn,
    piece_chars: int | None = None,
) -> Read:
    """Have the server read every piece of ``messages`` but the last, each once ``go_on``
    says so (it waits until no turn is in flight), and ask ``go_on`` once more: the request
    itself comes next when :attr:`Read.done`. A piece the server refuses stops the reading
    (logged): the request reads the rest itself."""
    read = Read(Usage())
    for prefix in prefixes(messages, piece_chars or PIECE_CHARS, tools=bool(tools)):
        if not await go_on():
            return read
        try:
            read.usage.add(await warm(prefix, tools))
        except LLMError as exc:
            log.warning("readahead.failed", error=str(exc), pieces=read.pieces)
            break
        read.pieces += 1
    read.done = await go_on()
    return read
