"""The heartbeat channel: every job's fire times, each tick claimed in the SQLite tick log.

One task per job sleeps until the next fire time of its APScheduler trigger and runs the tick
inline, so a job never overlaps itself: fire times that pass while a tick runs are recorded as
``skipped``. On start, ticks missed while no daemon ran are recorded as ``missed`` (and, with
``catch_up: coalesce``, the latest runs once), and ticks left ``running`` by a dead process are
marked interrupted.

Agent tasks (:mod:`agentd.cron.taskrun`) run in the same task group on the same tick log: one
scheduler for the operator's jobs and the agent's tasks, and ``agentd ticks`` shows both.

APScheduler's ``AsyncIOScheduler`` is not used to run the jobs: it starts them as bare tasks
outside the daemon's task group, does not tell a job which fire time it is running, and its
misfire handling knows nothing about time the process was down. Its triggers do the calendar
work; the tick log does the bookkeeping.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from contextlib import AsyncExitStack
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Self

import anyio
import structlog
from anyio.abc import TaskStatus

from agentd.config import CronJob
from agentd.cron.heartbeat import Deliver, Heartbeat, OnTick
from agentd.cron.schedule import fire_times, make_trigger, next_fire
from agentd.cron.taskrun import TaskScheduler
from agentd.cron.tasks import TaskStore
from agentd.cron.ticklog import TickLog, iso

if TYPE_CHECKING:
    from agentd.engine.runtime import Runtime

log = structlog.get_logger("channels.cron")


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class CronChannel:
    """Runs the configured heartbeat jobs."""

    name = "cron"

    def __init__(
        self,
        jobs: Sequence[CronJob],
        *,
        ticks_path: Path | str,
        workdir: Path,
        deliver: Deliver | None = None,
        on_tick: OnTick | None = None,
        tasks: TaskStore | None = None,
        can_deliver: Callable[[str], bool] = lambda channel: False,
        task_poll: float = 1.0,
    ) -> None:
        self.jobs = list(jobs)
        self.tasks = tasks
        self._can_deliver = can_deliver
        self._task_poll = task_poll
        self._ticks_path = ticks_path
        self._workdir = workdir
        self._deliver = deliver
        self._on_tick = on_tick
        self._ticklog: TickLog | None = None
        self._stack: AsyncExitStack | None = None

    async def __aenter__(self) -> Self:
        async with AsyncExitStack() as stack:
            self._ticklog = await stack.enter_async_context(TickLog.connect(self._ticks_path))
            self._stack = stack.pop_all()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        stack, self._stack, self._ticklog = self._stack, None, None
        if stack is not None:
            await stack.aclose()

    def heartbeat(self, runtime: Runtime) -> Heartbeat:
        assert self._ticklog is not None, "use the channel as an async context manager"
        return Heartbeat(
            runtime,
            self._ticklog,
            workdir=self._workdir,
            deliver=self._deliver,
            on_tick=self._on_tick,
        )

    def task_scheduler(self, runtime: Runtime) -> TaskScheduler:
        assert self.tasks is not None, "no task store was given"
        return TaskScheduler(
            self.tasks,
            runtime,
            deliver=self._deliver,
            can_deliver=self._can_deliver,
            poll=self._task_poll,
            on_tick=self._on_tick,
        )

    async def serve(self, runtime: Runtime, *, task_status: TaskStatus[None]) -> None:
        heartbeat = self.heartbeat(runtime)
        interrupted = await heartbeat.ticklog.mark_interrupted()
        if interrupted:
            log.warning("tick.interrupted", count=len(interrupted))
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._recover, heartbeat, interrupted)
            for job in self.jobs:
                tg.start_soon(self._job_loop, heartbeat, job)
            if self.tasks is not None:
                tg.start_soon(self.task_scheduler(runtime).serve)
            log.info("cron.serving", jobs=[job.name for job in self.jobs], tasks=bool(self.tasks))
            task_status.started()

    async def run_now(self, runtime: Runtime, name: str) -> str | None:
        """Run one tick of job ``name`` now, recorded as ``manual``; returns its status.

        Raises KeyError when no configured job has that name.
        """
        job = next((j for j in self.jobs if j.name == name), None)
        if job is None:
            raise KeyError(name)
        return await self.heartbeat(runtime).tick(job, iso(_utcnow()), kind="manual")

    async def _recover(self, heartbeat: Heartbeat, ticks: list[tuple[str, str]]) -> None:
        jobs = {job.name: job for job in self.jobs}
        for name, scheduled_for in ticks:
            if name in jobs:
                await heartbeat.recover(jobs[name], scheduled_for)

    async def _job_loop(self, heartbeat: Heartbeat, job: CronJob) -> None:
        trigger = make_trigger(job)
        await heartbeat.catch_up(job, trigger, _utcnow())
        previous: dt.datetime | None = None
        while True:
            now = _utcnow()
            upcoming = trigger.get_next_fire_time(None, now)
            if previous is not None and upcoming is not None and upcoming <= previous:
                upcoming = next_fire(trigger, previous)
            if upcoming is None:
                log.info("cron.job_finished", job=job.name)
                return
            await anyio.sleep(max(0.0, (upcoming - _utcnow()).total_seconds()))
            await heartbeat.tick(job, iso(upcoming))
            previous = upcoming
            # Fire times that passed while the tick ran: the job never overlaps itself.
            overrun = fire_times(trigger, upcoming, _utcnow() - dt.timedelta(milliseconds=1))
            if overrun:
                skipped = [iso(t) for t in overrun]
                await heartbeat.ticklog.record(
                    job.name, skipped, "skipped", "the previous tick was still running"
                )
                previous = overrun[-1]
