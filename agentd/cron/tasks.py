"""Agent tasks: reminders and recurring jobs that the agent (or the operator) schedules.

A task is a row of ``agent_tasks`` in the tick log's database (SQLite or PostgreSQL), owned by
one tenant and remembering where it came from (its origin: channel, chat address, session), so
that its answer goes back there. Each run of a task is a tick of the job ``task:<id>`` in
``cron_ticks``, with the tick log's guarantees (:mod:`agentd.cron.taskrun` runs them).
When is one of:

- ``at``: one instant (an ISO date-time; without an offset, in the task's timezone);
- ``in``: a delay from now (``"10s"``, ``"2h30m"``, ``"2.5h"``, ``"1 day"``), stored as the instant;
- ``every``: an interval (``"30m"``), aligned to the epoch like configured jobs;
- ``cron``: a cron line of 5 fields (6 with seconds first), in the task's timezone.

Every method that a tenant reaches reads the tenant from :func:`agentd.scope.current` (fail
closed); another tenant's task is answered exactly like an unknown one. Rows are decoded
strictly: a malformed row fails the read with :class:`~agentd.errors.StoredRowError` naming the
task id, never its content.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import re
import secrets
import socket
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

import anyio

from agentd import scope as scopes
from agentd.config import Settings
from agentd.cron.schedule import make_trigger, next_fire
from agentd.cron.ticklog import UNDELIVERED_SQL, TickLog, iso, parse_iso
from agentd.errors import StoredRowError
from agentd.origin import Origin
from agentd.zones import find_zone

Kind = Literal["at", "every", "cron"]
CatchUp = Literal["coalesce", "skip"]
SessionMode = Literal["fresh", "window"]
Status = Literal["active", "done", "cancelled"]
KINDS: tuple[str, ...] = ("at", "every", "cron")
CATCH_UPS: tuple[str, ...] = ("coalesce", "skip")
SESSION_MODES: tuple[str, ...] = ("fresh", "window")
STATUSES: tuple[str, ...] = ("active", "done", "cancelled")
MAX_PROMPT = 4000
MAX_NAME = 100
#: Fire times looked at to find a cron line's shortest gap.
_GAPS = 12
_DURATION = re.compile(
    r"(\d+(?:[.,]\d+)?)\s*(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w)(?![a-z])",
    re.I,
)
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
#: The longest delay or interval read (a hundred years): beyond it a date overflows.
MAX_DURATION = 100 * 365 * 86400
_COLUMNS = (
    "id, tenant, name, prompt, kind, spec, timezone, catch_up, session_mode, origin_channel,"
    " origin_address, origin_session, status, created_at, created_by, home"
)


class TaskRefused(ValueError):
    """A task cannot be scheduled or found; the message says why and what to do."""


def history_home(settings: Settings) -> str:
    """Which history store a daemon appends answers to, as tasks record it: the SQLite file
    on this host, or the PostgreSQL database (host, port, name; never the credentials)."""
    url = settings.history_url
    if url is None:
        return f"sqlite:{socket.gethostname()}:{settings.history_path.resolve()}"
    parts = urllib.parse.urlsplit(url)
    return f"postgresql:{parts.hostname or ''}:{parts.port or 5432}{parts.path}"


def job_name(task_id: str) -> str:
    """The tick log's job name of a task's runs."""
    return f"task:{task_id}"


@dataclass(frozen=True, slots=True)
class When:
    """A validated schedule: ``at`` an instant (UTC ``spec``), or ``every``/``cron``."""

    kind: Kind
    spec: str
    timezone: str | None = None

    @property
    def schedule(self) -> str:
        """The schedule string :func:`agentd.cron.schedule.make_trigger` reads."""
        return self.spec

    @property
    def active_hours(self) -> str | None:
        return None

    def trigger(self) -> Any:
        """The APScheduler trigger of a recurring task (``every``/``cron``)."""
        return make_trigger(self)


@dataclass(frozen=True, slots=True)
class Task:
    id: str
    tenant: str
    name: str | None
    prompt: str
    kind: Kind
    spec: str
    timezone: str | None
    catch_up: CatchUp
    session_mode: SessionMode
    origin: Origin
    status: Status
    created_at: str
    created_by: str
    #: The history store its answers belong in (:func:`history_home`); None: made before
    #: homes were recorded, any daemon runs it.
    home: str | None = None

    @property
    def job(self) -> str:
        return job_name(self.id)

    @property
    def when(self) -> When:
        return When(self.kind, self.spec, self.timezone)

    @property
    def one_shot(self) -> bool:
        return self.kind == "at"

    def describe(self) -> str:
        """One line for people and the model: id, name, schedule, where the answer goes."""
        label = f" {self.name!r}" if self.name else ""
        zone = f" ({self.timezone})" if self.timezone and self.kind == "cron" else ""
        what = {"at": "at", "every": "every", "cron": "cron"}[self.kind]
        prompt = " ".join(self.prompt.split())
        prompt = prompt if len(prompt) <= 80 else prompt[:79] + "…"
        return (
            f"{self.id}{label}: {what} {self.spec}{zone}, {self.status}, "
            f"to {self.origin.describe()}: {prompt}"
        )


def parse_zone(name: str | None) -> dt.tzinfo | None:
    """The zone named ``name`` (None for None); TaskRefused for an unknown name."""
    if name is None:
        return None
    zone = find_zone(name)
    if zone is None:
        raise TaskRefused(
            f"unknown timezone {name!r}: use an IANA name like 'Europe/Berlin' or 'UTC'"
        )
    return zone


def parse_duration(text: str) -> int:
    """Seconds in ``"90s"``, ``"2h30m"``, ``"1 day"``, ``"2.5h"`` (a fraction rounded up to a
    whole second, its decimal mark a point or a comma); TaskRefused when it is not one or is
    longer than :data:`MAX_DURATION`."""
    rest = _DURATION.sub("", text).replace(",", "").replace("and", "").strip()
    parts = _DURATION.findall(text)
    if not parts or rest:
        raise TaskRefused(
            f"cannot read the duration {text!r}: write it like '10s', '5m', '2h30m' or '1d'"
        )
    # Decimal, not float: 0.1 h is 360 s, not 360.00000000000006 rounded up to 361.
    exact = sum(Decimal(n.replace(",", ".")) * _UNIT[unit[0].lower()] for n, unit in parts)
    if exact > MAX_DURATION:
        raise TaskRefused(f"the duration {text!r} is too long: at most {MAX_DURATION // 86400}d")
    return math.ceil(exact)


def _instant(text: str, zone: dt.tzinfo | None) -> dt.datetime:
    try:
        when = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise TaskRefused(
            f"cannot read the time {text!r}: write an ISO date-time like '2026-05-01T07:00:00'"
            " (with a timezone, or the timezone argument)"
        ) from None
    if when.tzinfo is None:
        if zone is None:
            from tzlocal import get_localzone

            zone = get_localzone()
        when = when.replace(tzinfo=zone)
    return when


def _ceil_second(when: dt.datetime) -> dt.datetime:
    # Ticks are keyed by whole seconds: never round an instant earlier than asked.
    whole = when.replace(microsecond=0)
    return whole if whole == when else whole + dt.timedelta(seconds=1)


def parse_when(
    *,
    at: str | None = None,
    in_: str | None = None,
    every: str | None = None,
    cron: str | None = None,
    timezone: str | None = None,
    min_interval: float,
    now: dt.datetime | None = None,
) -> When:
    """Validate exactly one of ``at``/``in_``/``every``/``cron``; TaskRefused says what is wrong."""
    given = {k: v for k, v in {"at": at, "in": in_, "every": every, "cron": cron}.items() if v}
    if len(given) != 1:
        named = ", ".join(given) or "none"
        raise TaskRefused(
            f"give exactly one of at, in, every or cron (got {named}): 'at' for a time, 'in' for"
            " a delay from now, 'every' or 'cron' for a recurring task"
        )
    zone = parse_zone(timezone)
    now = now or dt.datetime.now(dt.UTC)
    if at or in_:
        if at:
            instant = _instant(at, zone)
        else:
            seconds = parse_duration(in_ or "")
            if seconds < 1:
                raise TaskRefused("the delay must be at least 1s")
            instant = now + dt.timedelta(seconds=seconds)
        instant = _ceil_second(instant)
        if instant <= now:
            raise TaskRefused(
                f"{instant.isoformat()} is in the past (now is {iso(now)}): give a future time"
            )
        return When("at", iso(instant), timezone)
    if every:
        seconds = parse_duration(every.strip().removeprefix("every ").strip())
        when = When("every", f"{seconds}s", timezone)
        gap = float(seconds)
    else:
        when = When("cron", " ".join((cron or "").split()), timezone)
        gap = _shortest_gap(when, now)
    if gap < min_interval:
        raise TaskRefused(
            f"that repeats every {gap:g}s; the shortest interval allowed is {min_interval:g}s"
        )
    return when


def _shortest_gap(when: When, now: dt.datetime) -> float:
    try:
        trigger = when.trigger()
    except Exception as exc:  # a bad cron field (ValueError), from APScheduler
        raise TaskRefused(
            f"cannot read the cron line {when.spec!r} ({exc}): write 5 fields, e.g."
            " '0 9 * * MON' for Mondays at 9:00"
        ) from None
    times: list[dt.datetime] = []
    current = now
    for _ in range(_GAPS):
        nxt = next_fire(trigger, current)
        if nxt is None:
            break
        times.append(nxt)
        current = nxt
    if len(times) < 2:
        return math.inf
    return min((b - a).total_seconds() for a, b in itertools.pairwise(times))


def next_due(task: Task, after: dt.datetime) -> dt.datetime | None:
    """The task's first instant strictly after ``after`` (an ``at`` task: its one instant)."""
    if task.kind == "at":
        return parse_iso(task.spec)
    return next_fire(task.when.trigger(), after)


class TaskStore:
    """Tasks in the tick log's file. Tenant methods read the scope; the scheduler's do not."""

    def __init__(self, ticklog: TickLog, home: str | None = None) -> None:
        self.ticklog = ticklog
        #: This process's history store (:func:`history_home`): new tasks are made with it.
        self.home = home
        self._changed = anyio.Event()

    def changed(self) -> None:
        """Wake the scheduler: a task was added or cancelled in this process."""
        self._changed.set()

    async def wait_changed(self, seconds: float) -> None:
        """Return after ``seconds`` or when :meth:`changed` is called, if sooner."""
        with anyio.move_on_after(max(0.0, seconds)):
            await self._changed.wait()
        if self._changed.is_set():
            self._changed = anyio.Event()

    async def add(
        self,
        prompt: str,
        when: When,
        origin: Origin,
        *,
        name: str | None = None,
        catch_up: CatchUp = "coalesce",
        session_mode: SessionMode = "fresh",
        created_by: str = "agent",
        max_tasks: int = 0,
    ) -> Task:
        """Store a new active task of the current tenant; TaskRefused past ``max_tasks``."""
        tenant = scopes.current().tenant
        prompt = prompt.strip()
        if not prompt:
            raise TaskRefused("the prompt is empty: say what to do when the task runs")
        if len(prompt) > MAX_PROMPT:
            raise TaskRefused(f"the prompt has {len(prompt)} characters; at most {MAX_PROMPT}")
        if name is not None and len(name) > MAX_NAME:
            raise TaskRefused(f"the name has {len(name)} characters; at most {MAX_NAME}")
        task = Task(
            id="t-" + secrets.token_hex(4),
            tenant=tenant,
            name=name.strip() or None if name else None,
            prompt=prompt,
            kind=when.kind,
            spec=when.spec,
            timezone=when.timezone,
            catch_up=catch_up,
            session_mode=session_mode,
            origin=origin,
            status="active",
            created_at=iso(dt.datetime.now(dt.UTC)),
            created_by=created_by,
            home=self.home,
        )

        values = (
            task.id, task.tenant, task.name, task.prompt, task.kind, task.spec, task.timezone,
            task.catch_up, task.session_mode, origin.channel, origin.address, origin.session,
            task.status, task.created_at, task.created_by, task.home,
        )  # fmt: skip
        if max_tasks <= 0:
            await self.ticklog.db.execute(
                f"INSERT INTO agent_tasks ({_COLUMNS}) VALUES ({', '.join('?' * 16)})", values
            )
        # The count and the insert in one statement: no other insert slips in between.
        elif not await self.ticklog.db.execute(
            f"INSERT INTO agent_tasks ({_COLUMNS}) SELECT {', '.join('?' * 16)} WHERE"
            " (SELECT count(*) FROM agent_tasks WHERE tenant=? AND status='active') < ?",
            (*values, tenant, max_tasks),
        ):
            raise TaskRefused(
                f"this tenant has {max_tasks} active tasks, the most allowed: cancel one"
                " (list_tasks shows them) before scheduling another"
            )
        self.changed()
        return task

    async def of_tenant(self, *, include_finished: bool = False) -> list[Task]:
        """The current tenant's tasks (active ones unless ``include_finished``), oldest first."""
        tenant = scopes.current().tenant
        sql = f"SELECT {_COLUMNS} FROM agent_tasks WHERE tenant=?"
        if not include_finished:
            sql += " AND status='active'"
        return await self._select(sql + " ORDER BY created_at, id", (tenant,))

    async def get(self, task_id: str) -> Task | None:
        """The current tenant's task ``task_id``, or None (also when another tenant owns it)."""
        tenant = scopes.current().tenant
        rows = await self._select(
            f"SELECT {_COLUMNS} FROM agent_tasks WHERE tenant=? AND id=?", (tenant, task_id)
        )
        return rows[0] if rows else None

    async def cancel(self, task_id: str) -> Task:
        """Cancel the current tenant's active task; TaskRefused when there is no such task."""
        tenant = scopes.current().tenant

        if not await self.ticklog.db.execute(
            "UPDATE agent_tasks SET status='cancelled' WHERE tenant=? AND id=? AND status='active'",
            (tenant, task_id),
        ):
            raise TaskRefused(
                f"no active task {task_id!r}: list_tasks shows the ids of the open tasks"
            )
        self.changed()
        task = await self.get(task_id)
        assert task is not None
        return task

    # The scheduler's view: every tenant.

    async def active(self) -> list[Task]:
        """Every tenant's active tasks (for the scheduler only)."""
        return await self._select(f"SELECT {_COLUMNS} FROM agent_tasks WHERE status='active'", ())

    async def undelivered(self) -> list[Task]:
        """Every tenant's tasks that are no longer active and have a run whose answer could not
        be delivered (it is kept in the run's tick: :data:`agentd.cron.ticklog.UNDELIVERED`)."""
        return await self._select(
            f"SELECT {_COLUMNS} FROM agent_tasks WHERE status != 'active' AND 'task:' || id IN "
            f"(SELECT job FROM cron_ticks WHERE {UNDELIVERED_SQL}) ORDER BY created_at, id",
            (),
        )

    async def status_of(self, task_id: str) -> str | None:
        found = await self.ticklog.db.fetch("SELECT status FROM agent_tasks WHERE id=?", (task_id,))
        return str(found[0][0]) if found else None

    async def finish(self, task_id: str) -> None:
        """Mark a one-shot task done (its one run has ended, whichever daemon ran it)."""

        await self.ticklog.db.execute(
            "UPDATE agent_tasks SET status='done' WHERE id=? AND status='active'", (task_id,)
        )

    async def _select(self, sql: str, args: Sequence[Any]) -> list[Task]:
        return [decode_task(row) for row in await self.ticklog.db.fetch(sql, args)]


def _text(value: object, *, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise TypeError
    return value


def decode_task(row: Sequence[Any]) -> Task:
    """A task from its row; StoredRowError (naming the id, never the content) if malformed."""
    ident = row[0] if row and isinstance(row[0], str) and len(row[0]) <= 64 else "?"
    try:
        (
            task_id, tenant, name, prompt, kind, spec, timezone, catch_up, session_mode,
            channel, address, session, status, created_at, created_by, home,
        ) = row  # fmt: skip
        for required in (task_id, tenant, prompt, kind, spec, catch_up, session_mode):
            _text(required)
        for required in (channel, status, created_at, created_by):
            _text(required)
        for optional in (name, timezone, address, session, home):
            _text(optional, optional=True)
        if (
            kind not in KINDS
            or catch_up not in CATCH_UPS
            or session_mode not in SESSION_MODES
            or status not in STATUSES
            or not task_id
            or not tenant
        ):
            raise ValueError
        if kind == "at":
            parse_iso(spec)
        else:
            When(kind, spec, timezone).trigger()  # a schedule the scheduler can run
        parse_iso(created_at)
    except Exception:  # TypeError, ValueError, an unknown zone (KeyError), a bad cron field
        raise StoredRowError(f"agent task {ident!r} is malformed") from None
    return Task(
        id=task_id,
        tenant=tenant,
        name=name,
        prompt=prompt,
        kind=kind,
        spec=spec,
        timezone=timezone,
        catch_up=catch_up,
        session_mode=session_mode,
        origin=Origin(channel, address, session),
        status=status,
        created_at=created_at,
        created_by=created_by,
        home=home,
    )
