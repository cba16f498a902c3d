"""``agentd memory`` on the real daemon's state: through it while it runs, on its own after.

The daemon runs as a subprocess with Milvus Lite in its state directory (which opens in one
process only) and its generated token; the CLI runs with the daemon's config, so it finds the
daemon through the state lock, and its URL and token as ``agentd chat`` does. With the daemon
stopped, the CLI opens the store itself and, with ``llm.sidecar`` on, starts the model server
for the embeddings and stops it again (here a stand-in that embeds deterministically).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from agentd.model.sidecar import free_port
from tests.support import fake_llama_server
from tests.support.daemon import NotifySocket, auth, daemon, run_cli, stop, write_config
from tests.support.sidecar_helper import wait_gone
from tests.support.stub_llm import StubLLM

STARTING = "starting the packaged model"


def _config(tmp_path: Path, llm_url: str, port: int, **extra: Any) -> Path:
    return write_config(
        tmp_path / "config.json",
        tmp_path,
        llm_url,
        tenant="home",
        memory={"embed": True, "recall": 0},
        channels={
            "http": {
                "enabled": True,
                "port": port,
                "principals": [{"name": "alice", "tenant": "alice", "token": "alice-token"}],
            }
        },
        cron={"enabled": False},
        **extra,
    )


def _ready(config: Path, tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    notify = NotifySocket(tmp_path / "notify.sock")
    try:
        with daemon(config, notify) as proc:
            notify.wait_for("READY=1", timeout=90)
            yield proc
    finally:
        notify.close()


@pytest.fixture
def beside(stub_llm: StubLLM, tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A daemon on the stub model with memory on; yields its config and base URL."""
    port = free_port()
    config = _config(tmp_path, stub_llm.url, port)
    for proc in _ready(config, tmp_path):
        yield config, f"http://127.0.0.1:{port}"
        stop(proc)


def test_save_search_delete_go_through_the_running_daemon(
    beside: tuple[Path, str], tmp_path: Path
) -> None:
    """While the daemon holds Milvus Lite, the CLI saves, finds, counts and deletes through it."""
    config, url = beside
    saved = run_cli(config, "memory", "save", "Ann likes green tea", "--tag", "pref")
    assert saved.returncode == 0, saved.stderr
    key = saved.stdout.strip()
    assert key and STARTING not in saved.stderr
    # The daemon's own store has it: the CLI went through the daemon, not around it.
    seen = httpx.post(
        f"{url}/v1/memories/search", json={"query": "green tea"}, headers=auth(tmp_path)
    )
    assert [m["id"] for m in seen.json()["data"]] == [key]

    found = run_cli(config, "memory", "search", "green tea", "--tag", "pref")
    assert found.returncode == 0, found.stderr
    assert found.stdout.startswith(f"- {key} ") and "[pref]" in found.stdout
    assert "Ann likes green tea" in found.stdout
    stats = run_cli(config, "memory", "stats")
    assert stats.returncode == 0, stats.stderr
    assert "backend    milvus-lite" in stats.stdout
    assert "memories   1 (tenant home)" in stats.stdout

    deleted = run_cli(config, "memory", "delete", key)
    assert (deleted.returncode, deleted.stdout) == (0, f"deleted {key}\n"), deleted.stderr
    again = run_cli(config, "memory", "delete", key)
    assert again.returncode == 1 and f"no memory {key!r}" in again.stderr
    empty = run_cli(config, "memory", "search", "green tea")
    assert empty.stdout == "no memories found\n"


def test_forcing_local_beside_the_daemon_says_what_to_do(beside: tuple[Path, str]) -> None:
    """--local while the daemon holds Milvus Lite: exit 75 and one line naming the way out."""
    config, _ = beside
    refused = run_cli(config, "memory", "save", "x", "--local")
    assert refused.returncode == 75
    lines = [line for line in refused.stderr.splitlines() if line.startswith("agentd: ")]
    assert len(lines) == 1 and "drop --local to go through the daemon" in lines[0]


def test_the_daemon_applies_its_tenant_rules(beside: tuple[Path, str]) -> None:
    """alice's token works in her tenant; naming another is the daemon's 403, exit 1."""
    config, _ = beside
    own = run_cli(config, "memory", "save", "Bo likes coffee", "--token", "alice-token")
    assert own.returncode == 0, own.stderr
    stats = run_cli(config, "memory", "stats", "--token", "alice-token")
    assert "memories   1 (tenant alice)" in stats.stdout
    assert "address    (shown to admins only)" in stats.stdout
    assert "memories   0 (tenant home)" in run_cli(config, "memory", "stats").stdout
    refused = run_cli(
        config, "memory", "search", "coffee", "--token", "alice-token", "--tenant", "home"
    )
    assert refused.returncode == 1
    assert "the daemon refused: acting in another tenant ('home')" in refused.stderr
    bad = run_cli(config, "memory", "search", "coffee", "--top-k", "0")
    assert bad.returncode == 65 and "top_k" in bad.stderr


def test_remote_without_a_daemon_exits_69(stub_llm: StubLLM, tmp_path: Path) -> None:
    """--remote with nothing listening: exit 69 and a line saying no daemon answers."""
    config = _config(tmp_path, stub_llm.url, free_port())
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "http.token").write_text("t" * 32)
    (tmp_path / "state" / "http.token").chmod(0o600)
    missed = run_cli(config, "memory", "stats", "--remote")
    assert missed.returncode == 69
    assert "no agentd daemon answers at http://127.0.0.1:" in missed.stderr


def test_with_the_daemon_stopped_the_cli_runs_the_model_server_itself(
    tmp_path: Path,
) -> None:
    """A memory saved through the daemon is found after it stopped: the CLI starts the chat
    model's embedding server for the search, as the daemon runs it (one line says so), stops
    it, and no server outlives either."""
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    port = free_port()
    sidecar = {
        "enabled": True,
        "binary": str(fake_llama_server.install(tmp_path)),
        "model_path": str(gguf),
    }
    config = _config(
        tmp_path, "http://127.0.0.1:9", port, llm={"max_retries": 0, "sidecar": sidecar}
    )
    log = tmp_path / "state" / "llama-server.log"
    embed_log = tmp_path / "state" / "embed-server.log"
    for proc in _ready(config, tmp_path):
        saved = run_cli(config, "memory", "save", "the door code is 4239")
        assert saved.returncode == 0, saved.stderr
        key = saved.stdout.strip()
        stop(proc)
    daemons = fake_llama_server.pids(log) + fake_llama_server.pids(embed_log)
    assert len(daemons) == 2 and all(wait_gone(pid, 10) for pid in daemons)

    found = run_cli(config, "memory", "search", "door code")
    assert found.returncode == 0, found.stderr
    assert found.stdout.startswith(f"- {key} ") and "the door code is 4239" in found.stdout
    said = [line for line in found.stderr.splitlines() if STARTING in line]
    assert len(said) == 1 and "it stops when the command ends" in said[0]
    assert len(fake_llama_server.pids(log)) == 1, "the CLI started the chat server"
    servers = fake_llama_server.pids(embed_log)
    started = [x for x in embed_log.read_text().splitlines() if x.startswith("fake llama-server")]
    assert len(servers) == 2 and "--embeddings" in started[1] and "--no-repack" in started[1]
    assert wait_gone(servers[1], 10), "the CLI's model server outlived it"

    stats = run_cli(config, "memory", "stats")  # no embedding: no server
    assert stats.returncode == 0 and "memories   1 (tenant home)" in stats.stdout
    assert STARTING not in stats.stderr and len(fake_llama_server.pids(embed_log)) == 2


def test_a_daemon_without_the_http_api_is_named_with_the_way_out(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A daemon holds the state but serves no HTTP API: exit 69, one line saying what to do."""
    port = free_port()
    config = _config(tmp_path, stub_llm.url, port)
    raw = json.loads(config.read_text())
    raw["channels"]["http"]["enabled"] = False
    raw["cron"] = {"enabled": True, "jobs": [{"name": "j", "schedule": "0 3 1 1 *", "prompt": "x"}]}
    config.write_text(json.dumps(raw))
    for proc in _ready(config, tmp_path):
        stuck = run_cli(config, "memory", "stats")
        stop(proc)
    assert stuck.returncode == 69
    lines = [line for line in stuck.stderr.splitlines() if line.startswith("agentd: ")]
    assert len(lines) == 1
    assert f"no agentd HTTP API answers at http://127.0.0.1:{port}" in lines[0]
    assert "enable channels.http in its config" in lines[0]
