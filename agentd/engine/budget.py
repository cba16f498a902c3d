"""The context budget: what is sent to the model always fits its context window.

A guard under the seed's knobs (``max_messages``, ``truncate``/``summarize``, the threshold): they
decide what a session keeps; the budget decides what of it is sent in each model call, whatever
they are set to. It never cuts the stored history.

Tokens are counted as the server counts them, not by ``len/4``: the estimate is calibrated after
every call from the server's ``usage.prompt_tokens`` for the characters that were sent. When old
messages must go, they go in large steps (down to half of the room at once, whole exchanges only)
and the first message sent is remembered per conversation, so the prompt's prefix stays the same
for many turns and llama-server's KV cache keeps hitting instead of re-evaluating everything.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import structlog

from agentd.config import AgentDefaults
from agentd.engine.policy import well_formed
from agentd.errors import ContextOverflow
from agentd.messages import Conversation, Message

log = structlog.get_logger("agentd.engine.budget")

#: Characters a chat template adds around each message (role markers, separators).
MESSAGE_OVERHEAD_CHARS = 16
#: The first estimate before the server has told us anything: cautious (code and JSON are dense).
INITIAL_CHARS_PER_TOKEN = 3.0
#: Never believe fewer than this many characters per token, nor more.
MIN_CHARS_PER_TOKEN, MAX_CHARS_PER_TOKEN = 1.0, 6.0
#: Room kept free for what the estimate gets wrong.
SAFETY = 0.9


def chars_of(messages: Sequence[Message]) -> int:
    """The characters of ``messages`` as a chat template lays them out (roughly)."""
    return sum(map(_chars, messages))


def _chars(m: Message) -> int:
    """One message's characters as :func:`chars_of` counts them."""
    total = len(m.content) + MESSAGE_OVERHEAD_CHARS
    for call in m.tool_calls:
        total += len(call.name) + len(call.arguments) + MESSAGE_OVERHEAD_CHARS
    return total


@dataclass(slots=True)
class TokenCounter:
    """Characters per token, learned from what the server reports."""

    chars_per_token: float = INITIAL_CHARS_PER_TOKEN

    def tokens(self, chars: int) -> int:
        return int(chars / self.chars_per_token) + 1

    def calibrate(self, chars: int, prompt_tokens: int) -> None:
        """Learn from one call: ``chars`` were sent, the server counted ``prompt_tokens``."""
        if chars <= 0 or prompt_tokens <= 0:
            return
        observed = min(MAX_CHARS_PER_TOKEN, max(MIN_CHARS_PER_TOKEN, chars / prompt_tokens))
        # Quick to believe a denser text (an overflow costs a turn), slow to relax.
        if observed < self.chars_per_token:
            self.chars_per_token = observed
        else:
            self.chars_per_token += (observed - self.chars_per_token) * 0.25


@dataclass(slots=True)
class ContextBudget:
    """The room for messages in one model call: the context minus the answer and the tools."""

    context: int
    reserve: int
    counter: TokenCounter = field(default_factory=TokenCounter)
    #: The schemas measured last (held, so their identity cannot pass to another list) and
    #: their size in characters.
    _tools: tuple[tuple[dict[str, Any], ...], int] = field(default=((), 0), init=False, repr=False)

    def tool_chars(self, tools: Sequence[dict[str, Any]] | None) -> int:
        """The characters of the tool schemas (the same schema objects are measured once)."""
        if not tools:
            return 0
        held, size = self._tools
        if len(held) != len(tools) or any(a is not b for a, b in zip(held, tools, strict=True)):
            held = tuple(tools)
            size = len(json.dumps(list(held)))
            self._tools = (held, size)
        return size

    def room(self, tools: Sequence[dict[str, Any]] | None = None) -> int:
        """Tokens left for messages once the answer and the tool schemas are set aside."""
        tool_chars = self.tool_chars(tools)
        free = int(self.context * SAFETY) - self.reserve - self.counter.tokens(tool_chars)
        return max(free, 0)

    def tokens(self, messages: Sequence[Message]) -> int:
        return self.counter.tokens(chars_of(messages))

    def fit(
        self, conversation: Conversation, tools: Sequence[dict[str, Any]] | None = None
    ) -> list[Message]:
        """The messages of ``conversation`` to send now: the system message, a summary that
        leads the conversation, then the newest whole exchanges that fit.

        Raises ContextOverflow when not even the newest user message (with what follows it)
        fits.
        """
        messages = conversation.messages
        head = messages[:1] if messages and messages[0].role == "system" else []
        rest = messages[len(head) :]
        lead = rest[:1] if rest and rest[0].metadata.get("summary") else []
        room = self.room(tools) - self.tokens(head)
        start = _index(rest, conversation.sent_from)
        if start is None or start < len(lead):
            start = len(lead)
        # Suffix costs: cost[i] = tokens of rest[i:] (each message's estimate rounded alone).
        per_token = self.counter.chars_per_token
        cost = [0] * (len(rest) + 1)
        for i in range(len(rest) - 1, -1, -1):
            cost[i] = cost[i + 1] + int(_chars(rest[i]) / per_token) + 1
        lead_cost = cost[0] - cost[len(lead)]
        if cost[start] + lead_cost <= room:
            return head + lead + well_formed(rest[start:])
        newest = _last_user(rest)
        # Cut only before a user message: whole exchanges go, and what is sent still starts
        # the way strict chat templates want it (system, then user).
        cuts = [i for i in range(start, newest + 1) if rest[i].role == "user"] or [newest]
        if cost[newest] > room:
            raise ContextOverflow(needed=cost[newest], limit=self.context, room=max(room, 0))
        # Down to half the room in one step, so the next turns keep this prefix.
        cut = next((i for i in cuts if cost[i] + lead_cost <= room // 2), None)
        if cut is None:
            lead, lead_cost = [], 0
            cut = next((i for i in cuts if cost[i] <= room // 2), None)
        if cut is None:
            cut = next(i for i in cuts if cost[i] <= room)
        conversation.sent_from = rest[cut]
        log.info("context.trimmed", dropped=cut - len(lead), sent=len(rest) - cut, room=room)
        return head + lead + well_formed(rest[cut:])

    def calibrate(self, sent: Sequence[Message], tools: Any, prompt_tokens: int) -> None:
        """Learn the server's count from one call's ``usage.prompt_tokens``."""
        self.counter.calibrate(chars_of(sent) + self.tool_chars(tools), prompt_tokens)

    def tighten(
        self, sent: Sequence[Message], tools: Any, requested: int | None, limit: int | None
    ) -> None:
        """The server said the context was exceeded: believe its context size when it names
        one, and count more tokens per character from now on."""
        if limit and limit < self.context:
            log.warning("context.learned", was=self.context, now=limit)
            self.reserve = min(self.reserve, limit // 4)
            self.context = limit
        tool_chars = self.tool_chars(tools)
        if requested:
            self.counter.calibrate(chars_of(sent) + tool_chars, int(requested / SAFETY) + 1)
        else:
            self.counter.chars_per_token = max(
                MIN_CHARS_PER_TOKEN, self.counter.chars_per_token * 0.7
            )

    def chars_for(self, tokens: int) -> int:
        """How many characters ``tokens`` tokens hold, by the current estimate."""
        return int(tokens * self.counter.chars_per_token)


def _index(messages: list[Message], anchor: Message | None) -> int | None:
    if anchor is None:
        return None
    for i, m in enumerate(messages):
        if m is anchor:
            return i
    return None


def _last_user(messages: list[Message]) -> int:
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].role == "user":
            return i
    return max(len(messages) - 1, 0)


def effective_defaults(defaults: AgentDefaults, server_context: int | None) -> AgentDefaults:
    """The agent defaults with ``max_tokens`` set to the context actually available.

    Left unset, ``max_tokens`` follows the model server's context (the sidecar's, or what
    llama-server reports); set, it is honoured but never above what the server has. The
    summarize threshold (``0.75 * max_tokens`` when unset) follows along.
    """
    if server_context is None or server_context <= 0:
        return defaults
    if "max_tokens" not in defaults.model_fields_set:
        return defaults.model_copy(update={"max_tokens": server_context})
    return defaults.model_copy(update={"max_tokens": min(defaults.max_tokens, server_context)})


def budget_for(defaults: AgentDefaults, answer_tokens: int | None = None) -> ContextBudget:
    """The budget of a model with ``defaults.max_tokens`` of context.

    ``answer_tokens`` (the server's own answer cap, when known) replaces
    ``defaults.answer_tokens``; either way at most a quarter of the context is reserved.
    """
    reserve = answer_tokens if answer_tokens and answer_tokens > 0 else defaults.answer_tokens
    return ContextBudget(
        context=defaults.max_tokens, reserve=min(reserve, defaults.max_tokens // 4)
    )
