"""When a job fires: cron lines and intervals, time zones, active hours. Pure functions.

Schedules come from APScheduler's triggers (cron expressions with timezones and DST, intervals
aligned to the epoch so every daemon computes the same instants). Nothing here imports agentd: the
settings validate a job with :func:`validate_job`, the heartbeat runs it with the rest.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Protocol
from zoneinfo import ZoneInfo

EPOCH = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
MAX_MISSED_ROWS = 1000
_INTERVAL = re.compile(r"^\s*(?:every\s+)?(\d+)\s*(s|sec|m|min|h|d)\s*$", re.I)
_UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}
_HOURS = re.compile(r"^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$")


class Schedule(Protocol):
    """What a schedule is made of (a configured cron job is one)."""

    @property
    def schedule(self) -> str: ...
    @property
    def timezone(self) -> str | None: ...
    @property
    def active_hours(self) -> str | None: ...


def job_zone(job: Schedule) -> dt.tzinfo:
    if job.timezone:
        return ZoneInfo(job.timezone)
    from tzlocal import get_localzone

    zone: dt.tzinfo = get_localzone()
    return zone


def make_trigger(job: Schedule) -> Any:
    """An APScheduler trigger for ``job.schedule``: ``30s``/``5m``/``every 2h`` or a cron line
    (5 fields, or 6 with seconds first)."""
    from apscheduler.triggers.cron import CronTrigger
    from apscheduler.triggers.interval import IntervalTrigger

    zone = job_zone(job)
    match = _INTERVAL.match(job.schedule)
    if match:
        seconds = int(match.group(1)) * _UNITS[match.group(2).lower()]
        if seconds <= 0:
            raise ValueError("an interval must be at least one second")
        return IntervalTrigger(seconds=seconds, start_date=EPOCH, timezone=zone)
    fields = job.schedule.split()
    if len(fields) == 5:
        return CronTrigger.from_crontab(job.schedule, timezone=zone)
    if len(fields) == 6:
        second, minute, hour, day, month, dow = fields
        return CronTrigger(
            second=second, minute=minute, hour=hour, day=day, month=month,
            day_of_week=dow, timezone=zone,
        )  # fmt: skip
    raise ValueError("expected an interval like '30s' or a cron line of 5 or 6 fields")


def validate_job(job: Schedule) -> None:
    """Raise ValueError naming what is wrong with the job's schedule, zone or hours."""
    try:
        make_trigger(job)
    except ValueError:
        raise
    except Exception as exc:  # unknown timezone (a KeyError), bad cron field...
        raise ValueError(f"{type(exc).__name__}: {exc}") from None
    if job.active_hours and not _HOURS.match(job.active_hours):
        raise ValueError("active_hours must look like '08:00-22:00'")


def next_fire(trigger: Any, after: dt.datetime) -> dt.datetime | None:
    """The first fire time strictly after ``after``."""
    nxt: dt.datetime | None = trigger.get_next_fire_time(after, after)
    return nxt


def fire_times(trigger: Any, after: dt.datetime, until: dt.datetime) -> list[dt.datetime]:
    """Fire times in ``(after, until]``; at most the latest MAX_MISSED_ROWS."""
    out: list[dt.datetime] = []
    current = after
    while True:
        nxt = next_fire(trigger, current)
        if nxt is None or nxt > until:
            return out
        out.append(nxt)
        if len(out) > MAX_MISSED_ROWS:
            del out[0]
        current = nxt


def in_active_hours(job: Schedule, when: dt.datetime) -> bool:
    if not job.active_hours:
        return True
    match = _HOURS.match(job.active_hours)
    if match is None:
        return True
    h1, m1, h2, m2 = (int(g) for g in match.groups())
    local = when.astimezone(job_zone(job))
    minute = local.hour * 60 + local.minute
    start, end = h1 * 60 + m1, h2 * 60 + m2
    if start <= end:
        return start <= minute < end
    return minute >= start or minute < end  # wraps past midnight
