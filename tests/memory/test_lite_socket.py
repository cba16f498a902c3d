"""Milvus Lite is served on a private unix socket: no TCP port another local user could reach."""

from __future__ import annotations

import os
import shutil
import socket
import stat
import sys
import tempfile
import time
from pathlib import Path

import anyio
import pytest

from agentd import scope as scopes
from agentd.errors import MemoryUnavailable
from agentd.memory import lite_socket
from agentd.memory.longterm import Memory
from agentd.memory.milvus import MilvusStore
from tests.memory.conftest import word_embed as _embed

pytestmark = pytest.mark.anyio
TENANT = scopes.Scope(tenant="t")


def _listening_tcp_ports() -> set[int]:
    """The TCP ports this process listens on (from /proc: its sockets' inodes in LISTEN)."""
    mine = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            mine.add(target[len("socket:[") : -1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in mine:  # 0A: LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


async def test_a_lite_store_listens_on_no_tcp_port_only_on_a_private_socket(
    tmp_path: Path,
) -> None:
    before = _listening_tcp_ports()
    path = str(tmp_path / "memory.db")
    async with MilvusStore.open(path, _embed) as store:
        with scopes.use(TENANT):
            key = await store.save(Memory("the spare key is under the blue pot"))
            assert [m.key for m in await store.search("spare key")] == [key]
        assert _listening_tcp_ports() == before
        (served,) = lite_socket.serving()
        folder = lite_socket._served[served].folder
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert stat.S_ISSOCK((folder / lite_socket.SOCKET).stat().st_mode)
    assert lite_socket.serving() == [] and not folder.exists()


async def test_stores_on_one_path_share_its_server_until_the_last_closes(tmp_path: Path) -> None:
    path = str(tmp_path / "memory.db")
    with scopes.use(TENANT):
        async with MilvusStore.open(path, _embed) as first:
            key = await first.save(Memory("the boiler was serviced in March"))
            async with MilvusStore.open(path, _embed) as second:
                assert len(lite_socket.serving()) == 1
                assert [m.key for m in await second.search("boiler")] == [key]
            # The second store closed: the first one's server still answers.
            assert [m.key for m in await first.search("boiler")] == [key]
        assert lite_socket.serving() == []
        # Reopened after the last store closed: a new server finds what was saved.
        async with MilvusStore.open(path, _embed) as again:
            assert [m.key for m in await again.search("boiler")] == [key]


def test_a_folder_too_deep_for_a_socket_falls_back_to_tmp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = tmp_path / ("d" * 100)
    deep.mkdir()
    monkeypatch.setenv("TMPDIR", str(deep))
    monkeypatch.setattr("tempfile.tempdir", None)
    folder = lite_socket._private_folder()
    try:
        assert folder.parent == Path("/tmp")
        assert len(str(folder / lite_socket.SOCKET)) <= lite_socket.MAX_SOCKET_PATH
        assert list(deep.iterdir()) == []
    finally:
        folder.rmdir()


def _folder_with_socket(parent: Path, name: str, *, listening: bool) -> socket.socket:
    """A Lite folder in ``parent`` whose socket file a server bound; closed unless
    ``listening`` (a process killed while serving leaves its socket file, no one behind it)."""
    folder = parent / (lite_socket.PREFIX + name)
    folder.mkdir(mode=0o700)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(folder / lite_socket.SOCKET))
    server.listen()
    if not listening:
        server.close()
    return server


def test_folders_left_by_killed_processes_are_swept_live_ones_kept(tmp_path: Path) -> None:
    parent = tmp_path / "t"
    parent.mkdir()
    _folder_with_socket(parent, "dead", listening=False)
    live = _folder_with_socket(parent, "live", listening=True)
    (parent / (lite_socket.PREFIX + "starting")).mkdir()  # a start that has not bound yet
    old = parent / (lite_socket.PREFIX + "neverbound")
    old.mkdir()
    an_hour_ago = time.time() - 3600
    os.utime(old, (an_hour_ago, an_hour_ago))
    (parent / "agentd-milvus-file").write_text("not a folder")
    (parent / "unrelated").mkdir()
    try:
        removed = lite_socket.sweep(parent)
        assert sorted(p.name for p in removed) == [
            lite_socket.PREFIX + "dead",
            lite_socket.PREFIX + "neverbound",
        ]
        assert sorted(p.name for p in parent.iterdir()) == [
            "agentd-milvus-file",
            lite_socket.PREFIX + "live",
            lite_socket.PREFIX + "starting",
            "unrelated",
        ]
    finally:
        live.close()


async def test_opening_a_store_sweeps_a_killed_processs_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A temp dir short enough for a socket path in it (pytest's own may be too deep).
    parent = Path(tempfile.mkdtemp(prefix="t", dir="/tmp"))
    monkeypatch.setenv("TMPDIR", str(parent))
    monkeypatch.setattr("tempfile.tempdir", None)
    try:
        _folder_with_socket(parent, "dead", listening=False)
        async with MilvusStore.open(str(tmp_path / "memory.db"), _embed):
            (name,) = os.listdir(parent)
            assert name != lite_socket.PREFIX + "dead"
            assert stat.S_ISSOCK(os.stat(parent / name / lite_socket.SOCKET).st_mode)
        assert os.listdir(parent) == []
    finally:
        shutil.rmtree(parent, ignore_errors=True)


_OTHER_PROCESS = """
import sys, anyio
from agentd.errors import MemoryUnavailable
from agentd.memory.milvus import MilvusStore
async def embed(text): return [1.0, 0.0, 0.0, 0.0]
async def main():
    try:
        async with MilvusStore.open(sys.argv[1], embed):
            print("opened")
    except MemoryUnavailable as exc:
        print(exc)
anyio.run(main)
"""


async def test_another_process_is_told_the_path_is_taken(tmp_path: Path) -> None:
    """Lite locks its folder for one process: a second one gets the reason, not a hang."""
    path = str(tmp_path / "memory.db")
    async with MilvusStore.open(path, _embed):
        done = await anyio.run_process([sys.executable, "-c", _OTHER_PROCESS, path], check=False)
    out = done.stdout.decode()
    assert "opened" not in out and "is agentd running?" in out


async def test_a_lite_without_its_in_process_server_is_unavailable_not_open_on_tcp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A milvus-lite whose server cannot be bound to a socket here is not opened at all (the
    daemon then runs without memory, saying why), never left to open a TCP port."""
    monkeypatch.setitem(sys.modules, "milvus_lite.adapter.grpc.server", None)
    before = _listening_tcp_ports()
    with pytest.raises(MemoryUnavailable, match="no in-process server"):
        async with MilvusStore.open(str(tmp_path / "memory.db"), _embed):
            pass
    assert _listening_tcp_ports() == before and lite_socket.serving() == []
