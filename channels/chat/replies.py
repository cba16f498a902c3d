"""The fixed answers of the chat channels: a failed turn, a tenant over its quota."""

from __future__ import annotations

from agentd.errors import QuotaExceeded

FAILED = "Sorry, I could not answer that: the model is not available. Try again in a moment."
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
