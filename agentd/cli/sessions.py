"""``agentd sessions list|show|clear``: the durable conversation store from a terminal."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime

import anyio

from agentd import scope as scopes
from agentd.cli.tenant_option import scope_of, tenant_option
from agentd.config import Loaded, Settings
from agentd.engine.loop import CONTEXT_KEY
from agentd.errors import HistoryError, StoredRowError
from agentd.memory.history import SQLiteHistory
from agentd.messages import Message

EX_FAILURE = 1
#: How far back `show` looks for the answer that recorded the context's fullness.
LAST_ANSWERS = 20


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    common = tenant_option("sessions")
    sessions = sub.add_parser("sessions", help="list, show or clear stored conversations")
    actions = sessions.add_subparsers(dest="sessions_command", metavar="ACTION", required=True)
    actions.add_parser("list", parents=[common], help="stored sessions, most recent first")
    show = actions.add_parser("show", parents=[common], help="print a session's messages")
    show.add_argument("session_id", metavar="ID")
    show.add_argument("--limit", type=int, default=0, help="only the newest N messages")
    clear = actions.add_parser("clear", parents=[common], help="delete a session's history")
    clear.add_argument("session_id", metavar="ID")
    sessions.set_defaults(handler=_handler)


def _handler(args: argparse.Namespace, loaded: Loaded) -> int:
    return anyio.run(run_sessions, loaded.settings, args)


async def run_sessions(settings: Settings, args: argparse.Namespace) -> int:
    scope = scope_of(args, settings)
    try:
        async with SQLiteHistory.open(
            settings.history_path, synchronous=settings.history.synchronous
        ) as store:
            with scopes.use(scope):
                if args.sessions_command == "list":
                    await _list(store)
                elif args.sessions_command == "show":
                    await _show(store, args.session_id, args.limit)
                else:
                    removed = await store.clear_conversation(args.session_id)
                    print(f"cleared {args.session_id}: {removed} messages")
    except (HistoryError, StoredRowError) as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_FAILURE
    return 0


async def _list(store: SQLiteHistory) -> None:
    infos = await store.list_sessions()
    if not infos:
        print("(no sessions)")
        return
    width = max(len(i.session_id) for i in infos)
    for info in infos:
        when = datetime.fromtimestamp(info.last_active).astimezone().isoformat(timespec="seconds")
        print(f"{info.session_id:<{width}}  {info.messages:>6} messages  last {when}")


async def _show(store: SQLiteHistory, session_id: str, limit: int) -> None:
    messages = await store.load_conversation(session_id, limit=max(limit, 0))
    if not messages:
        print(f"(no messages in {session_id})")
    for message in messages:
        print(describe(message))
    last = await store.load_conversation(session_id, limit=LAST_ANSWERS)
    context = next((m.metadata.get(CONTEXT_KEY) for m in reversed(last) if m.metadata), None)
    if isinstance(context, dict) and context.get("tokens") and context.get("limit"):
        tokens, limit = int(context["tokens"]), int(context["limit"])
        print(f"(context last turn: {tokens:,} of {limit:,} tokens, {100 * tokens / limit:.0f}%)")


def describe(message: Message) -> str:
    """One message as a readable line (or lines): role, tool calls, content."""
    if message.role == "tool":
        return f"[tool {message.name}] {message.content}"
    calls = "".join(f" -> {c.name}({c.arguments})" for c in message.tool_calls)
    return f"[{message.role}{calls}] {message.content}".rstrip()
