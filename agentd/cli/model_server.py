"""The model server a CLI command embeds with when no daemon runs: the daemon's own way.

With ``llm.sidecar`` on (``make run``), the daemon starts the packaged llama-server and points
its client at it; without a daemon nothing answers at ``llm.base_url``. So a command that needs
embeddings starts the same server (:func:`agentd.model.sidecar.open_sidecar`: its own session,
killed with the command even on SIGKILL), says so in one line on stderr, and stops it when it
is done. With the sidecar off, or a separate ``llm.embed_url``, nothing is started.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from agentd.config import Settings


def needs_server(settings: Settings) -> bool:
    """Whether embeddings here need the packaged model server started."""
    return settings.llm.sidecar.enabled and settings.llm.embed_url is None


@asynccontextmanager
async def embedding_server(settings: Settings) -> AsyncIterator[Settings]:
    """``settings`` whose model client can embed, with the packaged server running meanwhile."""
    if not needs_server(settings):
        yield settings
        return
    from agentd.model.sidecar import open_sidecar, with_sidecar_url

    sc = settings.llm.sidecar
    model = sc.model_path or sc.model
    print(
        f"agentd: starting the packaged model server ({model}) for this command's embeddings, "
        "as the daemon does; it stops when the command ends",
        file=sys.stderr,
        flush=True,
    )
    async with open_sidecar(settings) as sidecar:
        yield with_sidecar_url(settings, sidecar)
