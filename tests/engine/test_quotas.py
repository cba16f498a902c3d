"""Tenant quotas: the turns-per-minute window, the daily token count, and what they refuse."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import anyio.lowlevel
import pytest

from agentd import scope as scopes
from agentd.config import Settings
from agentd.engine.quotas import MAX_WINDOWS, WINDOW, Quotas, TurnWindow, seconds_to_midnight
from agentd.errors import QuotaExceeded
from agentd.memory.history import SQLiteHistory
from agentd.memory.usage import SQLiteUsage, UsageCounts

pytestmark = pytest.mark.anyio

ALICE = scopes.Scope(tenant="alice")
BOB = scopes.Scope(tenant="bob")
#: 2026-01-01 23:00:00 UTC.
LATE = 1_767_308_400.0


class Clock:
    """A settable clock, for both the wall time and the monotonic one."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def settings(**tenants: dict[str, int | None]) -> Settings:
    return Settings(
        default={"tenant_limits": {"turns_per_minute": 0, "tokens_per_day": 0}},  # type: ignore[arg-type]
        tenants={name: {"limits": limits} for name, limits in tenants.items()},  # type: ignore[misc]
    )


@pytest.fixture
async def usage(tmp_path: Path) -> AsyncIterator[SQLiteUsage]:
    async with SQLiteHistory.open(tmp_path / "h.db") as history:
        yield SQLiteUsage(history)


def test_window_admits_up_to_the_limit_then_says_how_long_to_wait() -> None:
    """At a limit of 3, three turns pass; the fourth waits until the first is 60 s old."""
    window = TurnWindow()
    assert [window.admit(t, 3) for t in (0.0, 10.0, 20.0)] == [None, None, None]
    assert window.admit(30.0, 3) == pytest.approx(WINDOW - 30.0)
    assert window.admit(59.9, 3) == pytest.approx(0.1)


def test_window_refills_as_turns_leave_it() -> None:
    """A refused turn does not count; once the oldest start is 60 s old, one more turn passes."""
    window = TurnWindow()
    window.admit(0.0, 2)
    window.admit(30.0, 2)
    assert window.admit(45.0, 2) is not None
    assert window.admit(60.0, 2) is None
    assert window.admit(61.0, 2) == pytest.approx(30.0 + WINDOW - 61.0)
    assert window.admit(90.0, 2) is None
    assert window.idle(200.0)


def test_window_with_a_lowered_limit_waits_for_enough_starts_to_leave() -> None:
    """With more starts in the window than a (reloaded, lower) limit, the wait covers them all."""
    window = TurnWindow()
    for t in (0.0, 10.0, 20.0):
        window.admit(t, 5)
    assert window.admit(25.0, 1) == pytest.approx(20.0 + WINDOW - 25.0)


def test_seconds_to_midnight_is_utc() -> None:
    """The daily count resets at 00:00 UTC."""
    assert seconds_to_midnight(LATE) == 3600.0
    assert seconds_to_midnight(LATE + 3600.0) == 86400.0


def test_tenant_limits_fall_back_key_by_key() -> None:
    """A tenant's unset (null) limit takes the default's; 0 means unlimited, not the default."""
    s = Settings(
        default={"tenant_limits": {"turns_per_minute": 5, "tokens_per_day": 1000}},  # type: ignore[arg-type]
        tenants={"alice": {"limits": {"turns_per_minute": 0}}},  # type: ignore[dict-item]
    )
    assert (s.limits_for("alice").turns_per_minute, s.limits_for("alice").tokens_per_day) == (
        0,
        1000,
    )
    assert s.limits_for("bob").turns_per_minute == 5
    assert Settings().limits_for("anyone").turns_per_minute == 0


async def test_turns_per_minute_refuses_one_tenant_only(usage: SQLiteUsage) -> None:
    """Over its turns per minute a tenant is refused with the wait; another tenant goes on."""
    mono = Clock(100.0)
    refused: list[tuple[str, str]] = []
    quotas = Quotas(
        settings(alice={"turns_per_minute": 2}).limits_for,
        usage,
        monotonic=mono,
        on_refused=lambda t, limit: refused.append((t, limit)),
    )
    with scopes.use(ALICE):
        await quotas.admit()
        mono.now = 110.0
        await quotas.admit()
        mono.now = 130.0
        with pytest.raises(QuotaExceeded) as caught:
            await quotas.admit()
    assert (caught.value.tenant, caught.value.limit, caught.value.allowed) == (
        "alice",
        "turns_per_minute",
        2,
    )
    assert caught.value.retry_after == pytest.approx(30.0)
    assert "2 turns per minute" in str(caught.value)
    assert refused == [("alice", "turns_per_minute")]
    with scopes.use(BOB):
        for _ in range(10):
            await quotas.admit()
    mono.now = 160.0
    with scopes.use(ALICE):
        await quotas.admit()


async def test_tokens_per_day_roll_over_at_utc_midnight(usage: SQLiteUsage) -> None:
    """Once a day's tokens reach the limit turns are refused until 00:00 UTC, then admitted."""
    clock = Clock(LATE)
    quotas = Quotas(settings(alice={"tokens_per_day": 100}).limits_for, usage, clock=clock)
    with scopes.use(ALICE):
        await quotas.admit()
        await quotas.record(UsageCounts(1, 60, 30))
        await quotas.admit()  # 90 < 100: a turn may start (and may go past the limit)
        await quotas.record(UsageCounts(1, 20, 5))
        clock.now = LATE + 1800
        with pytest.raises(QuotaExceeded) as caught:
            await quotas.admit()
        assert caught.value.limit == "tokens_per_day"
        assert caught.value.retry_after == pytest.approx(1800.0)
        assert "100 model tokens for today (UTC)" in str(caught.value)
        clock.now = LATE + 3600
        await quotas.admit()
        assert await usage.tokens_on("2026-01-01") == 115
        assert await usage.tokens_on("2026-01-02") == 0


async def test_the_daily_count_survives_a_restart(tmp_path: Path) -> None:
    """A new Quotas on a reopened file refuses a tenant that used its tokens before the restart."""
    limits = settings(alice={"tokens_per_day": 50}).limits_for
    clock = Clock(LATE)
    async with SQLiteHistory.open(tmp_path / "h.db") as history:
        with scopes.use(ALICE):
            await Quotas(limits, SQLiteUsage(history), clock=clock).record(UsageCounts(1, 40, 10))
    async with SQLiteHistory.open(tmp_path / "h.db") as history:
        with scopes.use(ALICE), pytest.raises(QuotaExceeded):
            await Quotas(limits, SQLiteUsage(history), clock=clock).admit()


async def test_record_reports_usage_and_keeps_going_when_the_store_fails(
    tmp_path: Path,
) -> None:
    """record() reports the counts to metrics; a closed store is logged, not raised."""
    seen: list[tuple[object, ...]] = []
    async with SQLiteHistory.open(tmp_path / "h.db") as history:
        usage = SQLiteUsage(history)
    quotas = Quotas(Settings().limits_for, usage, on_usage=lambda *args: seen.append(args))
    with scopes.use(ALICE):
        await quotas.record(UsageCounts(1, 3, 4, 2))
    assert seen == [("alice", 1, 3, 4, 2)]


async def test_unlimited_tenants_read_nothing(usage: SQLiteUsage) -> None:
    """Without limits admit() neither reads the store nor keeps a window."""

    class NoStore:
        async def add(self, day: str, counts: UsageCounts) -> None:
            raise AssertionError("not called")

        async def tokens_on(self, day: str) -> int:
            raise AssertionError("not called")

    quotas = Quotas(Settings().limits_for, NoStore())
    with scopes.use(ALICE):
        await quotas.admit()
    assert quotas._windows == {}


async def test_windows_of_idle_tenants_are_dropped(usage: SQLiteUsage) -> None:
    """Past MAX_WINDOWS tenants, windows with no turn in the last minute are forgotten."""
    mono = Clock(0.0)
    s = Settings(default={"tenant_limits": {"turns_per_minute": 1}})  # type: ignore[arg-type]
    quotas = Quotas(s.limits_for, usage, monotonic=mono)
    for i in range(MAX_WINDOWS):
        with scopes.use(scopes.Scope(tenant=f"t{i}")):
            await quotas.admit()
    mono.now = WINDOW + 1
    with scopes.use(scopes.Scope(tenant="late")):
        await quotas.admit()
    assert list(quotas._windows) == ["late"]


async def test_a_counted_turn_is_seen_before_its_write_lands() -> None:
    """A client's next request right after an answer sees that turn's tokens, even while the
    usage write is still waiting for the database."""

    class SlowStore:
        def __init__(self) -> None:
            self.release = anyio.Event()
            self.stored = 0

        async def add(self, day: str, counts: UsageCounts) -> None:
            await self.release.wait()
            self.stored += counts.tokens

        async def tokens_on(self, day: str) -> int:
            return self.stored

    store = SlowStore()
    quotas = Quotas(settings(alice={"tokens_per_day": 10}).limits_for, store)
    with scopes.use(ALICE):
        async with anyio.create_task_group() as tg:
            tg.start_soon(quotas.record, UsageCounts(1, 8, 2))
            await anyio.lowlevel.checkpoint()
            with pytest.raises(QuotaExceeded):
                await quotas.admit()
            store.release.set()
        with pytest.raises(QuotaExceeded):
            await quotas.admit()
    assert quotas._unstored == {}
