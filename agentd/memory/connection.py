"""Opening a Milvus client: Milvus Lite's path or a server's address, and pymilvus' logging.

pymilvus blocks and takes half a second to import, so :func:`connect` imports it in a worker
thread when a store opens. A Lite path is served on a private unix socket
(:mod:`agentd.memory.lite_socket`), not on the loopback port pymilvus would open for it;
:func:`disconnect` closes the client and lets that server go. Addresses are shown without their
credentials (:func:`shown`).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import anyio

from agentd.errors import MemoryUnavailable
from agentd.memory import lite_socket


def is_lite(uri: str) -> bool:
    """Whether ``uri`` names a Milvus Lite file rather than a server."""
    return not uri.startswith(("http://", "https://", "tcp://", "unix:"))


def failure_reason(exc: BaseException) -> str:
    """One line saying why a Milvus call failed (pymilvus messages can span many lines)."""
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    line = " ".join(str(message).split())
    return line[:300]


def lite_path(uri: str) -> str:
    """The Lite file's path, its folder made (blocking)."""
    path = Path(uri).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return str(path)


#: Loggers to which pymilvus attaches its own stderr handler, not propagating, at import.
PYMILVUS_LOGGERS = ("pymilvus", "pymilvus.milvus_client", "pymilvus.bulk_writer")


def through_root(names: tuple[str, ...]) -> None:
    """Send these loggers' lines to the root handler (structlog's formatter: redaction, JSON)."""
    for name in names:
        logger = logging.getLogger(name)
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        logger.propagate = True


async def connect(uri: str, token: str, db_name: str, call_timeout: float) -> Any:
    def connect() -> Any:
        from pymilvus import MilvusClient

        # pymilvus logs every failed RPC with a traceback; the store logs one line itself.
        logging.getLogger("pymilvus").setLevel(logging.CRITICAL)
        through_root(PYMILVUS_LOGGERS)
        if is_lite(uri):
            # Lite's in-process gRPC server logs a traceback for each upsert: pymilvus asks it
            # for AllocTimestamp, which Lite does not implement (and does not need).
            logging.getLogger("grpc._server").setLevel(logging.CRITICAL)
        address = lite_socket.acquire(uri) if is_lite(uri) else uri
        kwargs: dict[str, Any] = {"uri": address, "timeout": call_timeout}
        if token:
            kwargs["token"] = token
        if db_name:
            kwargs["db_name"] = db_name
        try:
            return MilvusClient(**kwargs)
        except BaseException:
            if is_lite(uri):
                lite_socket.release(uri)
            raise

    try:
        return await anyio.to_thread.run_sync(connect)
    except MemoryUnavailable:
        raise
    except Exception as exc:
        hint = ""
        if is_lite(uri):
            hint = " (Milvus Lite opens a path in one process only: is agentd running?)"
        raise MemoryUnavailable(
            f"cannot open Milvus at {shown(uri)}: {failure_reason(exc)}{hint}"
        ) from exc


async def disconnect(uri: str, client: Any) -> None:
    """Close ``client`` (opened by :func:`connect` on ``uri``); for a Lite path, the last
    client of its server stops it."""

    def close() -> None:
        try:
            client.close()
        finally:
            if is_lite(uri):
                lite_socket.release(uri)

    await anyio.to_thread.run_sync(close)


def shown(uri: str) -> str:
    """The address without credentials, for logs and messages."""
    if "@" in uri and "://" in uri:
        scheme, rest = uri.split("://", 1)
        return f"{scheme}://{rest.split('@', 1)[1]}"
    return uri
