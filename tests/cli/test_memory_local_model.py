"""``agentd memory`` on the default install with the real packaged model: through the running
daemon (its chat model's embedding server embeds), then with the daemon stopped (the CLI starts
that server for the search and stops it). The daemon's chat server does not outlive it.

Skipped when the binary or model is missing, unless AGENTD_REQUIRE_LOCAL_MODEL=1.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from agentd.config import load_settings
from agentd.errors import AgentdError
from agentd.model.packages import DEFAULT_MODEL, resolve_model_file
from agentd.model.sidecar import find_binary, free_port
from tests.support.daemon import ready_daemon, run_cli, stop, write_config
from tests.support.sidecar_helper import wait_gone

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]

REQUIRED = os.environ.get("AGENTD_REQUIRE_LOCAL_MODEL") == "1"


def _find_local() -> tuple[Path, Path] | str:
    # Read before the tests isolate HOME: the model lives where `agentd model fetch` put it.
    try:
        state_dir = load_settings().settings.state_dir
        return find_binary(None), resolve_model_file(state_dir, DEFAULT_MODEL, None)
    except AgentdError as exc:
        return str(exc)


LOCAL = _find_local()


def _servers(alias: str) -> list[int]:
    """The pids of the llama-servers started with ``--alias alias``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if alias.encode() in argv:
            found.append(int(entry.name))
    return found


def test_memory_through_the_daemon_then_on_the_cli_s_own_model_server(tmp_path: Path) -> None:
    """Saved through the running daemon, found by the CLI on its own after the daemon stopped;
    every llama-server is gone after each."""
    if isinstance(LOCAL, str):
        if REQUIRED:
            pytest.fail(f"the local model is required: {LOCAL}")
        pytest.skip(f"no local model: {LOCAL}")
    binary, gguf = LOCAL
    alias = f"agentd-test-{uuid.uuid4().hex[:12]}"  # marks this test's servers in /proc
    sidecar = {
        "enabled": True,
        "binary": str(binary),
        "model_path": str(gguf),
        "context": 2048,
        "extra_args": ["--alias", alias],
    }
    config = write_config(
        tmp_path / "config.json",
        tmp_path,
        "http://127.0.0.1:9",
        tenant="home",
        memory={"embed": True, "recall": 0},
        # No warm-up: llama-server does not batch an embedding with a prompt being read, so
        # the first save waited behind the warm-up's prompts (20 s here, over 120 s on a
        # loaded CI machine). This test is about the memory commands, not the warm start.
        llm={"max_retries": 0, "warm_start": "off", "sidecar": sidecar},
        channels={"http": {"enabled": True, "port": free_port()}},
        cron={"enabled": False},
    )
    with ready_daemon(config, tmp_path / "notify.sock", timeout=300) as proc:
        daemons = _servers(alias)
        assert len(daemons) == 1
        saved = run_cli(config, "memory", "save", "The door code of the Lisbon office is 4239")
        assert saved.returncode == 0, saved.stderr
        key = saved.stdout.strip()
        run_cli(config, "memory", "save", "Ann prefers green tea in the morning")
        beside = run_cli(config, "memory", "search", "Lisbon office door code", "--top-k", "1")
        assert beside.returncode == 0, beside.stderr
        assert beside.stdout.startswith(f"- {key} ")
        assert "starting the packaged model server" not in beside.stderr
        stop(proc, timeout=60)
    assert wait_gone(daemons[0], 15), "the daemon's llama-server outlived it"

    alone = run_cli(
        config, "memory", "search", "Lisbon office door code", "--top-k", "1", timeout=300
    )
    assert alone.returncode == 0, alone.stderr
    assert alone.stdout.startswith(f"- {key} ") and "4239" in alone.stdout
    said = [line for line in alone.stderr.splitlines() if "starting the packaged model" in line]
    # The CLI's server is the chat model's embedding server, not the aliased chat server (its
    # end is checked with the stand-in binary: tests/cli/test_memory_daemon.py).
    assert len(said) == 1 and "embedding server" in said[0]
    assert _servers(alias) == []
