"""``agentd sessions|tenants ... --remote`` against the real daemon, as a subprocess.

The daemon generates its token into the state directory (no tokens configured) and also knows
one ordinary principal, ``alice`` of tenant ``alice``; the CLI runs with the daemon's config, so
it finds the URL and the generated token as ``agentd chat`` does.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from agentd.model.sidecar import free_port
from tests.support.daemon import NotifySocket, auth, daemon, write_config
from tests.support.stub_llm import StubLLM


@pytest.fixture
def running(stub_llm: StubLLM, tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A daemon with the HTTP channel; yields its config file and base URL."""
    port = free_port()
    config = write_config(
        tmp_path / "config.json",
        tmp_path,
        stub_llm.url,
        tenant="home",
        channels={
            "http": {
                "enabled": True,
                "port": port,
                "principals": [{"name": "alice", "tenant": "alice", "token": "alice-token"}],
            }
        },
        cron={"enabled": False},
    )
    notify = NotifySocket(tmp_path / "notify.sock")
    try:
        with daemon(config, notify) as proc:
            notify.wait_for("READY=1")
            yield config, f"http://127.0.0.1:{port}"
            proc.terminate()
    finally:
        notify.close()


def agentd(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "AGENTD_TOKEN"}
    return subprocess.run(
        [sys.executable, "-m", "agentd", "--config", str(config), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_remote_sessions_use_the_generated_token(running: tuple[Path, str], tmp_path: Path) -> None:
    """list, show and clear --remote reach the daemon with its generated token, in its tenant."""
    config, url = running
    body = {"messages": [{"role": "user", "content": "hi"}], "user": "dan"}
    reply = httpx.post(f"{url}/v1/chat/completions", json=body, headers=auth(tmp_path), timeout=30)
    assert reply.status_code == 200, reply.text
    listed = agentd(config, "sessions", "list", "--remote")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith("http:dan       2 messages  last ")
    shown = agentd(config, "sessions", "show", "http:dan", "--remote", "--limit", "1")
    assert shown.returncode == 0, shown.stderr
    first, context = shown.stdout.splitlines()
    assert first == "[assistant] echo: hi"
    assert context.startswith("(context last turn: ")
    tenants = agentd(config, "tenants", "list", "--remote")
    assert tenants.returncode == 0, tenants.stderr
    assert "home  turns/min unlimited, tokens/day unlimited" in tenants.stdout.splitlines()
    cleared = agentd(config, "sessions", "clear", "http:dan", "--remote")
    assert (cleared.returncode, cleared.stdout) == (0, "cleared http:dan: 2 messages\n")
    assert agentd(config, "sessions", "list", "--remote").stdout == "(no sessions)\n"


def test_an_ordinary_token_naming_another_tenant_exits_1(running: tuple[Path, str]) -> None:
    """alice's token with --tenant home exits 1 with the daemon's 403 reason; its own works."""
    config, _ = running
    refused = agentd(
        config, "sessions", "list", "--remote", "--token", "alice-token", "--tenant", "home"
    )
    assert refused.returncode == 1
    assert "the daemon refused: acting in another tenant ('home')" in refused.stderr
    assert "principal 'alice' is not one" in refused.stderr
    own = agentd(config, "sessions", "list", "--remote", "--token", "alice-token")
    assert (own.returncode, own.stdout) == (0, "(no sessions)\n"), own.stderr
    tenants = agentd(config, "tenants", "list", "--remote", "--token", "alice-token")
    assert tenants.returncode == 1
    assert "/v1/tenants is for admin principals only" in tenants.stderr
    assert "alice-token" not in refused.stderr + tenants.stderr
