"""Become a command the kernel kills when its starter dies: ``python death_exec.py PPID CMD...``.

Run by path with ``python -I -S`` (standard library only), it asks for ``SIGKILL`` when its
parent's spawning thread dies (``PR_SET_PDEATHSIG``, kept across ``execve``), checks that its
parent is still ``PPID`` (else the parent died before the signal was armed, and it exits 1), and
replaces itself with the command, so the command keeps this process's pid, session and group.

It exists so that agentd spawns its model servers without a ``preexec_fn``: a Python callback
between ``fork`` and ``exec`` forces a full ``fork()`` of a process whose other threads (Milvus'
gRPC client among them) may hold locks, and such a child was seen to abort (status -6) before it
ran the server. Without the callback the interpreter spawns with ``vfork``.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def main(argv: list[str]) -> None:
    if len(argv) < 2 or not argv[0].isdigit():
        sys.stderr.write("usage: death_exec.py PARENT_PID COMMAND [ARG...]\n")
        os._exit(2)
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # pragma: no cover - not Linux: its own session only
        prctl = None
    if prctl is not None:
        prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != int(argv[0]):
        os._exit(1)
    try:
        os.execvp(argv[1], argv[1:])
    except OSError as exc:
        sys.stderr.write(f"cannot run {argv[1]}: {exc.strerror}\n")
        sys.stderr.flush()
    os._exit(127)


if __name__ == "__main__":
    main(sys.argv[1:])
