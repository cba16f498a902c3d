"""One backoff policy for every retry and restart loop: exponential steps with equal jitter.

The LLM client's retries, the Telegram channel's polling and sending, channel supervision and
the llama-server sidecar all wait with :class:`Backoff`. Only the delays are computed here
(sleeping is the caller's, so tests need no clock); a server's ``Retry-After`` replaces the
computed delay, and a ``reset_after`` rule lets a loop that ran stably start over from ``base``.

Equal jitter (half the step fixed, half random) rather than full jitter: a crash-looping channel
or sidecar must never draw a delay near zero and restart in a tight loop, and half the step is
still random enough to keep many restarted clients from hitting a server in step.

This is a leaf module: it imports nothing of agentd, so ``channels`` can use it too.
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Callable

__all__ = ["Backoff", "parse_retry_after"]


class Backoff:
    """Delays ``base``, ``2*base``, ``4*base``... up to ``cap``, each drawn from [step/2, step].

    ``rand`` returns a float in [0, 1); tests pass a fixed one.
    """

    __slots__ = ("_random", "_step", "base", "cap", "reset_after")

    def __init__(
        self,
        base: float,
        cap: float,
        *,
        reset_after: float | None = None,
        rand: Callable[[], float] = random.random,
    ) -> None:
        if base <= 0:
            raise ValueError(f"backoff base must be positive, not {base}")
        self.base = base
        self.cap = max(cap, base)
        self.reset_after = reset_after
        self._random = rand
        self._step = base

    def reset(self) -> None:
        """Start over from ``base`` (after a success)."""
        self._step = self.base

    def next_delay(self, *, retry_after: float | None = None, ran_for: float = 0.0) -> float:
        """The seconds to wait before the next attempt.

        ``retry_after`` (a server's word, in seconds) replaces the computed delay and does not
        advance the step. ``ran_for`` is how long the attempt that just failed ran: at least
        ``reset_after`` seconds means it was stable, so the steps start over from ``base``.
        """
        if self.reset_after is not None and ran_for >= self.reset_after:
            self.reset()
        if retry_after is not None:
            return max(0.0, retry_after)
        step = self._step
        self._step = min(step * 2, self.cap)
        return step / 2 + step / 2 * self._random()


def parse_retry_after(value: str | None, *, now: Callable[[], float] = time.time) -> float | None:
    """Seconds from an HTTP ``Retry-After`` value (seconds or an HTTP date); None if unusable."""
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            return None
        seconds = when.timestamp() - now()
    if seconds != seconds:  # NaN: float() accepts "nan"
        return None
    return max(0.0, seconds)
