"""``agentd sessions list|show|clear``: the durable conversation store from a terminal.

By default they read the history file (beside a running daemon too); with ``--remote`` they ask
the running daemon's HTTP API instead (``/v1/sessions``), as the principal its token stands for:
``--tenant`` then works for an admin's token only, and the daemon's refusal is printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from typing import TYPE_CHECKING
from urllib.parse import quote

import anyio

from agentd import scope as scopes
from agentd.cli.remote_option import daemon_client, remote_failure, remote_options, target
from agentd.cli.tenant_option import scope_of, tenant_option
from agentd.config import EX_CONFIG, Loaded, Settings
from agentd.engine.loop import CONTEXT_KEY
from agentd.errors import ConfigError, DaemonError, DaemonUnavailable, HistoryError, StoredRowError
from agentd.memory.history import SessionInfo
from agentd.memory.stores import open_history
from agentd.messages import Message, decode_stored_message

if TYPE_CHECKING:
    from agentd.cli.remote import DaemonClient

EX_FAILURE = 1
#: How far back `show` looks for the answer that recorded the context's fullness.
LAST_ANSWERS = 20


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    common = argparse.ArgumentParser(
        add_help=False, parents=[tenant_option("sessions"), remote_options(remote_flag=True)]
    )
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
    if args.remote:
        return await run_remote(settings, args)
    scope = scope_of(args, settings)
    try:
        async with open_history(settings) as store:
            with scopes.use(scope):
                if args.sessions_command == "list":
                    print_list(await store.list_sessions())
                elif args.sessions_command == "show":
                    session_id = args.session_id
                    messages = await store.load_conversation(session_id, limit=max(args.limit, 0))
                    last = await store.load_conversation(session_id, limit=LAST_ANSWERS)
                    print_show(session_id, messages, last)
                else:
                    removed = await store.clear_conversation(args.session_id)
                    print(f"cleared {args.session_id}: {removed} messages")
    except (HistoryError, StoredRowError) as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_FAILURE
    return 0


async def run_remote(settings: Settings, args: argparse.Namespace) -> int:
    """The same actions through the running daemon's HTTP API."""
    try:
        url, token = target(settings, args)
    except ConfigError as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_CONFIG
    params = {"tenant": args.tenant} if args.tenant else {}
    try:
        async with daemon_client(url, token) as client:
            if args.sessions_command == "list":
                body = await client.call("GET", "/v1/sessions", params=params)
                print_list(
                    [SessionInfo(s["id"], s["messages"], s["last_active"]) for s in body["data"]]
                )
                return 0
            path = f"/v1/sessions/{quote(args.session_id, safe='')}"
            if args.sessions_command == "show":
                limit = str(max(args.limit, 0))
                messages = await _messages(client, path, {**params, "limit": limit})
                last = await _messages(client, path, {**params, "limit": str(LAST_ANSWERS)})
                print_show(args.session_id, messages, last)
            else:
                body = await client.call("DELETE", path, params=params)
                print(f"cleared {args.session_id}: {body['messages']} messages")
    except (DaemonUnavailable, DaemonError, KeyError, TypeError, StoredRowError) as exc:
        return remote_failure(exc)
    return 0


async def _messages(client: DaemonClient, path: str, params: dict[str, str]) -> list[Message]:
    body = await client.call("GET", f"{path}/messages", params=params)
    return [decode_stored_message(json.dumps(m)) for m in body["data"]]


def print_list(infos: list[SessionInfo]) -> None:
    """Sessions, one a line: id, message count, last write (local time)."""
    if not infos:
        print("(no sessions)")
        return
    width = max(len(i.session_id) for i in infos)
    for info in infos:
        when = datetime.fromtimestamp(info.last_active).astimezone().isoformat(timespec="seconds")
        print(f"{info.session_id:<{width}}  {info.messages:>6} messages  last {when}")


def print_show(session_id: str, messages: list[Message], last: list[Message]) -> None:
    """A session's ``messages``, then how full the context was (from the ``last`` answers)."""
    if not messages:
        print(f"(no messages in {session_id})")
    for message in messages:
        print(describe(message))
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
