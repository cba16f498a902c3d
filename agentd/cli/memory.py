"""``agentd memory``: save, search, delete and count long-term memories from a terminal.

The commands work in the scope of one tenant: ``--tenant NAME``, else the configured tenant
(``tenant``), the scope the daemon uses for its own turns. Milvus Lite opens its directory in
one process only: while the daemon runs on Milvus Lite, stop it first or point both at a Milvus
server.
"""

from __future__ import annotations

import argparse
import sys

import anyio

from agentd import scope as scopes
from agentd.cli.tenant_option import scope_of, tenant_option
from agentd.config import Loaded, Settings
from agentd.errors import InvalidMemory, MemoryUnavailable
from agentd.memory.factory import open_store
from agentd.memory.longterm import Memory, memories_text
from agentd.model.client import open_client

EX_DATAERR = 65
EX_UNAVAILABLE = 69


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    common = tenant_option("memories")
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
    """Run one ``agentd memory`` action; returns the exit code."""
    if not settings.memory.embed:
        print("agentd: long-term memory is off (MEMORY_EMBED=false)", file=sys.stderr)
        return 2
    try:
        async with open_client(settings) as llm, open_store(settings, llm.embed_one) as store:
            assert store is not None  # an embedding function always gives a store
            with scopes.use(scope_of(args, settings)) as scope:
                if args.memory_command == "save":
                    key = await store.save(Memory(content=args.text, tags=tuple(args.tag)))
                    print(key)
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
                    print(f"{'memories':<10} {stats.memories_in_scope} (tenant {scope.tenant})")
                    if stats.degraded:
                        print(f"{'degraded':<10} {stats.degraded}")
    except MemoryUnavailable as exc:
        print(f"agentd: memory unavailable: {exc}", file=sys.stderr)
        return EX_UNAVAILABLE
    except InvalidMemory as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_DATAERR
    return 0
