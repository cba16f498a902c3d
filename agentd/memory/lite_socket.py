"""Milvus Lite served on a private unix socket, not on a loopback TCP port.

Given a Lite path (``*.db``), pymilvus starts Milvus Lite's gRPC server inside the process on a
free ``127.0.0.1`` port, with no authentication: any local user or process that finds the port
can read, change and delete every tenant's memories (loopback is not a trust boundary). agentd
starts that server itself, bound to a unix socket in a folder of its own that only its user may
enter (mode 0700, made by :func:`tempfile.mkdtemp`), and points pymilvus at ``unix:<socket>``.

One server per path and process (Lite locks its folder for one process), shared by the stores
open on it and stopped, its folder removed, when the last one closes. A process that dies
without closing (kill -9, out of memory) leaves its folder behind; the next start sweeps this
user's folders whose socket no server answers any more (:func:`sweep`). Blocking: called from a
worker thread.
"""

from __future__ import annotations

import errno
import os
import shutil
import socket
import stat
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentd.errors import MemoryUnavailable

SOCKET = "milvus.sock"
#: The longest unix socket path Linux binds (``sun_path`` holds 108 bytes with its NUL).
MAX_SOCKET_PATH = 107
#: Seconds the server is given to finish the calls in progress when it stops.
STOP_GRACE = 2.0
PREFIX = "agentd-milvus-"
#: Age in seconds after which a folder without a socket is a start that died before binding
#: (a start binds within a second or two).
UNBOUND_AFTER = 600.0


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
    parent = Path(tempfile.gettempdir())
    if len(str(parent / (PREFIX + "x" * 8) / SOCKET)) > MAX_SOCKET_PATH:
        parent = Path("/tmp")  # TMPDIR is too deep for a socket
    sweep(parent)
    return Path(tempfile.mkdtemp(prefix=PREFIX, dir=parent))


def sweep(parent: Path) -> list[Path]:
    """Remove this user's folders in ``parent`` left by processes that died serving Lite:
    their socket refuses connections (no server behind it), or they never got one and are
    older than :data:`UNBOUND_AFTER`. Returns the folders removed."""
    removed: list[Path] = []
    try:
        entries = [entry for entry in parent.iterdir() if entry.name.startswith(PREFIX)]
    except OSError:
        return removed
    for folder in entries:
        if _stale(folder):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _stale(folder: Path) -> bool:
    try:
        info = folder.lstat()
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
        return False  # not ours to judge (a link, a file, another user's)
    path = folder / SOCKET
    if not path.exists():
        return time.time() - info.st_mtime > UNBOUND_AFTER
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError as exc:
            return exc.errno == errno.ECONNREFUSED
    return False
