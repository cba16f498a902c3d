"""Milvus Lite served on a private unix socket, not on a loopback TCP port.

Given a Lite path (``*.db``), pymilvus starts Milvus Lite's gRPC server inside the process on a
free ``127.0.0.1`` port, with no authentication: any local user or process that finds the port
can read, change and delete every tenant's memories (loopback is not a trust boundary). agentd
starts that server itself, bound to a unix socket in a folder of its own that only its user may
enter (mode 0700, made by :func:`tempfile.mkdtemp`), and points pymilvus at ``unix:<socket>``.

One server per path and process (Lite locks its folder for one process), shared by the stores
open on it and stopped, its folder removed, when the last one closes. Blocking: called from a
worker thread.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentd.errors import MemoryUnavailable

SOCKET = "milvus.sock"
#: The longest unix socket path Linux binds (``sun_path`` holds 108 bytes with its NUL).
MAX_SOCKET_PATH = 107
#: Seconds the server is given to finish the calls in progress when it stops.
STOP_GRACE = 2.0


@dataclass(slots=True)
class _Served:
    server: Any
    db: Any
    folder: Path
    users: int = 0

    @property
    def address(self) -> str:
        return f"unix:{self.folder / SOCKET}"


_lock = threading.Lock()
_served: dict[str, _Served] = {}


def acquire(path: str) -> str:
    """The address (``unix:...``) of Milvus Lite serving the file at ``path``: started now
    unless this process already serves it. Each call is paired with a :func:`release`.

    Raises MemoryUnavailable when this Milvus Lite has no in-process server to start.
    """
    key = str(Path(path).resolve())
    with _lock:
        served = _served.get(key)
        if served is None:
            served = _served[key] = _start(key)
        served.users += 1
        return served.address


def release(path: str) -> None:
    """One user of ``path``'s server fewer; the last one stops it."""
    key = str(Path(path).resolve())
    with _lock:
        served = _served.get(key)
        if served is None:
            return
        served.users -= 1
        if served.users > 0:
            return
        del _served[key]
    _stop(served)


def serving() -> list[str]:
    """The paths served in this process now."""
    with _lock:
        return list(_served)


def _start(path: str) -> _Served:
    try:
        # Milvus Lite 3's in-process gRPC server, as its ``start_server_in_thread`` builds it.
        from milvus_lite.adapter.grpc.server import (  # type: ignore[import-untyped]
            DEFAULT_MAX_WORKERS,
            _build_server,
        )
        from milvus_lite.db import MilvusLite  # type: ignore[import-untyped]
    except ImportError as exc:
        raise MemoryUnavailable(f"this milvus-lite has no in-process server ({exc})") from exc
    folder = _private_folder()
    try:
        db = MilvusLite(path)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    try:
        server = _build_server(db, DEFAULT_MAX_WORKERS)
        if not server.add_insecure_port(f"unix:{folder / SOCKET}"):
            raise MemoryUnavailable(f"Milvus Lite cannot listen on {folder / SOCKET}")
        server.start()
    except BaseException:
        db.close()
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return _Served(server, db, folder)


def _stop(served: _Served) -> None:
    try:
        served.server.stop(grace=STOP_GRACE).wait()
    finally:
        served.db.close()
        shutil.rmtree(served.folder, ignore_errors=True)


def _private_folder() -> Path:
    """A new folder only this user may enter, short enough for a socket path in it."""
    folder = Path(tempfile.mkdtemp(prefix="agentd-milvus-"))
    if len(str(folder / SOCKET)) <= MAX_SOCKET_PATH:
        return folder
    folder.rmdir()  # TMPDIR is too deep for a socket
    return Path(tempfile.mkdtemp(prefix="agentd-milvus-", dir="/tmp"))
