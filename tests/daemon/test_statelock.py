"""One daemon per state (issue #15, finding 8): the state lock, in process and on real daemons."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from agentd.daemon.statelock import EX_TEMPFAIL, held_by, hold_state, lock_paths, state_dir_lock
from agentd.errors import ConfigError, StateLocked
from agentd.model.sidecar import free_port
from tests.support.daemon import NotifySocket, daemon, write_config
from tests.support.stub_llm import StubLLM

pytestmark = pytest.mark.anyio


async def test_second_holder_is_refused_with_the_pid(tmp_path: Path) -> None:
    """A held lock refuses a second holder, naming the lock file and the holder's PID."""
    paths = lock_paths(tmp_path / "state", tmp_path / "state" / "history.db")
    async with hold_state(paths):
        with pytest.raises(StateLocked) as caught:
            async with hold_state(paths):
                pass
    assert caught.value.pid == os.getpid()
    assert str(tmp_path / "state" / "agentd.lock") in str(caught.value)


async def test_held_by_names_the_holder_and_leaves_a_free_lock_free(tmp_path: Path) -> None:
    """held_by is None for a free state (which stays free after it) and the holder's
    StateLocked while one holds the state directory's lock."""
    state = tmp_path / "state"
    assert held_by(state) is None
    async with hold_state(state_dir_lock(state)):
        held = held_by(state)
        assert held is not None and held.pid == os.getpid()
    assert held_by(state) is None
    async with hold_state(state_dir_lock(state)):  # not kept by held_by
        pass


async def test_same_history_file_from_other_state_dirs_is_refused(tmp_path: Path) -> None:
    """Two state dirs that share one history file cannot both be held."""
    history = tmp_path / "shared" / "history.db"
    async with hold_state(lock_paths(tmp_path / "a", history)):
        with pytest.raises(StateLocked) as caught:
            async with hold_state(lock_paths(tmp_path / "b", history)):
                pass
    assert caught.value.path == str(tmp_path / "shared" / "history.db.lock")


async def test_a_symlinked_history_file_is_the_same_lock(tmp_path: Path) -> None:
    """A second state whose history.db is a symlink to the first's cannot be held."""
    first = tmp_path / "a" / "history.db"
    second = tmp_path / "b" / "history.db"
    async with hold_state(lock_paths(tmp_path / "a", first), database=first):
        second.parent.mkdir()
        second.symlink_to(first)
        with pytest.raises(StateLocked) as caught:
            async with hold_state(lock_paths(tmp_path / "b", second), database=second):
                pass
    assert caught.value.path == str(first)


async def test_a_hard_linked_history_file_is_refused(tmp_path: Path) -> None:
    """A history file with a second hard link is refused, with what to do."""
    first = tmp_path / "a" / "history.db"
    second = tmp_path / "b" / "history.db"
    async with hold_state(lock_paths(tmp_path / "a", first), database=first):
        second.parent.mkdir()
        os.link(first, second)
        with pytest.raises(ConfigError, match="has 2 hard links") as caught:
            async with hold_state(lock_paths(tmp_path / "b", second), database=second):
                pass
    assert caught.value.key == "history.path"


async def test_the_history_lock_leaves_sqlite_working(tmp_path: Path) -> None:
    """The history store opens, writes and reopens under the lock on its own file."""
    from agentd import scope as scopes
    from agentd.memory.history import SQLiteHistory
    from agentd.messages import user

    path = tmp_path / "history.db"
    for _ in range(2):
        async with hold_state(lock_paths(tmp_path, path), database=path):
            async with SQLiteHistory.open(path) as store:
                with scopes.use(scopes.Scope()):
                    await store.save_conversation("s", [user("hi")])
    with scopes.use(scopes.Scope()):
        async with SQLiteHistory.open(path) as store:
            assert len(await store.load_conversation("s")) == 2


async def test_lock_is_released_on_exit(tmp_path: Path) -> None:
    """Once the holder leaves its block, the next one takes the lock."""
    paths = lock_paths(tmp_path, tmp_path / "history.db")
    async with hold_state(paths):
        pass
    async with hold_state(paths):
        pass


async def test_symlinked_lock_file_is_refused(tmp_path: Path) -> None:
    """A symlink in the lock file's place is not followed (O_NOFOLLOW)."""
    target = tmp_path / "elsewhere"
    target.write_text("keep")
    (tmp_path / "agentd.lock").symlink_to(target)
    with pytest.raises(ConfigError, match=r"agentd\.lock"):
        async with hold_state(lock_paths(tmp_path, tmp_path / "history.db")):
            pass
    assert target.read_text() == "keep"


def _http_config(path: Path, tmp: Path, url: str, port: int, **extra: object) -> Path:
    return write_config(
        path,
        tmp,
        url,
        channels={"http": {"enabled": True, "port": port}},
        cron={"enabled": False},
        **extra,
    )


def _refused(config: Path) -> str:
    with daemon(config) as proc:
        assert proc.wait(timeout=60) == EX_TEMPFAIL
        return proc.stdout.read() if proc.stdout else ""


@pytest.mark.timeout(120)
def test_second_daemon_on_one_state_exits_75(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A second `agentd run` on the same state (or history file) exits 75 naming the lock and
    the PID; the first keeps serving; after kill -9 of the first a new daemon starts."""
    port = free_port()
    config = _http_config(tmp_path / "c.json", tmp_path, stub_llm.url, port)
    # Another state dir, the same history file.
    other = _http_config(
        tmp_path / "other.json",
        tmp_path,
        stub_llm.url,
        free_port(),
        state_dir=str(tmp_path / "state2"),
        history={"path": str(tmp_path / "state" / "history.db")},
    )
    notify = NotifySocket(tmp_path / "notify.sock")
    try:
        with daemon(config, notify) as first:
            notify.wait_for("READY=1")
            out = _refused(config)
            assert str(tmp_path / "state" / "agentd.lock") in out
            assert f"process {first.pid}" in out
            out = _refused(other)
            assert str(tmp_path / "state" / "history.db.lock") in out
            assert f"process {first.pid}" in out
            assert httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200
            first.send_signal(signal.SIGKILL)
            first.wait(timeout=10)
        notify.messages.clear()
        with daemon(config, notify) as again:
            notify.wait_for("READY=1")
            assert httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200
            again.send_signal(signal.SIGTERM)
            assert again.wait(timeout=30) == 0
    finally:
        notify.close()


def _agentd(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agentd", "--config", str(config), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.timeout(120)
def test_local_chat_next_to_a_daemon_exits_75(stub_llm: StubLLM, tmp_path: Path) -> None:
    """`agentd chat --local` on the state a daemon serves is refused (exit 75), not a second
    writer of its history; with the daemon gone it runs."""
    config = _http_config(tmp_path / "c.json", tmp_path, stub_llm.url, free_port())
    notify = NotifySocket(tmp_path / "notify.sock")
    try:
        with daemon(config, notify) as first:
            notify.wait_for("READY=1")
            refused = _agentd(config, "chat", "--local", "-m", "hello")
            assert refused.returncode == EX_TEMPFAIL, refused.stderr
            assert str(tmp_path / "state" / "agentd.lock") in refused.stderr
            assert f"process {first.pid}" in refused.stderr
            first.send_signal(signal.SIGTERM)
            assert first.wait(timeout=30) == 0
    finally:
        notify.close()
    alone = _agentd(config, "chat", "--local", "-m", "hello")
    assert alone.returncode == 0, alone.stderr


def test_unopenable_lock_file_exits_78_naming_it(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A symlink planted as the lock file stops `agentd run` with exit 78 naming the file and
    no traceback; the symlink's target is untouched."""
    config = _http_config(tmp_path / "c.json", tmp_path, stub_llm.url, free_port())
    target = tmp_path / "elsewhere"
    target.write_text("keep")
    (tmp_path / "state").mkdir(exist_ok=True)
    (tmp_path / "state" / "agentd.lock").symlink_to(target)
    proc = _agentd(config, "run")
    assert proc.returncode == 78, proc.stderr
    assert str(tmp_path / "state" / "agentd.lock") in proc.stderr
    assert "Traceback" not in proc.stderr
    assert target.read_text() == "keep"


def test_a_shared_history_locks_only_the_state_dir(tmp_path: Path) -> None:
    """With a PostgreSQL history, replicas with their own state dirs are not refused."""
    history = tmp_path / "shared" / "history.db"
    assert lock_paths(tmp_path / "a", history, shared=True) == [tmp_path / "a" / "agentd.lock"]
    assert len(lock_paths(tmp_path / "a", history)) == 2
