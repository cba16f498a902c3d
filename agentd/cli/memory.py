"""``agentd memory``: save, search, delete and count long-term memories from a terminal.

The commands work in the scope of one tenant: ``--tenant NAME``, else the configured tenant
(``tenant``), the scope the daemon uses for its own turns.

Where they work: a running daemon owns its state directory (the state lock) and the Milvus
Lite store in it, which opens in one process only. So when a daemon holds the lock, the
commands go through its HTTP API (``/v1/memories``), finding its URL and token as ``agentd
chat`` does. Otherwise they open the store here, holding the lock meanwhile, and ``save`` and
``search`` (which embed) start the packaged model server when ``llm.sidecar`` is on, as the
daemon does, and stop it before they exit. ``--remote`` and ``--local`` force either way.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from contextlib import AsyncExitStack

import anyio

from agentd import scope as scopes
from agentd.cli.model_server import embeddings_only
from agentd.cli.remote_option import daemon_client, remote_failure, remote_options, target
from agentd.cli.tenant_option import scope_of, tenant_option
from agentd.config import EX_CONFIG, Loaded, Settings
from agentd.daemon.statelock import EX_TEMPFAIL, hold_state, state_dir_lock
from agentd.errors import (
    ConfigError,
    DaemonError,
    DaemonUnavailable,
    InvalidMemory,
    MemoryUnavailable,
    StateLocked,
)
from agentd.memory.connection import is_lite
from agentd.memory.factory import open_store
from agentd.memory.longterm import Memory, MemoryAccess, memories_text
from agentd.model.client import open_client
from agentd.model.embed_server import open_memory_embedder

EX_DATAERR = 65
EX_UNAVAILABLE = 69
#: The actions that embed text (and so need a model server).
EMBEDDING = frozenset({"save", "search"})


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    common = argparse.ArgumentParser(
        add_help=False, parents=[tenant_option("memories"), remote_options(remote_flag=False)]
    )
    where = common.add_mutually_exclusive_group()
    where.add_argument(
        "--remote",
        action="store_true",
        help="go through the running daemon's HTTP API (the default while one holds the state)",
    )
    where.add_argument(
        "--local",
        action="store_true",
        help="open the memory store in this process (the default when no daemon runs)",
    )
    memory = sub.add_parser("memory", help="save, search, delete or count long-term memories")
    actions = memory.add_subparsers(dest="memory_command", metavar="ACTION", required=True)

    save = actions.add_parser("save", parents=[common], help="save TEXT as a memory")
    save.add_argument("text")
    save.add_argument("--tag", action="append", default=[], help="a tag (repeatable)")

    search = actions.add_parser("search", parents=[common], help="the memories nearest to QUERY")
    search.add_argument("query")
    search.add_argument("--top-k", type=int, default=5, help="how many (default 5)")
    search.add_argument(
        "--tag", action="append", default=[], help="only with this tag (repeatable)"
    )

    delete = actions.add_parser("delete", parents=[common], help="delete the memory KEY")
    delete.add_argument("key")

    actions.add_parser(
        "stats", parents=[common], help="where memory lives and how many memories the tenant has"
    )
    memory.set_defaults(handler=_handler)


def _handler(args: argparse.Namespace, loaded: Loaded) -> int:
    return anyio.run(run_memory, loaded.settings, args)


async def run_memory(settings: Settings, args: argparse.Namespace) -> int:
    """Run one ``agentd memory`` action where the memories are; returns the exit code."""
    if args.remote:
        return await run_remote(settings, args)
    async with AsyncExitStack() as stack:
        try:
            await stack.enter_async_context(hold_state(state_dir_lock(settings.state_dir)))
        except StateLocked as held:
            if not args.local:
                return await run_remote(settings, args, held=held)
            if is_lite(str(settings.milvus_addr or "")):
                print(
                    f"agentd: a daemon ({holder(held)}) holds {settings.state_dir} and the Milvus "
                    "Lite store in it, which opens in one process only: drop --local to go "
                    "through the daemon, or stop it first",
                    file=sys.stderr,
                )
                return EX_TEMPFAIL
        return await run_local(settings, args, stack)


async def run_local(settings: Settings, args: argparse.Namespace, stack: AsyncExitStack) -> int:
    """The action on the store opened in this process (the model server started if needed)."""
    if not settings.memory.embed:
        print("agentd: long-term memory is off (MEMORY_EMBED=false)", file=sys.stderr)
        return 2
    served = None
    if args.memory_command in EMBEDDING:
        # The embedding model's own server when it is fetched, else the chat model's.
        served = await stack.enter_async_context(open_memory_embedder(settings))
        if served is None:
            settings = await stack.enter_async_context(embeddings_only(settings))
    try:
        async with (
            open_client(settings) as llm,
            open_store(settings, llm.embed_one, served) as store,
        ):
            assert store is not None  # an embedding function always gives a store
            with scopes.use(scope_of(args, settings)) as scope:
                return await act(store, args, lambda: scope.tenant)
    except MemoryUnavailable as exc:
        print(f"agentd: memory unavailable: {exc}", file=sys.stderr)
        return EX_UNAVAILABLE
    except InvalidMemory as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_DATAERR


async def run_remote(
    settings: Settings, args: argparse.Namespace, *, held: StateLocked | None = None
) -> int:
    """The action through the running daemon's HTTP API; ``held`` is why it was chosen."""
    from agentd.cli.remote_memory import RemoteMemory

    try:
        url, token = target(settings, args)
    except ConfigError as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_CONFIG
    # Saving and searching embed on the daemon's model server, which may be busy (a turn,
    # its warm-up): wait as long as a model call may take, not the 30 s of other requests.
    async with daemon_client(url, token, read_timeout=settings.llm.timeout) as client:
        store = RemoteMemory(client, args.tenant)
        try:
            return await act(store, args, lambda: store.tenant_seen)
        except MemoryUnavailable as exc:
            if held is not None and isinstance(exc.__cause__, DaemonUnavailable):
                print(
                    f"agentd: an agentd ({holder(held)}) holds {settings.state_dir}, but no agentd "
                    f"HTTP API answers at {url}: enable channels.http in its config (or pass "
                    "--url), or stop it and run this again",
                    file=sys.stderr,
                )
            elif isinstance(exc.__cause__, DaemonUnavailable):
                print(
                    f"agentd: no agentd daemon answers at {url}: start it with `agentd run` "
                    "(channels.http.enabled), pass --url, or drop --remote",
                    file=sys.stderr,
                )
            else:
                print(f"agentd: memory unavailable: {exc}", file=sys.stderr)
            return EX_UNAVAILABLE
        except InvalidMemory as exc:
            print(f"agentd: the daemon refused: {exc}", file=sys.stderr)
            return EX_DATAERR
        except (DaemonError, KeyError, TypeError, ValueError) as exc:
            return remote_failure(exc)


def holder(held: StateLocked) -> str:
    """Who holds the state, as a message names it."""
    return f"process {held.pid}" if held.pid is not None else "another process"


async def act(store: MemoryAccess, args: argparse.Namespace, tenant: Callable[[], str]) -> int:
    """Run the action on ``store`` and print its result; ``tenant`` names the scope after it."""
    if args.memory_command == "save":
        print(await store.save(Memory(content=args.text, tags=tuple(args.tag))))
    elif args.memory_command == "search":
        found = await store.search(args.query, args.top_k, tuple(args.tag))
        print(memories_text(found) if found else "no memories found")
    elif args.memory_command == "delete":
        if not await store.delete(args.key):
            print(f"agentd: no memory {args.key!r}", file=sys.stderr)
            return 1
        print(f"deleted {args.key}")
    else:
        stats = await store.stats()
        for name in ("backend", "address", "collection", "dimension"):
            print(f"{name:<10} {getattr(stats, name)}")
        print(f"{'memories':<10} {stats.memories_in_scope} (tenant {tenant()})")
        if stats.degraded:
            print(f"{'degraded':<10} {stats.degraded}")
    return 0
