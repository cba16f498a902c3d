"""One shell command in a bubblewrap sandbox: limits, a timeout, output cut to a size.

The command runs as ``/bin/sh -c command`` under ``bwrap`` with every namespace unshared (user,
mount, pid, network, ipc, uts, cgroup), so it sees:

- the tenant's workdir, read-write, ``nosuid`` and ``nodev``, at :data:`WORKDIR` (also its
  working directory and ``HOME``);
- ``/usr`` (and the ``/bin``, ``/lib*``, ``/sbin`` links or folders) read-only, and of ``/etc``
  only the files programs need (:data:`ETC_KEPT`): no ``shadow``, no keys, no agentd config;
- a fresh ``/tmp`` (tmpfs), its own ``/proc`` (only its own processes; or none, with
  ``tools.exec.proc`` off) and a minimal ``/dev``;
- no network unless the turn's policy grants it (``--share-net``), no capabilities, no way to
  gain privileges (bwrap sets ``no_new_privs``), and an environment of a few fixed variables;
- a seccomp filter that refuses set-id bits (:mod:`agentd.tools.seccomp`).

Limits are set inside the sandbox by ``prlimit`` (CPU seconds, address space, file size, core
dumps, processes). The process limit counts per user: inside bwrap's user namespace it counts
only the sandbox's processes, except for a daemon running as root, which the kernel exempts;
then a pids cgroup (:class:`_Cgroup`, when one can be made) bounds them instead, and a memory
cgroup bounds the memory of all of them together.

The whole tree is killed at the timeout: bwrap runs in its own process group, and its pid
namespace dies with it (``--die-with-parent``); what is left in the cgroup is killed too.
stdout and stderr are read as they come, and only the first ``output_chars`` of each are kept.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio
import structlog
from anyio.abc import ByteReceiveStream, Process

from agentd.tools.fit import more_marker

log = structlog.get_logger("agentd.tools.sandbox")

#: Where the workdir is inside the sandbox.
WORKDIR = "/workdir"
PATH = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"
#: The only environment a command gets.
ENV = {"PATH": PATH, "HOME": WORKDIR, "LANG": "C.UTF-8", "TMPDIR": "/tmp", "TERM": "dumb"}
#: What of /etc is shown (read-only): what libc, the shell and common tools read. Everything
#: else (shadow, ssh host keys, sudoers, agentd's own config and env files) is not there.
ETC_KEPT = (
    "alternatives",
    "ca-certificates",
    "ca-certificates.conf",
    "debian_version",
    "gai.conf",
    "group",
    "host.conf",
    "hostname",
    "hosts",
    "inputrc",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "mime.types",
    "nsswitch.conf",
    "os-release",
    "passwd",
    "profile",
    "protocols",
    "resolv.conf",
    "services",
    "ssl/certs",
    "timezone",
)
_SYSTEM_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
_READ = 65536


@dataclass(frozen=True, slots=True)
class Limits:
    """What one command may use."""

    cpu_seconds: int = 60
    memory_bytes: int = 1024 * 1024 * 1024
    processes: int = 64
    file_bytes: int = 256 * 1024 * 1024
    output_chars: int = 20_000


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a command ended and what it wrote (each stream's kept part and its full size)."""

    status: int | None
    stdout: bytes
    stderr: bytes
    stdout_size: int
    stderr_size: int
    timed_out: bool = False
    timeout: float = 0.0
    #: Why the command was stopped early (``stop_when`` of :func:`run` said so), or "".
    stopped: str = ""

    def render(self, limit: int) -> str:
        """The text the model reads: the exit status, then stdout and stderr, cut to ``limit``."""
        if self.stopped:
            head = f"killed: {self.stopped}"
        elif self.timed_out:
            head = f"killed: the command ran past its timeout of {self.timeout:g}s"
        elif self.status is not None and self.status < 0:
            name = _signal_name(-self.status)
            head = f"killed by {name} (a limit of CPU time, memory or processes, or a crash)"
        elif self.status is not None and self.status >= 128 + 1 and self.status <= 128 + 64:
            head = f"exit status: {self.status} (killed by {_signal_name(self.status - 128)})"
        else:
            head = f"exit status: {self.status}"
        out = self.stdout.decode("utf-8", "replace")
        err = self.stderr.decode("utf-8", "replace")
        err_room = min(len(err), max(limit // 4, limit - len(out)))
        parts = [head]
        for name, text, size, room in (
            ("stdout", out, self.stdout_size, limit - err_room),
            ("stderr", err, self.stderr_size, err_room),
        ):
            if not size:
                continue
            kept = text[:room]
            dropped = size - len(kept.encode("utf-8", "replace"))
            body = kept
            if dropped > 0:
                body += "\n" + more_marker(dropped, f"{name} was cut").replace(
                    "characters", "bytes"
                )
            parts.append(f"--- {name} ---\n{body}")
        if not self.stdout_size and not self.stderr_size:
            parts.append("(no output)")
        return "\n".join(parts)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def find_bwrap(name: str) -> str | None:
    """The bwrap binary's path, or None when it is not installed."""
    return shutil.which(name)


def limit_args(limits: Limits, *, processes: bool = True) -> list[str]:
    """``prlimit`` and its options, then ``--``: it sets the limits and runs what follows."""
    prlimit = shutil.which("prlimit", path=PATH) or "/usr/bin/prlimit"
    args = [
        prlimit,
        f"--cpu={limits.cpu_seconds}",
        f"--as={limits.memory_bytes}",
        f"--fsize={limits.file_bytes}",
        "--core=0",
    ]
    if processes:
        args.append(f"--nproc={limits.processes}")
    return [*args, "--"]


def bwrap_args(
    bwrap: str,
    workdir: str,
    *,
    network: bool,
    seccomp_fd: int,
    proc: bool = True,
    inside: Sequence[str] = (),
    read_only: bool = False,
) -> list[str]:
    """bwrap and its options (see the module docstring), then ``--``.

    ``workdir`` is the path bwrap binds (it resolves it as the user it runs as).
    ``seccomp_fd`` holds the filter (:func:`agentd.tools.seccomp.program_fd`). Without
    ``proc`` the sandbox has no /proc at all (never the host's): some programs need it (ps,
    /dev/fd), most do not. ``inside`` are more bwrap options applied after the workdir is
    bound (read-only binds over parts of it). ``read_only`` binds the workdir itself
    read-only (a command of a turn that asks for no change).
    """
    args = [
        bwrap,
        "--unshare-all",
        *(["--share-net"] if network else []),
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    for name in _SYSTEM_LINKS:
        path = Path("/", name)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    for name in ETC_KEPT:
        path = Path("/etc", name)
        if path.exists():
            args += ["--ro-bind", str(path), str(path)]
    if proc:
        args += ["--proc", "/proc"]
    args += [
        "--dev",
        "/dev",
        "--tmpfs",
        "/tmp",
        "--ro-bind" if read_only else "--bind",
        workdir,
        WORKDIR,
        *inside,
        "--chdir",
        WORKDIR,
        "--seccomp",
        str(seccomp_fd),
        "--",
    ]
    return args


class _Cgroup:
    """Cgroups for one command, when the daemon may make them (cgroup v1 or v2): a pids
    limit (required), and a memory limit on all of its processes together (when the memory
    controller is there too)."""

    __slots__ = ("paths",)

    def __init__(self, paths: list[Path]) -> None:
        self.paths = paths

    @classmethod
    def make(cls, processes: int, memory_bytes: int) -> _Cgroup | None:
        name = f"agentd-exec-{secrets.token_hex(6)}"
        pids = _made(_bases("pids"), name, {"pids.max": str(processes)})
        if pids is None:
            return None
        paths = [pids]
        if (pids / "memory.max").exists():  # v2: one folder for both controllers
            _write(pids / "memory.max", str(memory_bytes))
        else:
            limit = {"memory.limit_in_bytes": str(memory_bytes)}
            memory = _made(_bases("memory"), name, limit)
            if memory is not None:
                paths.append(memory)
        return cls(paths)

    @property
    def procs(self) -> list[Path]:
        return [path / "cgroup.procs" for path in self.paths]

    def kill_all(self) -> None:
        for procs in self.procs:
            for _ in range(50):
                try:
                    pids = [int(p) for p in procs.read_text().split()]
                except OSError:
                    break
                if not pids:
                    break
                for pid in pids:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)

    def remove(self) -> None:
        self.kill_all()
        for path in self.paths:
            for _ in range(100):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    self.kill_all()
                    time.sleep(0.01)  # the last processes may still be exiting
            else:
                log.warning("exec.cgroup_left", path=str(path))


def _write(path: Path, value: str) -> bool:
    try:
        path.write_text(value)
    except OSError:
        return False
    return True


def _made(bases: Iterator[Path], name: str, limits: dict[str, str]) -> Path | None:
    """A new cgroup ``name`` under the first base that takes it and its ``limits``."""
    for base in bases:
        path = base / name
        try:
            path.mkdir()
        except OSError:
            continue
        if all(_write(path / key, value) for key, value in limits.items()):
            return path
        with contextlib.suppress(OSError):
            path.rmdir()
    return None


def _bases(controller: str) -> Iterator[Path]:
    """Where this process's cgroup for ``controller`` is (v1 hierarchy, or v2 unified)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return
    for line in lines:
        _, controllers, path = line.split(":", 2)
        rel = path.lstrip("/")
        if controller in controllers.split(","):
            yield Path("/sys/fs/cgroup", controller) / rel
        elif controllers == "":
            base = Path("/sys/fs/cgroup") / rel
            try:
                if controller in (base / "cgroup.subtree_control").read_text().split():
                    yield base
            except OSError:
                continue


#: Puts the shell in each cgroup named before ``--``, then execs what follows.
_JOIN = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"'


async def run(
    argv: Sequence[str],
    *,
    time_limit: float,
    limits: Limits,
    cwd: Path | None = None,
    cgroup: bool = False,
    pass_fds: Sequence[int] = (),
    stop_when: Callable[[], str] | None = None,
    check_every: float = 0.25,
) -> Outcome:
    """Run ``argv`` in its own process group with :data:`ENV`; kill it all at ``time_limit``.

    ``stop_when`` (a blocking check, run in a worker thread every ``check_every`` seconds)
    returns a reason to stop the command early, or "" to let it run.

    With ``cgroup``, it runs in fresh cgroups of ``limits.processes`` processes and
    ``limits.memory_bytes`` in all, when they can be made (a shell puts itself there, then
    execs ``argv``).
    """
    group = _Cgroup.make(limits.processes, limits.memory_bytes) if cgroup else None
    if group is not None:
        argv = ["/bin/sh", "-c", _JOIN, "sh", *map(str, group.procs), "--", *argv]
    kept = {"stdout": bytearray(), "stderr": bytearray()}
    sizes = {"stdout": 0, "stderr": 0}
    process: Process | None = None
    timed_out = False
    stopped: list[str] = []
    try:
        process = await anyio.open_process(
            list(argv),
            stdin=None,
            env=ENV,
            cwd=cwd,
            start_new_session=True,
            pass_fds=pass_fds,
        )
        assert process.stdout is not None and process.stderr is not None

        async def drain(name: str, stream: ByteReceiveStream) -> None:
            buffer = kept[name]
            while True:
                try:
                    chunk = await stream.receive(_READ)
                except (anyio.EndOfStream, anyio.ClosedResourceError):
                    return
                sizes[name] += len(chunk)
                room = limits.output_chars - len(buffer)
                if room > 0:
                    buffer += chunk[:room]

        async def watch(scope: anyio.CancelScope) -> None:
            assert stop_when is not None
            while True:
                await anyio.sleep(check_every)
                reason = await anyio.to_thread.run_sync(stop_when)
                if reason:
                    stopped.append(reason)
                    scope.cancel()
                    return

        with anyio.move_on_after(time_limit) as deadline:
            async with anyio.create_task_group() as tg:
                if stop_when is not None:
                    tg.start_soon(watch, deadline)
                async with anyio.create_task_group() as pipes:
                    pipes.start_soon(drain, "stdout", process.stdout)
                    pipes.start_soon(drain, "stderr", process.stderr)
                await process.wait()
                tg.cancel_scope.cancel()  # the watch is done with
        timed_out = deadline.cancelled_caught and not stopped
    finally:
        with anyio.CancelScope(shield=True):
            if process is not None:
                _kill_group(process.pid)
                with anyio.move_on_after(5):
                    await process.wait()
                await process.aclose()
            if group is not None:
                await anyio.to_thread.run_sync(group.remove)
    return Outcome(
        process.returncode if not (timed_out or stopped) else None,
        bytes(kept["stdout"]),
        bytes(kept["stderr"]),
        sizes["stdout"],
        sizes["stderr"],
        timed_out=timed_out,
        timeout=time_limit,
        stopped=stopped[0] if stopped else "",
    )


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
