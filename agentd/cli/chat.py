"""``agentd chat``: talk to the agent from a terminal.

By default it talks to the running daemon over its HTTP API (streaming); ``--local`` runs the
agent in this process instead.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import aclosing

import anyio

from agentd.cli.remote_option import EX_UNAVAILABLE, daemon_client, remote_options, target
from agentd.config import EX_CONFIG, Loaded, Settings
from agentd.daemon.app import open_app
from agentd.daemon.statelock import hold_state, lock_paths
from agentd.engine.loop import TurnDone
from agentd.engine.runtime import Runtime
from agentd.errors import ConfigError, DaemonError, DaemonUnavailable, LLMError
from agentd.model.client import TextDelta


async def _one_turn(runtime: Runtime, session: str, text: str) -> None:
    async with runtime.turn(session, text, channel="console") as events:
        async for event in events:
            if isinstance(event, TextDelta):
                sys.stdout.write(event.text)
                sys.stdout.flush()
            elif isinstance(event, TurnDone) and not event.result.message.content:
                sys.stdout.write("(no answer)")
    sys.stdout.write("\n")
    sys.stdout.flush()


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    chat = sub.add_parser(
        "chat", parents=[remote_options(remote_flag=False)], help="chat with the agent"
    )
    chat.add_argument("--local", action="store_true", help="run the agent in this process")
    chat.add_argument("-m", "--message", help="send one message, print the answer, exit")
    chat.add_argument("--session", default="console:local", help="session name")
    chat.set_defaults(handler=_handler)


def _handler(args: argparse.Namespace, loaded: Loaded) -> int:
    return anyio.run(run_chat, loaded.settings, args)


async def _read_line() -> str | None:
    try:
        return await anyio.to_thread.run_sync(input, "> ")
    except EOFError:
        print(file=sys.stderr)
        return None


async def run_remote(settings: Settings, args: argparse.Namespace) -> int:
    """Chat with the running daemon over its HTTP API."""
    try:
        url, token = target(settings, args)
    except ConfigError as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_CONFIG
    async with daemon_client(url, token, read_timeout=settings.llm.timeout) as client:

        async def one(text: str) -> None:
            async with aclosing(client.chat(args.session, text)) as pieces:
                async for piece in pieces:
                    sys.stdout.write(piece)
                    sys.stdout.flush()
            sys.stdout.write("\n")
            sys.stdout.flush()

        try:
            if args.message is not None:
                await one(args.message)
                return 0
            print(f"agentd chat ({url}); Ctrl-D to quit", file=sys.stderr)
            while (line := await _read_line()) is not None:
                if line.strip():
                    await one(line)
            return 0
        except DaemonUnavailable as exc:
            print(f"agentd: {exc}", file=sys.stderr)
            return EX_UNAVAILABLE
        except DaemonError as exc:
            print(f"\nagentd: the daemon refused: {exc}", file=sys.stderr)
            return 1


async def run_chat(settings: Settings, args: argparse.Namespace) -> int:
    if not args.local:
        return await run_remote(settings, args)
    # In-process turns write the history a daemon on this state would serve from: one owner.
    async with (
        hold_state(
            lock_paths(settings.state_dir, settings.history_path),
            database=settings.history_path if settings.history_url is None else None,
        ),
        open_app(settings) as app,
    ):
        if not await app.llm.ping():
            print(
                f"agentd: no model server answers at {app.llm.base_url}. Start llama-server "
                "there, or point LLAMA_URL (llm.base_url) at any OpenAI-compatible server.",
                file=sys.stderr,
            )
            return EX_UNAVAILABLE
        try:
            if args.message is not None:
                await _one_turn(app.runtime, args.session, args.message)
                return 0
            print(f"agentd chat ({app.llm.base_url}); Ctrl-D to quit", file=sys.stderr)
            while True:
                try:
                    line = await anyio.to_thread.run_sync(input, "> ")
                except EOFError:
                    print(file=sys.stderr)
                    return 0
                if line.strip():
                    await _one_turn(app.runtime, args.session, line)
        except LLMError as exc:
            print(f"agentd: {exc}", file=sys.stderr)
            return EX_UNAVAILABLE
