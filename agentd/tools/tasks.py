"""The tools ``schedule_task``, ``list_tasks`` and ``cancel_task`` (:mod:`agentd.cron.tasks`).

Each call works in the current turn's tenant (:func:`agentd.scope.current`) and remembers the
turn's origin (:func:`agentd.origin.get`: channel, chat, session), where the task's answers go.
A refused input (a time in the past, an unknown timezone, an interval below the minimum, too
many tasks, a task that is not this tenant's) is an error result that says what to do instead.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated, Protocol

import pydantic

from agentd import origin as origins
from agentd import scope as scopes
from agentd.cron.tasks import TaskRefused, TaskStore, parse_duration, parse_when
from agentd.errors import ToolError
from agentd.tools.kinds import SCHEDULE
from agentd.tools.registry import ToolRegistry

TOOL_NAMES = ("schedule_task", "list_tasks", "cancel_task")


class TaskLimits(Protocol):
    """What the tools need of the settings (``cron.tasks``)."""

    @property
    def min_interval(self) -> float: ...
    @property
    def max_per_tenant(self) -> int: ...


def _one_way(prompt: str, given: dict[str, str], timezone: str) -> str:
    """The error for a call giving more than one of at, in, every and cron, with the calls
    that give one each: told only "give exactly one", the model sent the same two again."""
    short = prompt if len(prompt) <= 60 else prompt[:57] + "..."
    calls = []
    for key, value in given.items():
        args = {"prompt": short, key: value}
        if timezone and key in ("at", "cron"):
            args["timezone"] = timezone
        calls.append(json.dumps(args, ensure_ascii=False))
    return (
        f"give exactly one of at, in, every or cron, not {' and '.join(given)}: call "
        f"schedule_task again with one of them, {' or '.join(calls)}"
    )


def _is_delay(text: str) -> bool:
    """Whether ``text`` reads as a delay ("14m", "2 hours") rather than a time."""
    try:
        parse_duration(text)
    except TaskRefused:
        return False
    return True


def register_task_tools(registry: ToolRegistry, store: TaskStore, limits: TaskLimits) -> None:
    """Add the task tools on ``store`` to ``registry``."""

    async def schedule_task(
        prompt: str,
        in_: Annotated[str, pydantic.Field(alias="in")] = "",
        at: str = "",
        every: str = "",
        cron: str = "",
        timezone: str = "",
        name: str = "",
    ) -> str:
        """Schedule a reminder or repeating job; its answer comes to this chat. Give one of
        in, at, every, cron.

        Args:
            prompt: What to do then, in the user's words (the reminder's text).
            in_: Once, after this delay from now, e.g. "2h" or "20m".
            at: Once, at the date-time the user named, ISO, e.g. "2026-05-01T09:00".
            every: Repeat, e.g. "1d".
            cron: e.g. "0 9 * * MON".
            timezone: IANA, of at and cron.
        """
        scopes.current()  # no tenant, no task (fail closed before parsing anything)
        ways = {"at": at, "in": in_, "every": every, "cron": cron}
        given = {key: value for key, value in ways.items() if value}
        dropped = ""
        if set(given) == {"at", "in"}:
            # A delay needs no clock, a time does: for "in 2 hours" the model gave in="2h"
            # and an `at` it made up, again after the error below. The answer says so.
            at, dropped = "", f"; at={given.pop('at')!r} was left out, in counts"
        elif set(given) == {"at"} and _is_delay(at):
            # "at": "14m" or "2 hours": a delay written where a time goes is that delay.
            in_, at, dropped = at, "", f"; at={given.pop('at')!r} is a delay, read as in"
            given["in"] = in_
        if len(given) > 1:
            raise ToolError(_one_way(prompt, given, timezone))
        origin = origins.get()
        if origin is None:
            raise ToolError(
                "tasks need a conversation to answer in: this request has no session"
                " (send X-Session-Id or the user field)"
            )
        try:
            when = parse_when(
                at=at or None,
                in_=in_ or None,
                every=every or None,
                cron=cron or None,
                timezone=timezone or None,
                min_interval=limits.min_interval,
            )
            task = await store.add(
                prompt, when, origin, name=name or None, max_tasks=limits.max_per_tenant
            )
        except TaskRefused as exc:
            raise ToolError(str(exc)) from None
        # No "cancel_task cancels it" here: the small model then told the user the task it
        # had just scheduled was cancelled. How far off a one-shot is shows a wrong "in".
        if task.one_shot:
            runs = f"{task.spec}{_from_now(task.spec)}{dropped}"
            return f"scheduled task {task.id} (runs once at {runs})"
        return f"scheduled task {task.id} (runs {task.kind} {task.spec})"

    async def list_tasks() -> str:
        """List open tasks with their ids."""
        tasks = await store.of_tenant()
        if not tasks:
            return "no open tasks"
        return "\n".join(task.describe() for task in tasks)

    async def cancel_task(id: str) -> str:
        """Cancel a task.

        Args:
            id: e.g. "t-1a2b3c4d".
        """
        try:
            task = await store.cancel(id.strip())
        except TaskRefused as exc:
            raise ToolError(str(exc)) from None
        return f"cancelled task {task.id}"

    registry.add(schedule_task, kind=SCHEDULE)
    registry.add(list_tasks, looks=True, kind=SCHEDULE)
    registry.add(cancel_task, kind=SCHEDULE)


def _from_now(spec: str) -> str:
    """``", 2h30m from now"`` for an ISO time ``spec``; empty when it cannot be read."""
    try:
        due = datetime.fromisoformat(spec.replace("Z", "+00:00"))
        seconds = round((due - datetime.now(UTC)).total_seconds() / 60) * 60
    except (ValueError, TypeError):
        return ""
    if seconds < 60:
        return ""
    hours, minutes = divmod(seconds // 60, 60)
    days, hours = divmod(hours, 24)
    text = "".join(f"{n}{unit}" for n, unit in ((days, "d"), (hours, "h"), (minutes, "m")) if n)
    return f", {text} from now"
