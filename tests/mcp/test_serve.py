"""`agentd mcp serve`: agentd's memory and sessions for one tenant, driven by the SDK's client."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import httpx
import pytest
from mcp import Client, StdioServerParameters

from agentd import scope as scopes
from agentd.memory.history import SQLiteHistory
from agentd.messages import assistant, user
from agentd.model.sidecar import free_port
from tests.support import fake_llama_server
from tests.support.daemon import auth, ready_daemon, write_config
from tests.support.sidecar_helper import process_gone, wait_gone
from tests.support.stub_llm import StubLLM

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[2]


async def test_mcp_serve_shares_one_tenants_memory_and_sessions(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """Another MCP client saves and finds memories and reads sessions of --tenant only."""
    config = write_config(
        tmp_path / "config.json",
        tmp_path,
        stub_llm.url,
        memory={"embed": True},
        milvus={"addr": str(tmp_path / "state" / "milvus.db")},
    )
    (tmp_path / "state").mkdir()
    async with SQLiteHistory.open(tmp_path / "state" / "history.db") as history:
        for tenant, text in (("acme", "plan the trip"), ("beta", "beta's secret")):
            with scopes.use(scopes.Scope(tenant)):
                await history.save_conversation("chat-1", [user(text), assistant("sure")])
    agentd = [sys.executable, "-m", "agentd", "--config", str(config)]
    params = StdioServerParameters(
        command=agentd[0],
        args=[*agentd[1:], "mcp", "serve", "--tenant", "acme"],
        env={"PYTHONPATH": os.environ.get("PYTHONPATH", "")},
        cwd=str(ROOT),
    )
    async with Client(params) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert names == {"memory_save", "memory_search", "sessions_list", "sessions_show"}
        saved = await client.call_tool("memory_save", {"content": "Ada likes green tea"})
        assert not saved.is_error and saved.content[0].text.startswith("saved memory ")  # type: ignore[union-attr]
        found = await client.call_tool("memory_search", {"query": "Ada likes green tea"})
        assert "Ada likes green tea" in found.content[0].text  # type: ignore[union-attr]
        listed = await client.call_tool("sessions_list", {})
        sessions = json.loads(listed.content[0].text)  # type: ignore[union-attr]
        assert [(s["id"], s["messages"]) for s in sessions] == [("chat-1", 2)]
        shown = await client.call_tool("sessions_show", {"session_id": "chat-1"})
        text = shown.content[0].text  # type: ignore[union-attr]
        assert text == "[user] plan the trip\n[assistant] sure"  # acme's, not beta's
        bad = await client.call_tool("memory_search", {"top_k": 3})
        assert bad.is_error


async def test_without_memory_only_the_session_tools_are_served(tmp_path: Path) -> None:
    """With no memory store the server offers sessions_list and sessions_show alone."""
    from agentd.mcp.serve import build_server

    async with SQLiteHistory.open(tmp_path / "history.db") as history:
        with scopes.use(scopes.Scope("acme")):
            await history.save_conversation("c", [user("hello"), assistant("hi")])
            async with Client(build_server(history, None)) as client:
                names = {tool.name for tool in (await client.list_tools()).tools}
                shown = await client.call_tool("sessions_show", {"session_id": "c", "limit": 1})
                missing = await client.call_tool("sessions_show", {"session_id": "nope"})
    assert names == {"sessions_list", "sessions_show"}
    assert shown.content[0].text == "[assistant] hi"  # type: ignore[union-attr]
    assert missing.content[0].text == "(no messages in nope)"  # type: ignore[union-attr]


def _serve(config: Path, tenant: str) -> StdioServerParameters:
    agentd = [sys.executable, "-m", "agentd", "--config", str(config)]
    return StdioServerParameters(
        command=agentd[0],
        args=[*agentd[1:], "mcp", "serve", "--tenant", tenant],
        env={"PYTHONPATH": os.environ.get("PYTHONPATH", "")},
        cwd=str(ROOT),
    )


async def test_beside_a_running_daemon_memory_goes_through_it(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """While the daemon holds Milvus Lite, the MCP server's memory tools use the daemon's API,
    in --tenant; the daemon finds the memory in that tenant only."""
    port = free_port()
    config = write_config(
        tmp_path / "config.json",
        tmp_path,
        stub_llm.url,
        memory={"embed": True, "recall": 0},
        channels={"http": {"enabled": True, "port": port}},
        cron={"enabled": False},
    )
    with ready_daemon(config, tmp_path / "notify.sock") as proc:
        async with Client(_serve(config, "acme")) as client:
            saved = await client.call_tool("memory_save", {"content": "Ada likes green tea"})
            assert saved.content[0].text.startswith("saved memory "), saved  # type: ignore[union-attr]
            found = await client.call_tool("memory_search", {"query": "green tea"})
            assert "Ada likes green tea" in found.content[0].text  # type: ignore[union-attr]
            listed = await client.call_tool("sessions_list", {})
            assert json.loads(listed.content[0].text) == []  # type: ignore[union-attr]
        url, headers = f"http://127.0.0.1:{port}/v1/memories/search", auth(tmp_path)
        body = {"query": "green tea"}
        async with httpx.AsyncClient(headers=headers) as http:
            acme = await http.post(url, json=body, params={"tenant": "acme"})
            home = await http.post(url, json=body)
        proc.terminate()
    assert [m["content"] for m in acme.json()["data"]] == ["Ada likes green tea"]
    assert home.json()["data"] == []


async def test_without_a_daemon_the_model_server_runs_as_long_as_the_server(
    tmp_path: Path,
) -> None:
    """With llm.sidecar on and no daemon, serve starts the model server for embeddings and
    stops it when the client goes."""
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    sidecar = {
        "enabled": True,
        "binary": str(fake_llama_server.install(tmp_path)),
        "model_path": str(gguf),
    }
    config = write_config(
        tmp_path / "config.json",
        tmp_path,
        "http://127.0.0.1:9",
        memory={"embed": True},
        llm={"max_retries": 0, "sidecar": sidecar},
    )
    async with Client(_serve(config, "acme")) as client:
        saved = await client.call_tool("memory_save", {"content": "Ada likes green tea"})
        assert saved.content[0].text.startswith("saved memory "), saved  # type: ignore[union-attr]
        servers = fake_llama_server.pids(tmp_path / "state" / "llama-server.log")
        assert len(servers) == 1 and not process_gone(servers[0])
    assert wait_gone(servers[0], 10), "the model server outlived `agentd mcp serve`"
