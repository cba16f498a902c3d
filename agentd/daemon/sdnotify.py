"""systemd's notify protocol: READY, STATUS, WATCHDOG and STOPPING over ``$NOTIFY_SOCKET``.

Abstract sockets (``@name``) and path sockets are both supported. Without ``$NOTIFY_SOCKET``
every call is a no-op. The watchdog is petted from the event loop itself, so a loop that is
wedged stops the pings and systemd restarts the daemon.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping

import anyio
import structlog

log = structlog.get_logger("agentd.daemon.sdnotify")


class Notifier:
    """Sends datagrams to the service manager's notify socket."""

    def __init__(self, address: str | None) -> None:
        self._address: str | bytes | None = None
        self._sock: socket.socket | None = None
        if address:
            self._address = "\0" + address[1:] if address.startswith("@") else address
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        env = os.environ if environ is None else environ
        return cls(env.get("NOTIFY_SOCKET"))

    @property
    def enabled(self) -> bool:
        return self._sock is not None

    def notify(self, *lines: str) -> bool:
        """Send ``KEY=VALUE`` lines in one datagram; False when it could not be sent."""
        if self._sock is None or self._address is None:
            return False
        try:
            self._sock.sendto("\n".join(lines).encode(), self._address)
        except OSError as exc:
            log.warning("sdnotify.failed", error=str(exc))
            return False
        return True

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Half of ``$WATCHDOG_USEC`` in seconds, when the watchdog is on for this process."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC")
    if not usec:
        return None
    pid = env.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 2 / 1_000_000 if value > 0 else None


async def pet_watchdog(notifier: Notifier, interval: float) -> None:
    """Send ``WATCHDOG=1`` every ``interval`` seconds, from the event loop, forever."""
    while True:
        notifier.notify("WATCHDOG=1")
        await anyio.sleep(interval)
