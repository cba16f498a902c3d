"""The ``agentd`` command line.

Each command group lives in its own module with ``register(subparsers)``, which adds its parser
and sets ``handler(args, loaded) -> int`` (see :mod:`agentd.cli.chat`). Handlers run after the
settings are loaded and logging is configured; a bad config exits 78 before any of them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from agentd._version import __version__
from agentd.config import (
    EX_CONFIG,
    Loaded,
    Settings,
    describe,
    json_schema,
    load_settings,
    secret_values,
)
from agentd.daemon.statelock import EX_TEMPFAIL
from agentd.errors import (
    AgentdError,
    ConfigError,
    HistoryError,
    ModelError,
    SidecarError,
    StateLocked,
)
from agentd.private import open_to_others, restrict_umask

SCHEMA_PATH = Path("config/agentd.schema.json")
#: sysexits: a store whose data cannot be read (systemd does not restart on it).
EX_DATAERR = 65


def _parser() -> argparse.ArgumentParser:
    from agentd.cli import chat as cli_chat
    from agentd.cli import cron as cli_cron
    from agentd.cli import mcp as cli_mcp
    from agentd.cli import memory as cli_memory
    from agentd.cli import model as cli_model
    from agentd.cli import run as cli_run
    from agentd.cli import sessions as cli_sessions
    from agentd.cli import tasks as cli_tasks
    from agentd.cli import tenants as cli_tenants

    parser = argparse.ArgumentParser(
        prog="agentd", description="A self-hosted agent runtime daemon."
    )
    parser.add_argument("--version", action="version", version=f"agentd {__version__}")
    _add_global_options(parser, default=None)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    config = sub.add_parser("config", help="show the resolved settings or write their schema")
    config_sub = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    show = config_sub.add_parser("show", help="resolved settings, secrets masked, with sources")
    show.set_defaults(handler=_config_show)
    schema = config_sub.add_parser("schema", help="write the JSON Schema of the config file")
    schema.add_argument("--output", "-o", type=Path, default=SCHEMA_PATH)
    schema.set_defaults(handler=None)

    for module in (
        cli_run,
        cli_chat,
        cli_cron,
        cli_tasks,
        cli_sessions,
        cli_tenants,
        cli_memory,
        cli_model,
        cli_mcp,
    ):
        module.register(sub)
    _accept_global_options_anywhere(parser)
    return parser


def _add_global_options(parser: argparse.ArgumentParser, *, default: object) -> None:
    """``--config`` and ``--log-format``, the options every command shares."""
    parser.add_argument(
        "--config", type=Path, default=default, help="JSON config file (else $AGENTD_CONFIG)"
    )
    parser.add_argument(
        "--log-format",
        choices=["auto", "json", "console"],
        default=default,
        help="log renderer (default: log.format)",
    )


def _accept_global_options_anywhere(parser: argparse.ArgumentParser) -> None:
    """Let every subcommand take the global options too (``agentd run --config x.json``).

    A subcommand's copy defaults to ``SUPPRESS``: given nowhere, the attribute keeps the value
    parsed before the subcommand; given after it, the later value wins.
    """
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        seen: set[int] = set()
        for child in action.choices.values():
            if id(child) in seen:  # an alias names the same parser twice
                continue
            seen.add(id(child))
            _add_global_options(child, default=argparse.SUPPRESS)
            _accept_global_options_anywhere(child)


def _load(args: argparse.Namespace) -> Loaded:
    loaded = load_settings(args.config)
    from agentd.daemon.logging import configure

    settings = loaded.settings
    configure(
        level=settings.log.level,
        fmt=args.log_format or settings.log.format,
        secrets=secret_values(settings),
    )
    return loaded


def _open_state_lines(settings: Settings) -> list[str]:
    """Warnings for state folders others may read (made before agentd kept them private)."""
    lines = []
    folders = {settings.state_dir, settings.workdir}
    for path in (settings.history.path, settings.memory.path):
        if path is not None:
            folders.add(path.parent)
    for folder in sorted(folders):
        bits = open_to_others(folder.expanduser())
        if bits:
            lines.append(
                f"# WARNING: {folder} is open to others (mode bits {bits:03o} for the group or "
                f"others): conversations and tokens there may be read; chmod 700 {folder}"
            )
    return lines


def _config_show(args: argparse.Namespace, loaded: Loaded) -> int:
    print(f"# config file: {loaded.config_path or '(none)'}")
    rows = describe(loaded)
    width = max(len(key) for key, _, _ in rows)
    for key, value, source in rows:
        print(f"{key:<{width}} = {value}  # {source}")
    if loaded.settings.channels.http.no_token_on_loopback:
        print(
            "# WARNING: channels.http.no_token_on_loopback is set: every local user and "
            "process, and a web page a local browser opens, can drive the agent without a token"
        )
    for line in _open_state_lines(loaded.settings):
        print(line)
    from agentd.cli.tool_policy import policy_lines

    for line in policy_lines(loaded.settings):
        print(line)
    return 0


def _config_schema(output: Path) -> int:
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(json_schema(), indent=2, sort_keys=True) + "\n")
    print(f"wrote {output}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    if args.command == "config" and args.config_command == "schema":
        return _config_schema(args.output)
    # Whatever the caller's umask: state, history, tokens and logs are this user's alone.
    restrict_umask()
    try:
        loaded = _load(args)
    except ConfigError as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_CONFIG
    try:
        code: int = args.handler(args, loaded)
    except KeyboardInterrupt:
        return 130
    except ConfigError as exc:
        # Found after loading, e.g. a token file others may read.
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_CONFIG
    except StateLocked as exc:
        # Another agentd holds this state (``run``, or ``chat --local`` next to a daemon).
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_TEMPFAIL
    except (ModelError, SidecarError) as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return 69
    except HistoryError as exc:
        # A store that cannot be read (not a database, a newer schema, a malformed row):
        # restarting will not mend it. The message names the store, never a row's content.
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_DATAERR
    except AgentdError as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
