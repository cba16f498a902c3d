"""Run a command that dies with the process that started it: ``python orphan_guard.py PPID CMD...``.

The SDK's stdio client spawns a server with no ``preexec_fn``, so the parent-death signal the
llama-server sidecar asks for between fork and exec is asked for here instead: this script
(run by path with ``python -I -S``, importing nothing but the standard library) sets
``PR_SET_PDEATHSIG`` to SIGKILL, checks that its parent is still ``PPID`` (else the signal
came too late to be armed), and replaces itself with the command, which keeps the setting
across ``exec``. A ``kill -9`` of agentd then kills the server too; the SDK's own process
group (a new session) covers an orderly shutdown.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def main(argv: list[str]) -> None:
    if len(argv) < 3:
        sys.stderr.write("usage: orphan_guard.py PARENT_PID COMMAND [ARG...]\n")
        os._exit(2)
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # pragma: no cover - not Linux: the process group only
        prctl = None
    if prctl is not None:
        prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != int(argv[1]):  # the parent died before the death signal was armed
        os._exit(1)
    try:
        os.execvp(argv[2], argv[2:])
    except OSError as exc:
        sys.stderr.write(f"cannot run {argv[2]}: {exc.strerror}\n")
        os._exit(127)


if __name__ == "__main__":
    main(sys.argv)
