"""Running agent tasks (:mod:`agentd.cron.tasks`) on the tick log, beside the configured jobs.

:class:`TaskScheduler` keeps a plan (each active task's next instant), rebuilt from the table
every ``poll`` seconds and at once when this process adds or cancels a task, and sleeps until the
next instant. Every run is claimed by inserting its tick (job ``task:<id>``), so two daemons
sharing the file run it once. A task seen for the first time after its instants passed (no
daemon ran then) catches up by its policy: ``missed`` rows for a recurring task's instants, and
with ``coalesce`` (the default) one run of the latest, late; a one-shot task due while no daemon
ran runs once, late, and says so; with ``skip`` it is recorded ``missed`` and done. A one-shot
task whose run was interrupted (the daemon killed or stopped during it) runs once more, late.

Each task records the history store of the daemon it was made on (its home:
:func:`agentd.cron.tasks.history_home`). Daemons that share one history (PostgreSQL) have one
home and any of them runs the task; otherwise only daemons on the task's own history run it
(:meth:`TaskScheduler._runs_here`), except a fresh-session task whose answer is sent to a chat
that this daemon's channels can reach, which any of them may run (and take over when its own
daemon is down).

A run is a turn in the task's tenant, in its own session (``task:<id>:<instant>``, forgotten
after the run; or ``task:<id>`` keeping a window), with the task's origin, so tools it calls see
where it came from. The answer goes back to the origin: sent to the chat on a channel that can
deliver (``telegram:<chat>``), else appended to the origin session's history; an answer of
exactly ``HEARTBEAT_OK`` is not delivered. An answer is never dropped: a delivery that fails is
tried again with backoff, up to ``deliver_attempts`` tries in all (fewer when the failure says
a retry cannot help); after that the run is recorded ``ok`` but undelivered
(:data:`agentd.cron.ticklog.UNDELIVERED`): the answer kept in the tick's output, the delivery's
failure in its error, shown by ``agentd tasks list`` and the console's Schedules page.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

import anyio
import structlog
from anyio.abc import TaskGroup

from agentd import origin as origins
from agentd import scope as scopes
from agentd.backoff import Backoff
from agentd.cron.heartbeat import HEARTBEAT_OK, Answer
from agentd.cron.schedule import fire_times
from agentd.cron.tasks import Task, TaskStore, next_due
from agentd.cron.ticklog import Kind, iso, parse_iso
from agentd.errors import ChannelError, ShuttingDown
from agentd.tools.policy import audience_of

log = structlog.get_logger("agentd.cron.tasks")

Deliver = Callable[[str, str], Awaitable[None]]
OnTick = Callable[[str, str], None]
#: Messages a window-mode task session keeps between runs.
WINDOW = 10
#: Tries to deliver one answer, and the backoff between them (seconds: first, longest).
DELIVER_ATTEMPTS = 5
DELIVER_BACKOFF = (2.0, 60.0)


class TaskTurns(Protocol):
    """What a task run needs of the runtime (:class:`agentd.engine.runtime.Runtime` is one)."""

    def working(self) -> AbstractContextManager[None]: ...
    async def ask(
        self, session_id: str, text: str, *, channel: str, audience: str | None = None
    ) -> Answer: ...
    async def forget(self, session_id: str) -> None: ...
    async def bound_session(self, session_id: str, keep: int) -> None: ...
    async def append_answer(self, session_id: str, text: str) -> None: ...


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def task_message(task: Task, scheduled_for: str, *, late: bool) -> str:
    """The user message of a task's run: what it is, when it was due, then its prompt."""
    label = f" {task.name!r}" if task.name else ""
    head = f"[Scheduled task {task.id}{label}, due {scheduled_for}"
    if late:
        head += (
            f"; it runs late, at {iso(_utcnow())}, because agentd was not running at the due"
            " time: say that it is late"
        )
    return f"{head}. The user asked earlier for this:]\n{task.prompt}"


def late_note(scheduled_for: str) -> str:
    return f"(late: this was due at {scheduled_for.replace('T', ' ').removesuffix('Z')} UTC)"


@dataclass(slots=True)
class _Plan:
    task: Task
    due: dt.datetime | None


class TaskScheduler:
    """Runs every tenant's agent tasks through the runtime; see the module docstring."""

    def __init__(
        self,
        store: TaskStore,
        runtime: TaskTurns,
        *,
        deliver: Deliver | None = None,
        can_deliver: Callable[[str], bool] = lambda channel: False,
        poll: float = 1.0,
        on_tick: OnTick | None = None,
        deliver_attempts: int = DELIVER_ATTEMPTS,
        deliver_backoff: tuple[float, float] = DELIVER_BACKOFF,
    ) -> None:
        self.store = store
        self.ticklog = store.ticklog
        self.runtime = runtime
        self._deliver = deliver
        self._can_deliver = can_deliver
        self.poll = poll
        #: How long after its instant a task first seen counts as missed (no daemon ran then)
        #: rather than just picked up: a poll and a bit.
        self.grace = dt.timedelta(seconds=max(2.0, 2 * poll))
        self._on_tick = on_tick
        self.deliver_attempts = max(1, deliver_attempts)
        self.deliver_backoff = deliver_backoff
        #: How often to look for runs a dead daemon left running (a daemon marks its own
        #: at its start; this finds those of another daemon on this host while this one runs).
        self.reap_every = max(5.0, 10 * poll)
        self._running: set[str] = set()
        self._read_error: str | None = None

    async def serve(self) -> None:
        """Run tasks until cancelled."""
        plan: dict[str, _Plan] = {}
        reaped = anyio.current_time()
        async with anyio.create_task_group() as tg:
            while True:
                if anyio.current_time() - reaped >= self.reap_every:
                    reaped = anyio.current_time()
                    await self._reap(plan)
                await self._refresh(plan, tg)
                now = _utcnow()
                for item in plan.values():
                    await self._fire_due(item, now, tg)
                upcoming = [p.due for p in plan.values() if p.due is not None]
                wait = self.poll
                if upcoming:
                    wait = min(wait, (min(upcoming) - _utcnow()).total_seconds() + 0.001)
                await self.store.wait_changed(wait)

    async def _reap(self, plan: dict[str, _Plan]) -> None:
        """Mark runs of daemons that died (on this host) interrupted while this one runs, and
        look at their one-shot tasks afresh: such a reminder runs once more, late."""
        try:
            dead = await self.ticklog.mark_interrupted(job_prefix="task:")
        except Exception as exc:
            log.warning("tasks.reap_failed", error=str(exc), exc_type=type(exc).__name__)
            return
        for job, scheduled_for in dead:
            log.warning("task.interrupted", job=job, scheduled_for=scheduled_for)
            task_id = job.removeprefix("task:")
            if task_id in plan and plan[task_id].task.one_shot:
                del plan[task_id]

    async def _refresh(self, plan: dict[str, _Plan], tg: TaskGroup) -> None:
        try:
            active = {t.id: t for t in await self.store.active() if self._runs_here(t)}
        except Exception as exc:  # a malformed row: say so (once), keep the plan, try again
            if str(exc) != self._read_error:
                log.error("tasks.read_failed", error=str(exc), exc_type=type(exc).__name__)
            self._read_error = str(exc)
            return
        self._read_error = None
        for task_id in [t for t in plan if t not in active]:
            del plan[task_id]
        for task in active.values():
            if task.id not in plan:
                plan[task.id] = _Plan(task, await self._first_sight(task, tg))

    def _runs_here(self, task: Task) -> bool:
        """Whether this daemon may run ``task``: its answer must land where it was asked.

        A task made on this daemon's history store (its file, or the PostgreSQL database the
        daemons share) runs here; so does one made before homes were recorded. Another
        daemon's task runs here only if its answer does not go into a history: a fresh
        session whose answer a channel of this daemon sends to the chat (``telegram:<chat>``).
        """
        if task.home is None or task.home == self.store.home:
            return True
        return (
            task.session_mode == "fresh"
            and bool(task.origin.address)
            and self._can_deliver(task.origin.channel)
        )

    async def _fire_due(self, item: _Plan, now: dt.datetime, tg: TaskGroup) -> None:
        task = item.task
        while item.due is not None and item.due <= now:
            when = iso(item.due)
            item.due = None if task.one_shot else next_due(task, item.due)
            if task.id in self._running:
                # A task never overlaps itself: an instant that passes during a run is skipped.
                await self.ticklog.record(
                    task.job, [when], "skipped", "the previous run was still running"
                )
                self._count("skipped")
                continue
            self._running.add(task.id)
            tg.start_soon(self._claim_and_run, task, when)

    async def _first_sight(self, task: Task, tg: TaskGroup) -> dt.datetime | None:
        """The task's next instant, after catching up on what passed while no daemon ran."""
        now = _utcnow()
        cutoff = now - self.grace
        with structlog.contextvars.bound_contextvars(task=task.id, tenant=task.tenant):
            if task.one_shot:
                return await self._first_sight_once(task, parse_iso(task.spec), cutoff, tg)
            last_text = await self.ticklog.last_scheduled(task.job)
            last = parse_iso(last_text or task.created_at)
            missed = [iso(t) for t in fire_times(task.when.trigger(), last, cutoff)]
            if missed:
                added = await self.ticklog.record(task.job, missed, "missed")
                for _ in range(added):
                    self._count("missed")
                log.info("task.missed", missed=len(missed), catch_up=task.catch_up)
                if task.catch_up == "coalesce" and await self.ticklog.claim_missed(
                    task.job, missed[-1]
                ):
                    self._start(tg, task, missed[-1], late=True)
            return next_due(task, max(last, cutoff))

    async def _first_sight_once(
        self, task: Task, due: dt.datetime, cutoff: dt.datetime, tg: TaskGroup
    ) -> dt.datetime | None:
        when = iso(due)
        tick = await self.ticklog.get(task.job, when)
        if tick is None:
            if due > cutoff:
                return due
            if task.catch_up == "skip":
                await self.ticklog.record(task.job, [when], "missed")
                self._count("missed")
                await self.store.finish(task.id)
                log.info("task.missed", missed=1, catch_up="skip")
            elif await self.ticklog.claim(task.job, when, "catch_up"):
                log.info("task.late", due=when)
                self._start(tg, task, when, late=True)
            return None
        if tick.status == "running":
            return None  # another daemon runs it; it marks the task done
        if await self.ticklog.claim_retry(task.job, when):
            log.info("task.retry_interrupted", due=when)
            self._start(tg, task, when, late=True)
        elif tick.status != "error" or tick.error != "interrupted" or tick.kind == "catch_up":
            await self.store.finish(task.id)  # it ran (a daemon died before marking it done)
        return None

    def _start(self, tg: TaskGroup, task: Task, when: str, *, late: bool) -> None:
        self._running.add(task.id)
        tg.start_soon(self._run_claimed, task, when, late)

    async def _claim_and_run(self, task: Task, when: str, kind: Kind = "scheduled") -> None:
        claimed = False
        try:
            claimed = await self.ticklog.claim(task.job, when, kind)
        finally:
            if not claimed:  # another daemon has it (or the claim failed): not running here
                self._running.discard(task.id)
        if not claimed:
            log.info("task.taken", task=task.id, scheduled_for=when)
            return
        await self._run_claimed(task, when, False)

    async def _run_claimed(self, task: Task, when: str, late: bool) -> None:
        try:
            await self.execute(task, when, late=late)
        finally:
            self._running.discard(task.id)

    async def execute(self, task: Task, when: str, *, late: bool = False) -> str:
        """Run a task's tick that this process has claimed; record how it ended."""
        fresh = task.session_mode == "fresh"
        session = f"task:{task.id}:{when}" if fresh else f"task:{task.id}"
        status = "error"
        with (
            self.runtime.working(),
            scopes.use(scopes.Scope(tenant=task.tenant)),
            origins.use(task.origin),
            structlog.contextvars.bound_contextvars(
                task=task.id, tenant=task.tenant, scheduled_for=when, late=late
            ),
        ):
            try:
                result = await self.runtime.ask(
                    session,
                    task_message(task, when, late=late),
                    channel="cron",
                    audience=run_audience(task),
                )
                text = result.message.content.strip()
                delivered, failure = await self._send_kept(task, text, when, late)
                await self.ticklog.finish(
                    task.job, when, "ok", output=text, delivered=delivered, error=failure
                )
                status = "ok" if failure is None else "undelivered"
            except anyio.get_cancelled_exc_class():
                with anyio.CancelScope(shield=True):
                    # Stopped mid-run: marked interrupted, so a one-shot task runs once more.
                    await self.ticklog.finish(task.job, when, "error", error="interrupted")
                self._count("error")
                raise
            except ShuttingDown:
                # Due while the daemon drains: the same, a reminder is not lost to a restart.
                await self.ticklog.finish(task.job, when, "error", error="interrupted")
                self._count("error")
                return "error"
            except Exception as exc:
                log.warning("task.failed", error=str(exc), exc_type=type(exc).__name__)
                await self.ticklog.finish(
                    task.job, when, "error", error=f"{type(exc).__name__}: {exc}"
                )
            finally:
                with anyio.CancelScope(shield=True):
                    await self._bound_session(task, session)
            if task.one_shot:
                await self.store.finish(task.id)
        log.info("task.done", task=task.id, status=status, late=late)
        self._count(status)
        return status

    async def _send_kept(
        self, task: Task, text: str, when: str, late: bool
    ) -> tuple[bool, str | None]:
        """Deliver ``text`` (see :meth:`_send`), retrying with backoff: (delivered, None), or
        (False, why) once the tries are used up or a retry cannot help."""
        backoff = Backoff(*self.deliver_backoff)
        for attempt in range(1, self.deliver_attempts + 1):
            try:
                return await self._send(task, text, when, late), None
            except Exception as exc:
                failure = f"{type(exc).__name__}: {exc}"
                if attempt == self.deliver_attempts or getattr(exc, "retryable", True) is False:
                    log.warning("task.undelivered", attempts=attempt, error=failure)
                    return False, f"not delivered after {attempt} tries: {failure}"
                log.info("task.deliver_retry", attempt=attempt, error=failure)
                wait = exc.retry_after if isinstance(exc, ChannelError) else None
                await anyio.sleep(backoff.next_delay(retry_after=wait))
        raise AssertionError("unreachable")

    async def _send(self, task: Task, text: str, when: str, late: bool) -> bool:
        """Deliver ``text`` to the task's origin; whether it went anywhere."""
        if not text or text == HEARTBEAT_OK:
            return False
        if late:
            text = f"{late_note(when)}\n{text}"
        origin = task.origin
        if origin.address and self._can_deliver(origin.channel):
            if self._deliver is None:
                raise RuntimeError(f"no channel can deliver to {origin.describe()!r}")
            await self._deliver(f"{origin.channel}:{origin.address}", text)
            return True
        if origin.session:
            await self.runtime.append_answer(origin.session, text)
            return True
        return False

    async def _bound_session(self, task: Task, session: str) -> None:
        try:
            if task.session_mode == "fresh":
                await self.runtime.forget(session)
            else:
                await self.runtime.bound_session(session, WINDOW)
        except Exception as exc:
            log.warning("task.session_cleanup_failed", error=str(exc))

    def _count(self, status: str) -> None:
        if self._on_tick is not None:
            self._on_tick("task", status)


def run_audience(task: Task) -> str:
    """The tool policy's audience of a task's runs.

    A task an agent scheduled runs with no more tools than the chat it was made in could have
    had: the narrowest audience of its origin's channel (a Telegram task gets the group rule,
    an HTTP one the non-admin rule), since which of that channel's audiences made it is not
    stored. Without this, a group chat denied ``exec`` could schedule a task that runs it. An
    operator's task (``agentd tasks add``) runs as the operator's cron jobs do.
    """
    return audience_of(task.origin.channel) if task.created_by == "agent" else "cron"
