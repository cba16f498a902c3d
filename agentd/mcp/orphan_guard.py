"""Run a command whose whole process tree dies with it and with its starter:
``python orphan_guard.py PPID CMD...``.

The SDK starts a stdio server in a new session and, on stop, closes its stdin and signals the
process group only if the server does not exit by itself; a server that starts children (as
``npx``-style launchers do) and exits leaves them running, and a ``kill -9`` of agentd leaves
the whole tree. So this script (run by path with ``python -I -S``, importing nothing but the
standard library) stays between agentd and the server as a small supervisor:

- it asks for ``SIGTERM`` when its parent dies (``PR_SET_PDEATHSIG``), checks that its parent
  is still ``PPID`` (else the signal came too late to be armed), and becomes a child
  subreaper (``PR_SET_CHILD_SUBREAPER``), so descendants that leave their parent (double
  fork, ``setsid``) are re-parented to it rather than to init;
- it starts the command in a process group of its own, which dies by ``SIGKILL`` if the
  guard itself is killed;
- when the command exits, when agentd dies, or on ``SIGTERM``/``SIGINT``/``SIGHUP`` (the SDK's
  stop), it kills the command's process group and every descendant re-parented to it, reaps
  them, and exits with the command's status.

A tree that escapes both (a descendant that left the group and whose parent is still alive
when the guard ends) is beyond it; a cgroup would catch that one too.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import time
from types import FrameType

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
#: Seconds the guard spends killing and reaping what is left at the end.
REAP_SECONDS = 2.0


class _Stop(Exception):
    """A stop signal arrived (raised from its handler, so a blocking wait ends)."""

    def __init__(self, number: int) -> None:
        self.number = number


def _stop(number: int, frame: FrameType | None) -> None:
    raise _Stop(number)


def _prctl() -> object | None:
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # pragma: no cover - not Linux: the process group only
        return None


def _children() -> list[int]:
    """This process's children (the command, and descendants re-parented to it)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir("/proc/self/task"):
            with contextlib.suppress(OSError), open(f"/proc/self/task/{task}/children") as fh:
                found += [int(pid) for pid in fh.read().split()]
    return found


def _kill_all(group: int) -> None:
    """SIGKILL the command's group and every child, again as orphans arrive, then reap."""
    deadline = time.monotonic() + REAP_SECONDS
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)
        for pid in _children():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            return  # no child left
        time.sleep(0.01)


def _start(argv: list[str], prctl: object | None) -> int:
    pid = os.fork()
    if pid:
        with contextlib.suppress(OSError):
            os.setpgid(pid, pid)  # also done in the child: whichever runs first
        # The pipes are the command's: the guard keeps no end of them open.
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.close(null)
        return pid
    try:
        os.setpgid(0, 0)
        if prctl is not None:
            prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)  # type: ignore[operator]
        stops = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
        for number in stops:
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
        os.execvp(argv[0], argv)
    except OSError as exc:
        sys.stderr.write(f"cannot run {argv[0]}: {exc.strerror}\n")
        sys.stderr.flush()
    os._exit(127)


def main(argv: list[str]) -> None:
    if len(argv) < 3:
        sys.stderr.write("usage: orphan_guard.py PARENT_PID COMMAND [ARG...]\n")
        os._exit(2)
    prctl = _prctl()
    if prctl is not None:
        prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)  # type: ignore[operator]
        prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # type: ignore[operator]
    stops = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
    for number in stops:
        signal.signal(number, _stop)
    if os.getppid() != int(argv[1]):  # the parent died before the death signal was armed
        os._exit(1)
    # A stop between fork and knowing the child's pid would leave the child unkilled.
    signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    command = _start(argv[2:], prctl)
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
        status = _wait(command)
    except _Stop as stop:
        status = 128 + stop.number
    for number in stops:
        signal.signal(number, signal.SIG_IGN)
    _kill_all(command)
    os._exit(status)


def _wait(command: int) -> int:
    """Reap children until the command exits; its exit status (128 + N for signal N)."""
    while True:
        try:
            pid, code = os.waitpid(-1, 0)
        except ChildProcessError:
            return 0
        if pid == command:
            status = os.waitstatus_to_exitcode(code)
            return status if status >= 0 else 128 - status


if __name__ == "__main__":
    main(sys.argv)
