"""``agentd tasks list|add|cancel [--tenant]``: the operator's view of agent tasks.

The CLI writes the tick log's file directly (no daemon needed); a running daemon picks a new or
cancelled task up within ``cron.tasks.poll`` seconds. Runs show in ``agentd ticks --job task:<id>``.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Awaitable, Callable

import anyio

from agentd import scope as scopes
from agentd.cli.tenant_option import scope_of, tenant_option
from agentd.config import Loaded, Settings
from agentd.cron.tasks import (
    CATCH_UPS,
    SESSION_MODES,
    TaskRefused,
    TaskStore,
    history_home,
    parse_when,
)
from agentd.cron.ticklog import UNDELIVERED, TickLog
from agentd.origin import Origin
from agentd.redact import mask_url as redacted


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    common = tenant_option("tasks")
    tasks = sub.add_parser("tasks", help="tasks the agent scheduled (reminders, recurring jobs)")
    tasks_sub = tasks.add_subparsers(dest="tasks_command", metavar="ACTION", required=True)

    show = tasks_sub.add_parser("list", parents=[common], help="a tenant's tasks")
    show.add_argument("--all", action="store_true", help="also done and cancelled tasks")
    show.set_defaults(handler=_handler(_list))

    add = tasks_sub.add_parser("add", parents=[common], help="schedule a task for a tenant")
    add.add_argument("prompt", help="what the agent does when the task runs")
    when = add.add_mutually_exclusive_group(required=True)
    when.add_argument("--at", help="ISO date-time, e.g. 2026-05-01T07:00:00+02:00")
    when.add_argument("--in", dest="in_", metavar="DELAY", help="a delay, e.g. 10m, 2h30m, 2.5h")
    when.add_argument("--every", help="an interval, e.g. 30m, 1d")
    when.add_argument("--cron", help="a cron line, e.g. '0 9 * * MON'")
    add.add_argument("--timezone", help="IANA zone of --at and --cron (default: local)")
    add.add_argument("--name", help="a short label")
    to = add.add_mutually_exclusive_group()
    to.add_argument(
        "--to",
        metavar="TARGET",
        help="deliver answers to a chat or an address, e.g. telegram:42, email:you@example.org",
    )
    to.add_argument("--session", help="append answers to this HTTP session's history")
    add.add_argument(
        "--catch-up",
        choices=CATCH_UPS,
        default="coalesce",
        help="after downtime: run once late (coalesce, default) or only record it (skip)",
    )
    add.add_argument("--session-mode", choices=SESSION_MODES, default="fresh")
    add.set_defaults(handler=_handler(_add))

    cancel = tasks_sub.add_parser("cancel", parents=[common], help="cancel a task")
    cancel.add_argument("id")
    cancel.set_defaults(handler=_handler(_cancel))


Action = Callable[[Settings, argparse.Namespace], Awaitable[int]]
Handler = Callable[[argparse.Namespace, Loaded], int]


def _handler(action: Action) -> Handler:
    def handler(args: argparse.Namespace, loaded: Loaded) -> int:
        settings = loaded.settings
        try:
            with scopes.use(scope_of(args, settings)):
                result: int = anyio.run(action, settings, args)
        except TaskRefused as exc:
            print(f"agentd: {exc}", file=sys.stderr)
            return 2
        return result

    return handler


async def _list(settings: Settings, args: argparse.Namespace) -> int:
    """The tenant's tasks; a task whose answer could not be delivered is listed (done or not)
    with that answer, so it is never lost from sight."""
    async with TickLog.connect(settings.ticks_target) as ticklog:
        tasks = await TaskStore(ticklog).of_tenant(include_finished=True)
        kept = {t.id: await ticklog.list(job=t.job, status=UNDELIVERED) for t in tasks}
    tasks = [t for t in tasks if args.all or t.status == "active" or kept[t.id]]
    for task in tasks:
        print(task.describe())
        for tick in reversed(kept[task.id]):
            print(f"  undelivered answer of {tick.scheduled_for} ({tick.error}):")
            print(textwrap.indent(tick.output or "", "    "))
    if not tasks:
        where = redacted(str(settings.ticks_target))
        print(f"(no tasks of tenant {scopes.current().tenant} in {where})")
    return 0


def _origin(args: argparse.Namespace) -> Origin:
    if args.to:
        channel, sep, address = args.to.partition(":")
        if not sep or not channel or not address:
            raise TaskRefused(
                f"--to {args.to!r} must look like 'telegram:<chat id>' or 'email:<address>'"
            )
        return Origin(channel, address)
    if args.session:
        return Origin("http", None, args.session)
    return Origin("cli")


async def _add(settings: Settings, args: argparse.Namespace) -> int:
    when = parse_when(
        at=args.at,
        in_=args.in_,
        every=args.every,
        cron=args.cron,
        timezone=args.timezone,
        min_interval=settings.cron.tasks.min_interval,
    )
    async with TickLog.connect(settings.ticks_target) as ticklog:
        task = await TaskStore(ticklog, history_home(settings)).add(
            args.prompt,
            when,
            _origin(args),
            name=args.name,
            catch_up=args.catch_up,
            session_mode=args.session_mode,
            created_by="cli",
        )
    print(task.describe())
    return 0


async def _cancel(settings: Settings, args: argparse.Namespace) -> int:
    async with TickLog.connect(settings.ticks_target) as ticklog:
        task = await TaskStore(ticklog).cancel(args.id)
    print(f"cancelled {task.id}")
    return 0
