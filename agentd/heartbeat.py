"""Heartbeat ticks: when a job fires, and what one tick does.

Schedules come from APScheduler's triggers (cron expressions with timezones and DST, intervals
aligned to the epoch so every daemon computes the same instants). A tick is claimed in the
:class:`~agentd.ticklog.TickLog` before it runs, runs one agent turn on a bounded session,
and delivers the reply unless it is exactly ``HEARTBEAT_OK``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import anyio
import structlog

from agentd.config import CronJob
from agentd.memory.sessions import trim
from agentd.runtime import Runtime
from agentd.ticklog import Kind, TickLog, iso, parse_iso

log = structlog.get_logger("agentd.heartbeat")

HEARTBEAT_OK = "HEARTBEAT_OK"
EPOCH = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
MAX_MISSED_ROWS = 1000
_INTERVAL = re.compile(r"^\s*(?:every\s+)?(\d+)\s*(s|sec|m|min|h|d)\s*$", re.I)
_UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}
_HOURS = re.compile(r"^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$")

Deliver = Callable[[str, str], Awaitable[None]]
OnTick = Callable[[str, str], None]


def job_zone(job: CronJob) -> dt.tzinfo:
    if job.timezone:
        return ZoneInfo(job.timezone)
    from tzlocal import get_localzone

    zone: dt.tzinfo = get_localzone()
    return zone


def make_trigger(job: CronJob) -> Any:
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


def validate_job(job: CronJob) -> None:
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


def in_active_hours(job: CronJob, when: dt.datetime) -> bool:
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


class Heartbeat:
    """Runs ticks of cron jobs through the runtime and records them in the tick log."""

    def __init__(
        self,
        runtime: Runtime,
        ticklog: TickLog,
        *,
        workdir: Path,
        deliver: Deliver | None = None,
        on_tick: OnTick | None = None,
    ) -> None:
        self.runtime = runtime
        self.ticklog = ticklog
        self.workdir = workdir
        self._deliver = deliver
        self._on_tick = on_tick

    def prompt_for(self, job: CronJob) -> str:
        if job.prompt:
            return job.prompt
        path = job.prompt_file or Path("HEARTBEAT.md")
        if not path.is_absolute():
            path = self.workdir / path
        text = path.read_text(encoding="utf-8").strip()
        if not text:
            raise ValueError(f"the heartbeat prompt file {path} is empty")
        return text

    def session_for(self, job: CronJob, scheduled_for: str) -> str:
        base = job.session or f"cron:{job.name}"
        return f"{base}:{scheduled_for}" if job.session_mode == "fresh" else base

    async def tick(self, job: CronJob, scheduled_for: str, kind: Kind = "scheduled") -> str | None:
        """Claim and run one tick; returns its status, or None when another process has it."""
        if not in_active_hours(job, parse_iso(scheduled_for)):
            await self.ticklog.record(job.name, [scheduled_for], "skipped", "outside active_hours")
            self._count(job, "skipped")
            return "skipped"
        if not await self.ticklog.claim(job.name, scheduled_for, kind):
            log.info("tick.taken", job=job.name, scheduled_for=scheduled_for)
            return None
        return await self.execute(job, scheduled_for)

    async def execute(self, job: CronJob, scheduled_for: str) -> str:
        """Run a tick whose row this process has claimed, and record how it ended."""
        session = self.session_for(job, scheduled_for)
        with (
            self.runtime.working(),
            structlog.contextvars.bound_contextvars(job=job.name, scheduled_for=scheduled_for),
        ):
            try:
                prompt = self.prompt_for(job)
                result = await self.runtime.ask(session, prompt, channel="cron")
                text = result.message.content.strip()
                delivered = False
                if text and text != HEARTBEAT_OK and job.deliver_to:
                    if self._deliver is None:
                        raise RuntimeError(f"no channel can deliver to {job.deliver_to!r}")
                    await self._deliver(job.deliver_to, text)
                    delivered = True
                await self.ticklog.finish(
                    job.name, scheduled_for, "ok", output=text, delivered=delivered
                )
                status = "ok"
            except anyio.get_cancelled_exc_class():
                with anyio.CancelScope(shield=True):
                    await self.ticklog.finish(
                        job.name, scheduled_for, "error", error="cancelled at shutdown"
                    )
                self._count(job, "error")
                raise
            except Exception as exc:
                log.warning("tick.failed", error=str(exc), exc_type=type(exc).__name__)
                await self.ticklog.finish(
                    job.name, scheduled_for, "error", error=f"{type(exc).__name__}: {exc}"
                )
                status = "error"
            finally:
                with anyio.CancelScope(shield=True):
                    await self._bound_session(job, session)
        log.info("tick.done", job=job.name, status=status)
        self._count(job, status)
        return status

    async def _bound_session(self, job: CronJob, session: str) -> None:
        # Keep heartbeat token use and storage flat: a fresh session per tick is forgotten
        # after it (the tick log keeps the reply); a shared one keeps its last `window` messages.
        if job.session_mode == "fresh":
            await self.runtime.forget(session)
            return
        conv = self.runtime.sessions.get(session)
        if conv is not None:
            conv.messages = trim(conv.messages, job.window)

    def _count(self, job: CronJob, status: str) -> None:
        if self._on_tick is not None:
            self._on_tick(job.name, status)

    async def catch_up(self, job: CronJob, trigger: Any, now: dt.datetime) -> None:
        """Record ticks missed while no daemon ran; with ``coalesce`` run the latest once."""
        last = await self.ticklog.last_scheduled(job.name)
        if last is None:
            return
        missed = [iso(t) for t in fire_times(trigger, parse_iso(last), now)]
        if not missed:
            return
        added = await self.ticklog.record(job.name, missed, "missed")
        for _ in range(added):
            self._count(job, "missed")
        log.info("tick.missed", job=job.name, missed=len(missed), catch_up=job.catch_up)
        if job.catch_up == "coalesce" and await self.ticklog.claim_missed(job.name, missed[-1]):
            await self.execute(job, missed[-1])
