"""``agentd ticks`` (the heartbeat tick log) and ``agentd cron run JOB`` (one tick now).

``ticks`` reads the tick log, beside a running daemon too (it is SQLite in WAL mode, or
PostgreSQL). ``cron run`` runs a turn in this process, writing the history a daemon serves its
sessions from: it holds the daemon's state lock meanwhile, as ``agentd run`` does, and while a
daemon holds it, says in one line to run the job from that daemon's web console instead.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from contextlib import AsyncExitStack

import anyio

from agentd.config import Loaded, Settings
from agentd.cron.ticklog import FILTERS, TickLog, iso
from agentd.daemon.statelock import EX_TEMPFAIL
from agentd.errors import StateLocked
from agentd.redact import mask_url as redacted


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ticks = sub.add_parser("ticks", help="print the heartbeat tick log")
    ticks.add_argument("--job", help="only this job")
    ticks.add_argument(
        "--status", choices=FILTERS, help="only ticks with this status (or undelivered answers)"
    )
    ticks.add_argument("--limit", type=int, default=20, help="newest N ticks (default 20)")
    ticks.set_defaults(handler=_ticks)

    cron = sub.add_parser("cron", help="heartbeat jobs")
    cron_sub = cron.add_subparsers(dest="cron_command", metavar="ACTION", required=True)
    run = cron_sub.add_parser("run", help="run one tick of JOB now (recorded like any other)")
    run.add_argument("job")
    run.set_defaults(handler=_run)


def _cell(value: object, width: int) -> str:
    text = "" if value is None else str(value).replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "…"


async def _print_ticks(settings: Settings, args: argparse.Namespace) -> int:
    async with TickLog.connect(settings.ticks_target) as log:
        rows = await log.list(job=args.job, status=args.status, limit=args.limit)
    header = ("JOB", "SCHEDULED_FOR", "STATUS", "KIND", "SENT", "FINISHED_AT", "ERROR/OUTPUT")
    table = [
        (
            t.job,
            t.scheduled_for,
            t.state,
            t.kind,
            "yes" if t.delivered else "",
            t.finished_at or "",
            _cell(t.error or t.output, 60),
        )
        for t in rows
    ]
    widths = [max(len(str(r[i])) for r in [header, *table]) for i in range(len(header))]
    for row in [header, *table]:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    if not table:
        print(f"(no ticks in {redacted(str(settings.ticks_target))})")
    return 0


def _ticks(args: argparse.Namespace, loaded: Loaded) -> int:
    return anyio.run(_print_ticks, loaded.settings, args)


async def _run_one(settings: Settings, name: str) -> int:
    from agentd.daemon.app import build_channels, open_app
    from agentd.daemon.statelock import hold_state, lock_paths

    job = next((j for j in settings.cron.jobs if j.name == name), None)
    if job is None:
        known = ", ".join(j.name for j in settings.cron.jobs) or "none"
        print(f"agentd: no cron job {name!r} (configured: {known})", file=sys.stderr)
        return 2
    locks = lock_paths(
        settings.state_dir, settings.history_path, shared=settings.history_url is not None
    )
    async with AsyncExitStack() as stack:
        try:
            await stack.enter_async_context(hold_state(locks))
        except StateLocked as held:
            who = f"process {held.pid}" if held.pid is not None else "another process"
            print(
                f"agentd: a daemon ({who}) runs on this state: run {name!r} from its web "
                "console (Schedules, Run now), or stop it first",
                file=sys.stderr,
            )
            return EX_TEMPFAIL
        app = await stack.enter_async_context(open_app(settings))
        channels = build_channels(app, {})
        for channel in channels:
            await stack.enter_async_context(channel)
        cron = next(c for c in channels if c.name == "cron")
        when = iso(dt.datetime.now(dt.UTC))
        status = await cron.heartbeat(app.runtime).tick(job, when, kind="manual")
    print(f"{name} {when}: {status or 'already claimed'}")
    return 0 if status == "ok" else 1


def _run(args: argparse.Namespace, loaded: Loaded) -> int:
    return anyio.run(_run_one, loaded.settings, args.job)
