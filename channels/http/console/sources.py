"""What the Schedules and Health pages list, behind small seams.

A :class:`ScheduleSource` lists scheduled work (its next fire) and its recent runs, and may run
one now: :class:`ConfiguredJobs` (the configured cron jobs) and :class:`AgentTasks` (what agents
scheduled), both on the daemon's open tick log. A :class:`HealthSource` reports components with
their state: :class:`ReadinessHealth` (what ``/readyz`` checks: model server, long-term memory,
channels) and :class:`McpHealth` (the MCP servers). The console shows every source it is given.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from agentd.config import CronJob
from agentd.cron.schedule import make_trigger
from agentd.cron.tasks import TaskStore, next_due
from agentd.cron.ticklog import Tick, TickLog

if TYPE_CHECKING:
    from agentd.mcp.servers import ServerInfo

#: Runs one tick of the named job now; returns its status (ok, error, ...).
RunNow = Callable[[str], Awaitable[str | None]]


@dataclass(frozen=True, slots=True)
class Scheduled:
    """One piece of scheduled work: its name, kind, schedule, tenant and next fire (UTC)."""

    name: str
    kind: str
    schedule: str
    tenant: str
    next_fire: dt.datetime | None
    runnable: bool = False


class ScheduleSource(Protocol):
    """Scheduled work of one kind (configured jobs, agent tasks...)."""

    async def scheduled(self) -> Sequence[Scheduled]: ...

    async def runs(
        self, *, job: str | None = None, status: str | None = None, limit: int = 100
    ) -> Sequence[Tick]: ...

    async def run_now(self, name: str) -> str | None:
        """Run ``name`` once now; raises KeyError when this source has no such job."""
        ...


class ConfiguredJobs:
    """The configured cron jobs (``cron.jobs``) and the heartbeat tick log."""

    def __init__(
        self, jobs: Sequence[CronJob], ticks: TickLog | None, tenant: str, run: RunNow | None
    ) -> None:
        self.jobs = list(jobs)
        self.ticks = ticks
        self.tenant = tenant
        self._run = run

    async def scheduled(self) -> list[Scheduled]:
        now = dt.datetime.now(dt.UTC)
        out = []
        for job in self.jobs:
            nxt = make_trigger(job).get_next_fire_time(None, now)
            out.append(
                Scheduled(
                    job.name,
                    "cron job",
                    job.schedule,
                    self.tenant,
                    nxt.astimezone(dt.UTC) if nxt is not None else None,
                    runnable=self._run is not None,
                )
            )
        return out

    async def runs(
        self, *, job: str | None = None, status: str | None = None, limit: int = 100
    ) -> list[Tick]:
        if self.ticks is None:
            return []
        return await self.ticks.list(job=job, status=status, limit=limit)

    async def run_now(self, name: str) -> str | None:
        if self._run is None or name not in {job.name for job in self.jobs}:
            raise KeyError(name)
        return await self._run(name)


@dataclass(frozen=True, slots=True)
class Component:
    """A part of the daemon and its state (``ok`` and ``serving`` are good)."""

    kind: str
    name: str
    state: str
    detail: str = ""

    @property
    def good(self) -> bool:
        return self.state in ("ok", "serving")


class HealthSource(Protocol):
    """Components of one kind and their state (readiness checks, MCP servers...). A source
    with a true ``admin_only`` attribute is shown to admins only."""

    async def components(self) -> Sequence[Component]: ...


class ReadinessHealth:
    """What ``/readyz`` checks: the model server, long-term memory and the channels."""

    def __init__(
        self,
        *,
        llm: Callable[[], Awaitable[bool]] | None,
        memory: Callable[[], str] | None,
        channels: Callable[[], Mapping[str, bool]],
    ) -> None:
        self._llm = llm
        self._memory = memory
        self._channels = channels

    async def components(self) -> list[Component]:
        out = []
        if self._llm is not None:
            ok = await self._llm()
            out.append(Component("model", "model server", "ok" if ok else "unreachable"))
        memory = self._memory() if self._memory is not None else "off"
        out.append(Component("memory", "long-term memory (Milvus)", memory))
        channels = {"http": True, **self._channels()}
        out.extend(
            Component("channel", name, "serving" if up else "down")
            for name, up in sorted(channels.items())
        )
        return out


class AgentTasks:
    """The tasks agents scheduled (``schedule_task``), every tenant's, and their runs."""

    def __init__(self, store: TaskStore) -> None:
        self.store = store

    async def scheduled(self) -> list[Scheduled]:
        """The active tasks, and those done with an answer that could not be delivered (so
        their runs, with the kept answer, stay on the page)."""
        now = dt.datetime.now(dt.UTC)
        out = []
        for task in [*await self.store.active(), *await self.store.undelivered()]:
            nxt = next_due(task, now) if task.status == "active" else None
            kind = f"agent task: {task.name}" if task.name else "agent task"
            out.append(
                Scheduled(
                    task.job,
                    kind if task.status == "active" else f"{kind} (undelivered answer)",
                    task.describe(),
                    task.tenant,
                    nxt.astimezone(dt.UTC) if nxt is not None else None,
                )
            )
        return out

    async def runs(
        self, *, job: str | None = None, status: str | None = None, limit: int = 100
    ) -> list[Tick]:
        return await self.store.ticklog.list(job=job, status=status, limit=limit)

    async def run_now(self, name: str) -> str | None:
        raise KeyError(name)  # a task runs when it is due; the console does not run it early


class McpHealth:
    """The MCP servers' links: up, starting or down, with their tools and reconnects.

    Admins only: the servers are the daemon's (some limited to other tenants), and a server's
    last error may quote what it printed.
    """

    admin_only = True

    def __init__(self, servers: Callable[[], Sequence[ServerInfo]]) -> None:
        self._servers = servers

    async def components(self) -> list[Component]:
        out = []
        for info in self._servers():
            detail = f"{info.transport}, {len(info.tools)} tools, {info.reconnects} reconnects"
            if info.error:
                detail += f"; {info.error}"
            state = "ok" if info.state == "up" else info.state
            out.append(Component("MCP server", info.name, state, detail))
        return out
