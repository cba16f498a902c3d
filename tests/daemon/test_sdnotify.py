"""sd_notify: datagrams to path and abstract sockets, watchdog interval, a wedged loop."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import anyio
import pytest

from agentd.daemon.sdnotify import Notifier, pet_watchdog, watchdog_interval


def test_notify_to_a_path_socket(tmp_path: Path) -> None:
    """Lines go out as one datagram to the path in NOTIFY_SOCKET."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(tmp_path / "n.sock"))
        notifier = Notifier.from_env({"NOTIFY_SOCKET": str(tmp_path / "n.sock")})
        assert notifier.notify("READY=1", "STATUS=ok")
        assert sock.recv(100) == b"READY=1\nSTATUS=ok"
        notifier.close()


def test_notify_to_an_abstract_socket() -> None:
    """An '@name' address is the abstract socket '\\0name'."""
    name = f"agentd-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        notifier = Notifier(f"@{name}")
        assert notifier.notify("WATCHDOG=1")
        assert sock.recv(100) == b"WATCHDOG=1"
        notifier.close()


def test_without_notify_socket_nothing_is_sent() -> None:
    """No NOTIFY_SOCKET: notify() is a no-op that says so."""
    notifier = Notifier.from_env({})
    assert not notifier.enabled
    assert not notifier.notify("READY=1")


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        pytest.param({"WATCHDOG_USEC": "30000000"}, 15.0, id="half"),
        pytest.param({}, None, id="off"),
        pytest.param({"WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"}, None, id="other-pid"),
        pytest.param({"WATCHDOG_USEC": "x"}, None, id="garbage"),
    ],
)
def test_watchdog_interval(env: dict[str, str], expected: float | None) -> None:
    """The ping interval is half of WATCHDOG_USEC, for this process only."""
    assert watchdog_interval(env) == expected


@pytest.mark.anyio
async def test_watchdog_stops_while_the_loop_is_blocked(tmp_path: Path) -> None:
    """Pings come from the event loop: while it is blocked, none arrive."""
    path = tmp_path / "w.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.setblocking(False)
        notifier = Notifier(str(path))
        arrivals: list[float] = []

        def drain() -> None:
            while True:
                try:
                    sock.recv(100)
                except BlockingIOError:
                    return
                arrivals.append(time.monotonic())

        async with anyio.create_task_group() as tg:
            tg.start_soon(pet_watchdog, notifier, 0.05)
            await anyio.sleep(0.3)
            drain()
            before = len(arrivals)
            blocked_at = time.monotonic()
            time.sleep(0.5)  # noqa: ASYNC251 - the point: a wedged event loop
            drain()
            during = len(arrivals) - before
            await anyio.sleep(0.3)
            drain()
            tg.cancel_scope.cancel()
        notifier.close()
    assert before >= 3
    assert during == 0
    assert any(t > blocked_at + 0.5 for t in arrivals)
