"""``agentd chat``: talk to the agent from a terminal (``--local``: the agent in this process)."""

from __future__ import annotations

import argparse
import sys
from contextlib import aclosing

import anyio

from agentd.app import open_app
from agentd.config import Loaded, Settings
from agentd.errors import LLMError
from agentd.llm import TextDelta
from agentd.runtime import Runtime
from agentd.supervisor import TurnDone

EX_UNAVAILABLE = 69


async def _one_turn(runtime: Runtime, session: str, text: str) -> None:
    async with aclosing(runtime.handle(session, text, channel="console")) as events:
        async for event in events:
            if isinstance(event, TextDelta):
                sys.stdout.write(event.text)
                sys.stdout.flush()
            elif isinstance(event, TurnDone) and not event.result.message.content:
                sys.stdout.write("(no answer)")
    sys.stdout.write("\n")
    sys.stdout.flush()


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    chat = sub.add_parser("chat", help="chat with the agent")
    chat.add_argument("--local", action="store_true", help="run the agent in this process")
    chat.add_argument("-m", "--message", help="send one message, print the answer, exit")
    chat.add_argument("--session", default="console:local", help="session name")
    chat.set_defaults(handler=_handler)


def _handler(args: argparse.Namespace, loaded: Loaded) -> int:
    return anyio.run(run_chat, loaded.settings, args)


async def run_chat(settings: Settings, args: argparse.Namespace) -> int:
    if not args.local:
        print(
            "agentd: chat without --local needs the HTTP channel of a running daemon; "
            "use `agentd chat --local` for now",
            file=sys.stderr,
        )
        return 2
    async with open_app(settings) as app:
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
