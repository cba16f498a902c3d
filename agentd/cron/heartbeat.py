"""Heartbeat ticks: what one tick does (when a job fires is :mod:`agentd.cron.schedule`).

A tick is claimed in the :class:`~agentd.cron.ticklog.TickLog` before it runs, runs one agent
turn on a bounded session, and delivers the reply unless it is exactly ``HEARTBEAT_OK``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

import anyio
import structlog

from agentd.config import CronJob
from agentd.cron.schedule import fire_times, in_active_hours
from agentd.cron.ticklog import Kind, TickLog, iso, parse_iso
from agentd.errors import ToolError
from agentd.messages import Message
from agentd.tools.workdir_fs import inside, read_text

log = structlog.get_logger("agentd.cron.heartbeat")

HEARTBEAT_OK = "HEARTBEAT_OK"

Deliver = Callable[[str, str], Awaitable[None]]
OnTick = Callable[[str, str], None]


class Answer(Protocol):
    @property
    def message(self) -> Message: ...


class TurnRunner(Protocol):
    """What a tick needs of the runtime (:class:`agentd.engine.runtime.Runtime` is one)."""

    def working(self) -> AbstractContextManager[None]: ...
    async def ask(self, session_id: str, text: str, *, channel: str) -> Answer: ...
    async def forget(self, session_id: str) -> None: ...
    async def bound_session(self, session_id: str, keep: int) -> None: ...
    async def save_progress(self, run_id: str, value: object) -> None: ...
    async def load_progress(self, run_id: str) -> object: ...
    async def clear_progress(self, run_id: str) -> None: ...


def run_id(job: CronJob, scheduled_for: str) -> str:
    """The working-memory run id of one tick."""
    return f"tick:{job.name}:{scheduled_for}"


class Heartbeat:
    """Runs ticks of cron jobs through the runtime and records them in the tick log."""

    def __init__(
        self,
        runtime: TurnRunner,
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
        """The job's prompt, or its prompt file's text (read afresh for every tick).

        A prompt file in the workdir, where the agent writes, is read without following
        symlinks or hard links. A file that is missing or cannot be read raises, which makes
        the tick an error.
        """
        if job.prompt:
            return job.prompt
        path = (job.prompt_file or Path("HEARTBEAT.md")).expanduser()
        parts = inside(self.workdir, path)
        if not path.is_absolute():
            path = self.workdir / path
        try:
            if parts is None:
                text: str | None = path.read_text(encoding="utf-8")
            else:
                text = read_text(self.workdir, parts)
        except FileNotFoundError:
            text = None
        except (OSError, UnicodeDecodeError, ToolError) as exc:
            raise ValueError(f"the heartbeat prompt file {path} cannot be read: {exc}") from None
        if text is None:
            raise ValueError(f"the heartbeat prompt file {path} does not exist")
        if not text.strip():
            raise ValueError(f"the heartbeat prompt file {path} is empty")
        return text.strip()

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
                # Progress in working memory: a daemon killed from here on finishes the tick
                # at its next start (recover) instead of losing the answer or sending it twice.
                await self.runtime.save_progress(run_id(job, scheduled_for), {"answer": text})
                await self._finish(job, scheduled_for, text)
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

    async def _finish(self, job: CronJob, scheduled_for: str, text: str) -> None:
        run = run_id(job, scheduled_for)
        delivered = False
        if text and text != HEARTBEAT_OK and job.deliver_to:
            if self._deliver is None:
                raise RuntimeError(f"no channel can deliver to {job.deliver_to!r}")
            await self._deliver(job.deliver_to, text)
            delivered = True
            await self.runtime.save_progress(run, {"answer": text, "delivered": True})
        await self.ticklog.finish(job.name, scheduled_for, "ok", output=text, delivered=delivered)
        await self.runtime.clear_progress(run)

    async def recover(self, job: CronJob, scheduled_for: str) -> str | None:
        """Finish a tick a killed daemon left running, from its saved progress.

        An answer that was not delivered yet is delivered now (once); a tick with no saved
        answer stays ``error: interrupted``. Returns the new status, or None.
        """
        progress = await self.runtime.load_progress(run_id(job, scheduled_for))
        if not isinstance(progress, dict) or not isinstance(progress.get("answer"), str):
            return None
        text: str = progress["answer"]
        with structlog.contextvars.bound_contextvars(job=job.name, scheduled_for=scheduled_for):
            try:
                if progress.get("delivered"):
                    await self.ticklog.finish(
                        job.name, scheduled_for, "ok", output=text, delivered=True
                    )
                    await self.runtime.clear_progress(run_id(job, scheduled_for))
                else:
                    await self._finish(job, scheduled_for, text)
            except Exception as exc:
                log.warning("tick.recover_failed", error=str(exc), exc_type=type(exc).__name__)
                return "error"
            log.info("tick.recovered", delivered=bool(job.deliver_to))
        self._count(job, "ok")
        return "ok"

    async def _bound_session(self, job: CronJob, session: str) -> None:
        # Keep heartbeat token use and storage flat: a fresh session per tick is forgotten
        # after it (the tick log keeps the reply); a shared one keeps its last `window` messages.
        if job.session_mode == "fresh":
            await self.runtime.forget(session)
        else:
            await self.runtime.bound_session(session, job.window)

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
