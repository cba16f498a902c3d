"""`agentd run` with MCP servers: READY despite a broken server, /readyz, and no orphan."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
import openai

from agentd.model.sidecar import free_port
from tests.mcp.conftest import stdio_server
from tests.support.daemon import NotifySocket, auth, daemon, http_token, write_config
from tests.support.stub_llm import Reply, StubLLM


def _gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_kill_9_of_agentd_leaves_no_stdio_server(stub_llm: StubLLM, tmp_path: Path) -> None:
    """READY with one server up and one failing; a turn calls the stdio server's tool; after
    kill -9 of agentd the server process is gone too."""
    port = free_port()
    config = write_config(
        tmp_path / "config.json",
        tmp_path,
        stub_llm.url,
        channels={"http": {"enabled": True, "port": port}},
        cron={"enabled": False},
        mcp={
            "servers": {"loc": stdio_server(), "bad": {"command": str(tmp_path / "nothing")}},
            "start_wait": 20,
        },
    )
    notify = NotifySocket(tmp_path / "notify.sock")
    try:
        with daemon(config, notify) as proc:
            notify.wait_for("READY=1", timeout=40)
            url = f"http://127.0.0.1:{port}"
            # Without a token only the verdict: no server names.
            assert httpx.get(f"{url}/readyz").json() == {"status": "ready"}
            token = {"Authorization": f"Bearer {http_token(tmp_path)}"}
            ready = httpx.get(f"{url}/readyz", headers=token).json()
            assert ready["status"] == "ready"
            assert ready["checks"]["mcp"] == {"loc": "up", "bad": "down"}
            stub_llm.add(Reply(tool_calls=[("loc__pid", {})]), Reply(text="done"))
            client = openai.OpenAI(base_url=f"{url}/v1", api_key=http_token(tmp_path), timeout=30)
            answer = client.chat.completions.create(
                model="agentd", messages=[{"role": "user", "content": "pid?"}]
            )
            assert answer.choices[0].message.content == "done"
            server_pid = int(stub_llm.requests[1]["messages"][-2]["content"])
            os.kill(server_pid, 0)
            scraped = httpx.get(f"{url}/metrics", headers=auth(tmp_path)).text
            assert 'agentd_mcp_server_up{server="loc"} 1.0' in scraped
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
            assert _gone(server_pid, 10), "the stdio MCP server outlived agentd"
            assert proc.stdout is not None
            assert '"event": "mcp.server_down"' in proc.stdout.read()
    finally:
        notify.close()
