"""The model server a CLI command embeds with when no daemon runs: the daemon's own way.

With ``llm.sidecar`` on (``make run``), the daemon starts the packaged llama-server and points
its client at it; without a daemon nothing answers at ``llm.base_url``. So a command that needs
embeddings starts the same server (:func:`agentd.model.sidecar.open_sidecar`: its own session,
killed with the command even on SIGKILL), says so in one line on stderr, and stops it when it
is done. With the sidecar off, or a separate ``llm.embed_url``, nothing is started.

A command that only embeds (:func:`embeddings_only`) starts what the daemon embeds with beside
its chat server instead: the chat model's embedding-only server
(:func:`agentd.model.embed_server.open_chat_embedder`), smaller and quicker to start, and whose
vectors are the daemon's own.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from agentd.config import Settings


def needs_server(settings: Settings) -> bool:
    """Whether embeddings here need the packaged model server started."""
    return settings.llm.sidecar.enabled and settings.llm.embed_url is None


def _say(settings: Settings, server: str, purpose: str) -> None:
    """The one line on stderr that says which server the command starts, and for what."""
    sc = settings.llm.sidecar
    print(
        f"agentd: starting {server} ({sc.model_path or sc.model}) for {purpose}, "
        "as the daemon does; it stops when the command ends",
        file=sys.stderr,
        flush=True,
    )


@asynccontextmanager
async def embedding_server(settings: Settings) -> AsyncIterator[Settings]:
    """``settings`` whose model client can embed, with the packaged server running meanwhile."""
    if not needs_server(settings):
        yield settings
        return
    from agentd.model.sidecar import open_sidecar, with_sidecar_url

    _say(settings, "the packaged model server", "this command's embeddings")
    async with open_sidecar(settings) as sidecar:
        yield with_sidecar_url(settings, sidecar)


@asynccontextmanager
async def embeddings_only(settings: Settings) -> AsyncIterator[Settings]:
    """``settings`` whose model client can embed (not chat), with the chat model's
    embedding-only server running meanwhile; the whole packaged server if that one does not
    start."""
    if not needs_server(settings):
        yield settings
        return
    from agentd.model.embed_server import open_chat_embedder

    _say(settings, "the packaged model's embedding server", "this command")
    async with open_chat_embedder(settings) as served:
        if served.llm.embed_url is None:
            async with embedding_server(settings) as whole:
                yield whole
            return
        yield served
