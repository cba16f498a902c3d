"""Per-tenant quotas, checked before a turn starts, and usage, counted when it ends.

Two limits per tenant (``Settings.limits_for``; 0 = unlimited):

- **turns per minute**: a sliding window of the last 60 seconds of admitted turn starts
  (:class:`TurnWindow`); a refused turn does not count.
- **model tokens per UTC day**: prompt + completion tokens as the model server reports them,
  summed in the ``usage`` table (:mod:`agentd.memory.usage`), so the count survives a restart.
  A turn is refused once the day's count has reached the limit. Turns are counted when they
  end, so turns admitted below the limit may together go past it: the overshoot is bounded by
  what the turns running at that moment use. A turn is counted on the UTC day it ends.

:meth:`Quotas.admit` raises :class:`~agentd.errors.QuotaExceeded` with the seconds to wait;
the runtime calls it before it stores anything of the turn. Both methods read the tenant from
:func:`agentd.scope.current`, as stores do.
"""

from __future__ import annotations

import datetime as dt
import time
from collections import deque
from collections.abc import Awaitable, Callable

import structlog

from agentd import scope as scopes
from agentd.config import TenantLimits
from agentd.errors import HistoryError, QuotaExceeded
from agentd.memory.usage import UsageCounts, UsageStore, utc_day

log = structlog.get_logger("agentd.engine.quotas")

#: The turns-per-minute window, in seconds.
WINDOW = 60.0
#: Tenants whose windows are kept; past it, windows with no turn in the last minute are dropped.
MAX_WINDOWS = 1024

LimitsFor = Callable[[str], TenantLimits]
#: Receives a tenant and its turn's counts: turns, prompt tokens, completion tokens, tool calls.
OnUsage = Callable[[str, int, int, int, int], None]
#: Receives a tenant and the limit (``turns_per_minute``, ``tokens_per_day``) that refused it.
OnRefused = Callable[[str, str], None]


class TurnWindow:
    """The start times of one tenant's turns in the last :data:`WINDOW` seconds."""

    __slots__ = ("_starts",)

    def __init__(self) -> None:
        self._starts: deque[float] = deque()

    def _prune(self, now: float) -> None:
        starts = self._starts
        while starts and starts[0] <= now - WINDOW:
            starts.popleft()

    def admit(self, now: float, limit: int) -> float | None:
        """Count a turn starting at ``now`` and return None; or, when ``limit`` turns started
        in the window already, count nothing and return the seconds until one may start."""
        self._prune(now)
        starts = self._starts
        if len(starts) >= limit:
            # Once this start leaves the window, fewer than `limit` remain in it.
            return starts[len(starts) - limit] + WINDOW - now
        starts.append(now)
        return None

    def idle(self, now: float) -> bool:
        """True when no turn started in the window."""
        self._prune(now)
        return not self._starts


def seconds_to_midnight(now: float) -> float:
    """Seconds from the Unix time ``now`` to the next UTC midnight (when a day's count resets)."""
    today = dt.datetime.fromtimestamp(now, dt.UTC).date()
    midnight = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(), dt.UTC)
    return midnight.timestamp() - now


class Quotas:
    """Admits turns within their tenant's limits and records what turns used.

    ``clock`` (Unix time) decides the UTC day, ``monotonic`` the turns-per-minute window; tests
    inject both. ``on_usage`` and ``on_refused`` report to metrics.
    """

    def __init__(
        self,
        limits_for: LimitsFor,
        store: UsageStore,
        *,
        on_usage: OnUsage | None = None,
        on_refused: OnRefused | None = None,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits_for = limits_for
        self.store = store
        self._on_usage = on_usage
        self._on_refused = on_refused
        self._clock = clock
        self._monotonic = monotonic
        self._windows: dict[str, TurnWindow] = {}
        #: Tokens of turns counted but not yet (or never, when the store failed) in the store,
        #: by tenant and day: a turn counted is seen by the next admit at once.
        self._unstored: dict[tuple[str, str], int] = {}

    async def admit(self) -> None:
        """Let the scope's tenant start a turn, or raise QuotaExceeded."""
        tenant = scopes.current().tenant
        limits = self.limits_for(tenant)
        if limits.tokens_per_day:
            now = self._clock()
            day = utc_day(now)
            # Taken before the read: a count whose write commits meanwhile is seen twice at
            # worst (refused a little early), never missed.
            unstored = self._unstored.get((tenant, day), 0)
            used = unstored + await self.store.tokens_on(day)
            if used >= limits.tokens_per_day:
                self._refuse(
                    tenant, "tokens_per_day", limits.tokens_per_day, seconds_to_midnight(now)
                )
        if limits.turns_per_minute:
            now = self._monotonic()
            wait = self._window(tenant, now).admit(now, limits.turns_per_minute)
            if wait is not None:
                self._refuse(tenant, "turns_per_minute", limits.turns_per_minute, wait)

    async def record(
        self, counts: UsageCounts, *, store_after: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        """Count a turn of the scope's tenant; a store that fails is logged, never raised
        (its tokens still count against the quota until the daemon restarts).

        The count is in memory (and in the metrics) at once, so the next admit sees it; the
        store's write waits for ``store_after`` when given (the runtime lets the turn's reader
        send its answer first: that write is no part of the answer)."""
        tenant = scopes.current().tenant
        day = utc_day(self._clock())
        key = (tenant, day)
        # Before any await: the turn's reader may already send its next request.
        self._unstored[key] = self._unstored.get(key, 0) + counts.tokens
        if self._on_usage is not None:
            self._on_usage(
                tenant,
                counts.turns,
                counts.prompt_tokens,
                counts.completion_tokens,
                counts.tool_calls,
            )
        if store_after is not None:
            await store_after()
        try:
            await self.store.add(day, counts)
        except HistoryError as exc:
            log.warning("usage.not_recorded", tenant=tenant, error=str(exc))
            self._unstored = {k: v for k, v in self._unstored.items() if k[1] == day}
            return
        left = self._unstored[key] - counts.tokens
        if left:
            self._unstored[key] = left
        else:
            del self._unstored[key]

    def _refuse(self, tenant: str, limit: str, allowed: int, wait: float) -> None:
        log.info("quota.refused", tenant=tenant, limit=limit, retry_after=round(wait, 1))
        if self._on_refused is not None:
            self._on_refused(tenant, limit)
        raise QuotaExceeded(tenant, limit, allowed, wait)

    def _window(self, tenant: str, now: float) -> TurnWindow:
        window = self._windows.get(tenant)
        if window is None:
            if len(self._windows) >= MAX_WINDOWS:
                self._windows = {t: w for t, w in self._windows.items() if not w.idle(now)}
            window = self._windows[tenant] = TurnWindow()
        return window
