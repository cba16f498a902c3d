"""``agentd run``: the daemon."""

from __future__ import annotations

import argparse

import anyio

from agentd.config import Loaded


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = sub.add_parser(
        "run",
        help="run the daemon (channels, heartbeat) until stopped",
        description="Run the daemon until SIGTERM/SIGINT. Exit status: 0 after a clean stop, "
        "78 for a bad config, 75 when another agentd holds this state (its lock file).",
    )
    run.set_defaults(handler=_handler)


def _handler(args: argparse.Namespace, loaded: Loaded) -> int:
    from agentd.daemon.app import run_daemon

    # A StateLocked (exit 75) or a ConfigError (exit 78) is reported by agentd.cli.main.
    return anyio.run(run_daemon, loaded.settings, backend_options=event_loop_options())


def event_loop_options() -> dict[str, bool]:
    """uvloop when it is installed: bench/throughput.py measures about 20% more turns/s."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return {}
    return {"use_uvloop": True}
