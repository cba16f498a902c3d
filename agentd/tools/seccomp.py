"""The seccomp filter of exec's sandbox: no set-id bits, by any system call that sets a mode.

A classic BPF program (what ``bwrap --seccomp FD`` loads) that answers ``EPERM`` to
``chmod``, ``fchmod``, ``fchmodat`` and ``fchmodat2`` asking for a set-user-id or set-group-id
bit, and to ``open``, ``openat``, ``creat``, ``mknod`` and ``mknodat`` making a file with one;
``openat2`` (its mode is behind a pointer the filter cannot read) and io_uring (whose opens no
filter sees) answer ``ENOSYS``, so programs fall back to ``openat``. Any other system call is
allowed. A process of another ABI (32-bit x86, x32) is killed: their calls have other numbers.

The program is built by hand (a few dozen instructions) rather than through libseccomp: the
Python bindings on PyPI are unmaintained, and the rules are few enough to read and test here.
"""

from __future__ import annotations

import errno
import os
import platform
import struct
from collections.abc import Iterator
from dataclasses import dataclass

#: The bits a command may never set: set-user-id and set-group-id.
SET_ID = 0o6000
#: ``open`` flags that make a file (``O_CREAT``, ``__O_TMPFILE``): then the mode counts.
_CREATES = 0o100 | 0o20000000

# Classic BPF opcodes (linux/filter.h) and seccomp's answers (linux/seccomp.h).
_LD_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JSET = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_JGE = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_RET = 0x06  # BPF_RET | BPF_K
KILL_PROCESS = 0x80000000
ALLOW = 0x7FFF0000
_ERRNO = 0x00050000
# struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6].
_NR = 0
_ARCH = 4
_X32_BIT = 0x40000000


def _arg(index: int) -> int:
    """Offset of the low 32 bits of argument ``index`` (little-endian: they come first)."""
    return 16 + 8 * index


@dataclass(frozen=True, slots=True)
class Rule:
    """A system call refused when its ``mode`` argument has a set-id bit (and, when ``flags``
    is given, that argument asks to create a file); ``mode=None`` refuses it always."""

    name: str
    nr: int
    mode: int | None
    flags: int | None = None
    errno: int = errno.EPERM


@dataclass(frozen=True, slots=True)
class Abi:
    """An architecture's audit id and its rules (system call numbers differ per ABI)."""

    audit_arch: int
    rules: tuple[Rule, ...]
    x32: bool = False


_COMMON = (
    Rule("openat2", 437, None, errno=errno.ENOSYS),
    Rule("io_uring_setup", 425, None, errno=errno.ENOSYS),
    Rule("io_uring_enter", 426, None, errno=errno.ENOSYS),
    Rule("io_uring_register", 427, None, errno=errno.ENOSYS),
    Rule("fchmodat2", 452, 2),
)

ABIS = {
    "x86_64": Abi(
        0xC000003E,
        (
            Rule("open", 2, 2, flags=1),
            Rule("creat", 85, 1),
            Rule("chmod", 90, 1),
            Rule("fchmod", 91, 1),
            Rule("mknod", 133, 1),
            Rule("openat", 257, 3, flags=2),
            Rule("mknodat", 259, 2),
            Rule("fchmodat", 268, 2),
            *_COMMON,
        ),
        x32=True,
    ),
    "aarch64": Abi(
        0xC00000B7,
        (
            Rule("mknodat", 33, 2),
            Rule("fchmod", 52, 1),
            Rule("fchmodat", 53, 2),
            Rule("openat", 56, 3, flags=2),
            *_COMMON,
        ),
    ),
}


class Unsupported(RuntimeError):
    """No filter is known for this machine's architecture."""


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def _rule(rule: Rule) -> Iterator[bytes]:
    """One rule's instructions: they end in a return, or fall through to the next rule."""
    refuse = _insn(_RET, _ERRNO | rule.errno)
    if rule.mode is None:
        yield _insn(_JEQ, rule.nr, 0, 1)
        yield refuse
        return
    checks = 2 + (2 if rule.flags is not None else 0)
    # Not this call: skip the checks and both returns (A still holds the number).
    yield _insn(_JEQ, rule.nr, 0, checks + 2)
    if rule.flags is not None:
        yield _insn(_LD_ABS, _arg(rule.flags))
        yield _insn(_JSET, _CREATES, 0, 3)  # no file made: allow
    yield _insn(_LD_ABS, _arg(rule.mode))
    yield _insn(_JSET, SET_ID, 0, 1)
    yield refuse
    yield _insn(_RET, ALLOW)


def program(machine: str | None = None) -> bytes:
    """The filter for ``machine`` (``platform.machine()`` by default), as ``struct
    sock_filter`` records in the machine's byte order."""
    name = machine or platform.machine()
    abi = ABIS.get(name)
    if abi is None:
        raise Unsupported(f"no seccomp filter for the {name!r} architecture")
    out = [
        _insn(_LD_ABS, _ARCH),
        _insn(_JEQ, abi.audit_arch, 1, 0),
        _insn(_RET, KILL_PROCESS),
        _insn(_LD_ABS, _NR),
    ]
    if abi.x32:
        out += [_insn(_JGE, _X32_BIT, 0, 1), _insn(_RET, KILL_PROCESS)]
    for rule in abi.rules:
        out.extend(_rule(rule))
    out.append(_insn(_RET, ALLOW))
    return b"".join(out)


def program_fd(machine: str | None = None) -> int:
    """A readable fd holding :func:`program` to its end (a pipe): for ``bwrap --seccomp``.

    The caller closes it. The program is far below a pipe's buffer, so the write never blocks.
    """
    data = program(machine)
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, data)
    finally:
        os.close(write_end)
    return read_end
