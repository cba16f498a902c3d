"""The ``agentd`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import anyio

from agentd._version import __version__
from agentd.config import EX_CONFIG, Loaded, describe, json_schema, load_settings
from agentd.errors import ConfigError

SCHEMA_PATH = Path("config/agentd.schema.json")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentd", description="A self-hosted agent runtime daemon."
    )
    parser.add_argument("--version", action="version", version=f"agentd {__version__}")
    parser.add_argument("--config", type=Path, help="JSON config file (else $AGENTD_CONFIG)")
    parser.add_argument("--log-format", choices=["auto", "json", "console"], default=None)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    config = sub.add_parser("config", help="show the resolved settings or write their schema")
    config_sub = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    config_sub.add_parser("show", help="resolved settings, secrets masked, with their sources")
    schema = config_sub.add_parser("schema", help="write the JSON Schema of the config file")
    schema.add_argument("--output", "-o", type=Path, default=SCHEMA_PATH)

    chat = sub.add_parser("chat", help="chat with the agent")
    chat.add_argument("--local", action="store_true", help="run the agent in this process")
    chat.add_argument("-m", "--message", help="send one message, print the answer, exit")
    chat.add_argument("--session", default="console:local", help="session name")
    return parser


def _load(args: argparse.Namespace) -> Loaded:
    loaded = load_settings(args.config)
    from agentd.logging import configure

    settings = loaded.settings
    secrets = tuple(
        s.get_secret_value() for s in (settings.llm.api_key, settings.milvus.token) if s
    )
    configure(level=settings.log.level, fmt=args.log_format or settings.log.format, secrets=secrets)
    return loaded


def _config_show(loaded: Loaded) -> int:
    where = loaded.config_path or "(none)"
    print(f"# config file: {where}")
    rows = describe(loaded)
    width = max(len(key) for key, _, _ in rows)
    for key, value, source in rows:
        print(f"{key:<{width}} = {value}  # {source}")
    return 0


def _config_schema(output: Path) -> int:
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(json_schema(), indent=2, sort_keys=True) + "\n")
    print(f"wrote {output}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command is None:
        _parser().print_help()
        return 2
    if args.command == "config" and args.config_command == "schema":
        return _config_schema(args.output)
    try:
        loaded = _load(args)
    except ConfigError as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_CONFIG
    if args.command == "config":
        return _config_show(loaded)
    if args.command == "chat":
        from agentd.console import run_chat

        try:
            return anyio.run(run_chat, loaded.settings, args)
        except KeyboardInterrupt:
            return 130
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
