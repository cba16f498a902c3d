"""The fixed answers of the chat channels: a failed turn (saying what failed), a tenant over its
quota.

A sender who gets no answer is told why in words that say what to do: the model is not
available, the model server answered with an error, the model took too long, the message is
too long for it, agentd is restarting, or something failed inside agentd (then the log has the
details; the sender never sees an exception's text, which may name files or hosts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx

from agentd.errors import (
    ContextOverflow,
    LLMResponseError,
    LLMStatusError,
    LLMUnavailable,
    ModelError,
    QuotaExceeded,
    RetryConflict,
    ShuttingDown,
    SidecarError,
)

_SORRY = "Sorry, I could not answer that: "
UNAVAILABLE = _SORRY + "the model is not available. Try again in a moment."
MODEL_ERROR = _SORRY + "the model server answered with an error. Try again in a moment."
TIMEOUT = _SORRY + "the model took too long to answer. Try again, or ask for less at once."
TOO_LONG = _SORRY + "the message is too long for the model to read. Send a shorter one."
STOPPING = _SORRY + "agentd is restarting. Send it again in a moment."
CUT_OFF = (
    _SORRY + "my work on it was cut off and the conversation has moved on since. Send it again."
)
INTERNAL = _SORRY + "something failed inside agentd (its log says what). Try again in a moment."
#: A tenant may be several senders: the limits are said to be the agent's, not the sender's.
OVER_QUOTA = {
    "turns_per_minute": "Too many messages: this agent answers {allowed} a minute here. "
    "Please try again in {wait}.",
    "tokens_per_day": "This agent's allowance for today is used up ({allowed:,} model tokens "
    "a day). It resets at 00:00 UTC, in {wait}.",
}


def over_quota(exc: QuotaExceeded) -> str:
    """What a sender over their tenant's quota is told: which limit, and when to try again."""
    return OVER_QUOTA[exc.limit].format(allowed=exc.allowed, wait=exc.wait)


def _causes(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and what caused it, innermost last (a bounded walk: chains can loop)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen and len(seen) < 16:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _timed_out(exc: BaseException) -> bool:
    if isinstance(exc, LLMStatusError) and exc.status_code in (408, 504):
        return True
    return any(isinstance(e, TimeoutError | httpx.TimeoutException) for e in _causes(exc))


def _unavailable(exc: BaseException) -> bool:
    if isinstance(exc, LLMStatusError) and exc.status_code == 503:
        return True  # llama-server while it loads the model
    return isinstance(exc, LLMUnavailable | SidecarError | ModelError)


#: What a failed turn is told, first match wins (the order matters: a timeout is also an
#: unavailable model, a 503 also a model error).
FAILURES: tuple[tuple[Callable[[BaseException], bool], str], ...] = (
    (lambda e: isinstance(e, ShuttingDown), STOPPING),
    (lambda e: isinstance(e, ContextOverflow), TOO_LONG),
    (lambda e: isinstance(e, RetryConflict), CUT_OFF),
    (_timed_out, TIMEOUT),
    (_unavailable, UNAVAILABLE),
    (lambda e: isinstance(e, LLMStatusError | LLMResponseError), MODEL_ERROR),
)


def failed(exc: BaseException) -> str:
    """What the sender of a turn that failed with ``exc`` is told: what failed, in words."""
    if isinstance(exc, QuotaExceeded):
        return over_quota(exc)
    return next((reply for matches, reply in FAILURES if matches(exc)), INTERNAL)
