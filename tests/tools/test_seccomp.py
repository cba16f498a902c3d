"""The sandbox's seccomp filter: what it refuses, what it lets through, on each architecture."""

from __future__ import annotations

import os
import struct
import subprocess
from pathlib import Path

import pytest

from agentd.tools import seccomp
from agentd.tools.sandbox import bwrap_args, find_bwrap
from tests.support.bwrap import needs_bwrap

#: Each line: what the command tried, then "ok" or the errno it got.
_PROBE = r"""
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
def call(name, nr, *args):
    ctypes.set_errno(0)
    got = libc.syscall(nr, *args)
    print(name, "ok" if got >= 0 else errno.errorcode[ctypes.get_errno()])
def attempt(name, fn):
    try:
        fn()
        print(name, "ok")
    except OSError as exc:
        print(name, errno.errorcode[exc.errno])
open("f", "w").close()
attempt("chmod-4755", lambda: os.chmod("f", 0o4755))
attempt("chmod-2755", lambda: os.chmod("f", 0o2755))
attempt("chmod-755", lambda: os.chmod("f", 0o755))
fd = os.open("f", os.O_RDONLY)
attempt("fchmod-6755", lambda: os.fchmod(fd, 0o6755))
attempt("open-create-4755", lambda: os.close(os.open("g", os.O_CREAT | os.O_WRONLY, 0o4755)))
attempt("open-existing-4755", lambda: os.close(os.open("f", os.O_RDONLY, 0o4755)))
attempt("open-create-644", lambda: os.close(os.open("h", os.O_CREAT | os.O_WRONLY, 0o644)))
attempt("mknod-4755", lambda: os.mknod("n", 0o104755))
call("fchmodat2-4755", 452, -100, b"f", 0o4755, 0)
call("openat2", 437, -100, b"f", 0, 0)
call("io_uring_setup", 425, 1, 0)
print("mode", oct(os.stat("f").st_mode & 0o7777))
"""


def test_programs_for_each_architecture() -> None:
    """x86_64 and aarch64 get a whole program of 8-byte instructions; others are refused."""
    for machine in seccomp.ABIS:
        program = seccomp.program(machine)
        assert program and len(program) % 8 == 0 and len(program) // 8 < 4096
        code, _, _, k = struct.unpack("=HBBI", program[-8:])
        assert (code, k) == (0x06, seccomp.ALLOW)  # anything else is allowed
    with pytest.raises(seccomp.Unsupported, match="'sparc'"):
        seccomp.program("sparc")


def test_program_fd_holds_the_program() -> None:
    """The fd bwrap reads gives the program and then its end."""
    fd = seccomp.program_fd("x86_64")
    try:
        assert os.read(fd, 1 << 16) == seccomp.program("x86_64")
        assert os.read(fd, 1) == b""
    finally:
        os.close(fd)


@needs_bwrap
def test_the_filter_refuses_set_id_bits_only(tmp_path: Path) -> None:
    """chmod, fchmod, fchmodat2, open(O_CREAT) and mknod may not set a set-id bit; the rest runs."""
    bwrap = find_bwrap("bwrap")
    assert bwrap is not None
    fd = seccomp.program_fd()
    try:
        argv = bwrap_args(bwrap, str(tmp_path), network=False, seccomp_fd=fd)
        done = subprocess.run(
            [*argv, "/usr/bin/python3", "-c", _PROBE],
            pass_fds=[fd],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(fd)
    said = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert said == {
        "chmod-4755": "EPERM",
        "chmod-2755": "EPERM",
        "chmod-755": "ok",
        "fchmod-6755": "EPERM",
        "open-create-4755": "EPERM",
        "open-existing-4755": "ok",
        "open-create-644": "ok",
        "mknod-4755": "EPERM",
        "fchmodat2-4755": "EPERM",
        "openat2": "ENOSYS",
        "io_uring_setup": "ENOSYS",
        "mode": "0o755",
    }, done.stderr
    assert not (tmp_path / "g").exists()
