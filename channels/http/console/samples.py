"""The last hour of the daemon's own counters, a sample a minute, for the Health page's charts.

Nothing is scraped: :class:`MinuteSamples` reads the totals of the :class:`~agentd.metrics.Metrics`
registry (turns, the turn-duration histogram's buckets, model tokens) once a minute and keeps the
differences in a ring of 60. The minute in progress is computed on demand, so a chart shows a turn
as soon as it ends. Latency percentiles come from the histogram's bucket counts of each minute,
interpolated inside the bucket the way Prometheus' ``histogram_quantile`` does.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import anyio

from agentd.metrics import Metrics

MINUTES = 60


@dataclass(frozen=True, slots=True)
class Totals:
    """Counter totals at one instant."""

    turns: float
    tokens: float
    #: Cumulative turn-duration bucket counts, by upper bound (``inf`` last).
    buckets: tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class Sample:
    """One minute: turns ended, tokens used and turn latency percentiles (None: no turn)."""

    at: float
    turns: float
    tokens: float
    p50: float | None
    p95: float | None


def read_totals(metrics: Metrics) -> Totals:
    """The totals of the counters the charts use, summed over their labels."""
    turns = tokens = 0.0
    buckets: dict[float, float] = {}
    for family in metrics.registry.collect():
        for s in family.samples:
            if s.name == "agentd_turns_total":
                turns += s.value
            elif s.name == "agentd_tenant_tokens_total":
                tokens += s.value
            elif s.name == "agentd_turn_duration_seconds_bucket":
                le = float(s.labels["le"])
                buckets[le] = buckets.get(le, 0.0) + s.value
    return Totals(turns, tokens, tuple(sorted(buckets.items())))


def quantile(q: float, buckets: tuple[tuple[float, float], ...]) -> float | None:
    """The ``q`` quantile of cumulative ``buckets`` (upper bound, count); None when empty."""
    if not buckets or buckets[-1][1] <= 0:
        return None
    rank = q * buckets[-1][1]
    lower, below = 0.0, 0.0
    for bound, count in buckets:
        if count >= rank:
            if math.isinf(bound):
                return lower
            inside = count - below
            return lower + (bound - lower) * ((rank - below) / inside if inside else 1.0)
        lower, below = bound, count
    return lower


def _minute(at: float, now: Totals, before: Totals) -> Sample:
    earlier = dict(before.buckets)
    delta = tuple((b, c - earlier.get(b, 0.0)) for b, c in now.buckets)
    return Sample(
        at,
        now.turns - before.turns,
        now.tokens - before.tokens,
        quantile(0.5, delta),
        quantile(0.95, delta),
    )


class MinuteSamples:
    """A ring of per-minute samples of one :class:`Metrics` (see the module docstring)."""

    def __init__(
        self, metrics: Metrics, *, clock: Callable[[], float] = time.time, size: int = MINUTES
    ) -> None:
        self.metrics = metrics
        self._clock = clock
        self._ring: deque[Sample] = deque(maxlen=size)
        self._last = read_totals(metrics)

    def take(self) -> Sample:
        """Close the minute in progress: record what changed since the previous sample."""
        now = read_totals(self.metrics)
        sample = _minute(self._clock(), now, self._last)
        self._ring.append(sample)
        self._last = now
        return sample

    def series(self) -> list[Sample]:
        """The recorded minutes, oldest first, and the minute in progress last."""
        return [*self._ring, _minute(self._clock(), read_totals(self.metrics), self._last)]

    async def run(self) -> None:
        """Take a sample every minute until cancelled."""
        while True:
            await anyio.sleep(60.0)
            self.take()
