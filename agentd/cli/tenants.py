"""``agentd tenants list|usage``: the known tenants with their limits, and what they used.

Both read the history file (as ``agentd sessions`` does), so they work beside a running daemon;
``list --remote`` asks the daemon's ``/v1/tenants`` instead (an admin's token only).
"""

from __future__ import annotations

import argparse
import sys
import time

import anyio

from agentd.cli.remote_option import daemon_client, remote_failure, remote_options, target
from agentd.config import EX_CONFIG, Loaded, Settings, TenantLimits
from agentd.errors import ConfigError, DaemonError, DaemonUnavailable, HistoryError
from agentd.memory.stores import open_history, usage_of
from agentd.memory.usage import DayUsage, known_tenants, utc_day

EX_FAILURE = 1
COLUMNS = ("tenant", "day", "turns", "prompt_tokens", "completion_tokens", "tool_calls")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tenants = sub.add_parser("tenants", help="list tenants and their limits, or their usage")
    actions = tenants.add_subparsers(dest="tenants_command", metavar="ACTION", required=True)
    actions.add_parser(
        "list",
        parents=[remote_options(remote_flag=True)],
        help="configured tenants and those with stored history or usage, with limits",
    )
    usage = actions.add_parser("usage", help="turns, tokens and tool calls per tenant and day")
    usage.add_argument("--tenant", help="only this tenant")
    usage.add_argument(
        "--days", type=int, default=7, help="the last N UTC days, today included (default 7)"
    )
    tenants.set_defaults(handler=_handler)


def _handler(args: argparse.Namespace, loaded: Loaded) -> int:
    return anyio.run(run_tenants, loaded.settings, args)


async def run_tenants(settings: Settings, args: argparse.Namespace) -> int:
    if args.tenants_command == "list" and args.remote:
        return await run_remote_list(settings, args)
    if args.tenants_command == "usage" and args.days < 1:
        print("agentd: --days must be 1 or more", file=sys.stderr)
        return EX_FAILURE
    try:
        async with open_history(settings) as history:
            usage = usage_of(history)
            if args.tenants_command == "list":
                for name in await known_tenants(usage, [settings.tenant, *settings.tenants]):
                    print(f"{name}  {describe_limits(settings.limits_for(name))}")
            else:
                since = utc_day(time.time() - (args.days - 1) * 86400)
                rows = await usage.report(since=since, tenant=args.tenant)
                if not rows:
                    print(f"(no usage since {since})")
                    return 0
                table = [COLUMNS, *(_cells(r) for r in rows)]
                print(_aligned(table))
    except HistoryError as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_FAILURE
    return 0


async def run_remote_list(settings: Settings, args: argparse.Namespace) -> int:
    """``list`` through the running daemon's HTTP API."""
    try:
        url, token = target(settings, args)
    except ConfigError as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_CONFIG
    try:
        async with daemon_client(url, token) as client:
            body = await client.call("GET", "/v1/tenants")
        for row in body["data"]:
            limits = TenantLimits.model_validate(
                {k: row[k] for k in ("turns_per_minute", "tokens_per_day")}
            )
            print(f"{row['id']}  {describe_limits(limits)}")
    except (DaemonUnavailable, DaemonError, KeyError, TypeError, ValueError) as exc:
        return remote_failure(exc)
    return 0


def _cells(row: DayUsage) -> tuple[str, ...]:
    c = row.counts
    counts = (c.turns, c.prompt_tokens, c.completion_tokens, c.tool_calls)
    return (row.tenant, row.day, *map(str, counts))


def _aligned(table: list[tuple[str, ...]]) -> str:
    """Names left-aligned, numbers right-aligned, two spaces between columns."""
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(w) if i < 2 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in table
    )


def describe_limits(limits: TenantLimits) -> str:
    """``turns/min 10, tokens/day unlimited``."""
    turns = limits.turns_per_minute or "unlimited"
    tokens = limits.tokens_per_day or "unlimited"
    return f"turns/min {turns}, tokens/day {tokens}"
