"""The agent with long-term memory wired in by open_app: on, off, misconfigured, and broken."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from agentd.config import Settings
from agentd.daemon.app import App, open_app
from agentd.engine.loop import TurnDone
from agentd.memory.hybrid import HybridStore
from agentd.memory.milvus import MilvusStore
from tests.support.milvus_server import MilvusServer, free_port, server_binary
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio


def _settings(stub: StubLLM, tmp_path: Path, **memory: Any) -> Settings:
    (tmp_path / "workdir").mkdir(exist_ok=True)
    return Settings(
        workdir=tmp_path / "workdir",
        state_dir=tmp_path / "state",
        llm={"base_url": stub.url, "max_retries": 0},
        memory={"embed": memory.pop("embed", True)},
        milvus=memory,
    )


async def _turn(app: App, text: str) -> str:
    async with app.runtime.turn("console:test", text, stream=False) as events:
        async for event in events:
            if isinstance(event, TurnDone):
                return event.result.message.content or ""
    raise AssertionError("the turn ended without TurnDone")


def _last_tool_result(stub: StubLLM) -> str:
    chats = [r for r in stub.requests if "messages" in r]
    # The last tool message; agentd's reminder of the request follows it.
    message = [m for m in chats[-1]["messages"] if m["role"] == "tool"][-1]
    assert chats[-1]["messages"][-1]["role"] == "user"
    return str(message["content"])


def _events(logs: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [entry for entry in logs if entry["event"] == name]


async def test_memory_off_means_no_memory_tools(stub_llm: StubLLM, tmp_path: Path) -> None:
    """MEMORY_EMBED=false: no store, no memory tools, and the agent answers."""
    async with open_app(_settings(stub_llm, tmp_path, embed=False)) as app:
        assert app.memory is None
        assert "memory_search" not in app.tools and "memory_save" not in app.tools
        assert await _turn(app, "hello") == "echo: hello"


async def test_empty_address_warns_and_goes_on(stub_llm: StubLLM, tmp_path: Path) -> None:
    """Memory on but milvus.addr empty: a warning says why, and the agent answers."""
    with capture_logs() as logs:
        async with open_app(_settings(stub_llm, tmp_path, addr="")) as app:
            assert app.memory is None and "memory_save" not in app.tools
            assert await _turn(app, "hello") == "echo: hello"
    (warning,) = _events(logs, "memory.unavailable")
    assert warning["log_level"] == "warning" and "milvus.addr is empty" in warning["reason"]


async def test_server_down_at_start_warns_and_goes_on(stub_llm: StubLLM, tmp_path: Path) -> None:
    """Nothing listening at the Milvus address: a warning names it, and the agent answers."""
    addr = f"http://127.0.0.1:{free_port()}"
    with capture_logs() as logs:
        async with open_app(_settings(stub_llm, tmp_path, addr=addr)) as app:
            assert app.memory is None and "memory_search" not in app.tools
            assert await _turn(app, "hello") == "echo: hello"
    (warning,) = _events(logs, "memory.unavailable")
    assert "cannot open Milvus" in warning["reason"] and addr in warning["reason"]


async def test_default_is_milvus_lite_in_the_state_dir(stub_llm: StubLLM, tmp_path: Path) -> None:
    """With no address, memory lives in Milvus Lite under the state dir; the tools round-trip."""
    stub_llm.add(
        Reply(tool_calls=[("memory_save", {"content": "Ann likes green tea", "tags": ["pref"]})]),
        Reply(text="noted"),
        Reply(tool_calls=[("memory_search", {"query": "green tea", "tags": ["PREF"]})]),
        Reply(text="found it"),
    )
    async with open_app(_settings(stub_llm, tmp_path)) as app:
        assert isinstance(app.memory, HybridStore)
        assert isinstance(app.memory.dense, MilvusStore) and app.memory.dense.lite
        assert app.memory.dense.uri == str(tmp_path / "state" / "milvus.db")
        assert await _turn(app, "remember: Ann likes green tea") == "noted"
        assert _last_tool_result(stub_llm).startswith("saved memory ")
        assert await _turn(app, "what does Ann drink?") == "found it"
        assert "Ann likes green tea" in _last_tool_result(stub_llm)
    assert (tmp_path / "state" / "milvus.db").is_dir()


async def test_server_killed_mid_session(
    stub_llm: StubLLM, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Milvus dies: memory tools answer one 'unavailable' line, a warning is logged, turns go on."""
    binary = server_binary()
    assert binary is not None, "milvus-server is not installed"
    server = MilvusServer(tmp_path_factory.mktemp("killed-server"), binary)
    server.start()
    try:
        stub_llm.add(
            Reply(tool_calls=[("memory_save", {"content": "the boat is red"})]),
            Reply(text="saved"),
        )
        with capture_logs() as logs:
            async with open_app(_settings(stub_llm, tmp_path, addr=server.uri)) as app:
                assert app.memory is not None
                assert await _turn(app, "remember the boat") == "saved"
                server.kill()
                stub_llm.add(
                    Reply(tool_calls=[("memory_search", {"query": "the boat"})]),
                    Reply(text="I cannot recall right now"),
                    Reply(tool_calls=[("memory_save", {"content": "the sail is white"})]),
                    Reply(text="could not save"),
                )
                assert await _turn(app, "what colour is the boat?") == "I cannot recall right now"
                result = _last_tool_result(stub_llm)
                assert result.startswith("memory unavailable: Milvus search failed")
                assert "\n" not in result
                assert await _turn(app, "remember the sail") == "could not save"
                assert _last_tool_result(stub_llm).startswith("memory unavailable: Milvus ")
                assert await _turn(app, "still there?") == "echo: still there?"
                assert (app.memory.degraded or "").startswith("Milvus ")
    finally:
        server.kill()
    (warning,) = _events(logs, "memory.degraded")
    assert warning["log_level"] == "warning" and "Milvus search failed" in warning["reason"]


def test_tool_results_are_json_free_text() -> None:
    """The unavailable line is plain text, so the model reads it as a sentence."""
    from agentd.errors import MemoryUnavailable
    from agentd.tools.memory import unavailable

    text = unavailable(MemoryUnavailable("Milvus search failed:\n  connection refused"))
    assert text == "memory unavailable: Milvus search failed: connection refused"
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
