"""MCP servers through the daemon's wiring (open_app) and the stub model: real SDK servers."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import anyio
import pytest
from structlog.testing import capture_logs

from agentd import scope as scopes
from agentd.daemon.app import App, open_app
from agentd.mcp.results import CUT_HINT
from agentd.messages import ToolCall
from tests.mcp.conftest import app_settings, stdio_server
from tests.support.mcp_server import SECRET, HttpServer, serving_http
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio


def _offered(body: dict[str, Any]) -> set[str]:
    return {t["function"]["name"] for t in body.get("tools") or ()}


def _tool_results(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "tool"]


async def _call(app: App, stub: StubLLM, tool: str, args: dict[str, Any], **kw: Any) -> str:
    """One turn whose model calls ``tool``; the tool result the model was sent next."""
    stub.add(Reply(tool_calls=[(tool, args)]), Reply(text="ok"))
    before = len(stub.requests)
    result = await app.runtime.ask(f"s-{before}", f"use {tool}", **kw)
    assert result.message.content == "ok"
    return _tool_results(stub.requests[before + 1])[-1]


async def _until(check: Any) -> None:
    """Poll ``check`` (link states change in other tasks) for up to 15 seconds."""
    with anyio.fail_after(15):
        while not check():  # noqa: ASYNC110 - nothing to wait on but the state itself
            await anyio.sleep(0.05)


async def test_a_tool_round_trip_on_each_transport(
    tmp_path: Path, stub_llm: StubLLM, web_url: str
) -> None:
    """Stdio and HTTP servers' tools are offered as <server>__<tool>, compact, and answer."""
    settings = app_settings(tmp_path, stub_llm, web={"url": web_url}, loc=stdio_server())
    async with open_app(settings) as app:
        assert app.mcp is not None and app.mcp.states() == {"web": "up", "loc": "up"}
        assert await _call(app, stub_llm, "web__add", {"a": 2, "b": 3}) == "5"
        assert await _call(app, stub_llm, "loc__add", {"a": 4, "b": 3}) == "7"
        first = stub_llm.requests[0]
        assert {"web__add", "loc__add", "web__slow", "current_time"} <= _offered(first)
        add = next(t for t in first["tools"] if t["function"]["name"] == "web__add")
        assert add["function"] == {
            "name": "web__add",
            "description": "Add two numbers.",
            "parameters": {
                "type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                "required": ["a", "b"],
            },
        }
        text = app.metrics.exposition().decode()
        assert 'agentd_mcp_server_up{server="loc"} 1.0' in text
        assert 'agentd_tool_calls_total{outcome="ok",tool="web__add"} 1.0' in text


async def test_a_server_that_crashes_mid_call_is_reconnected(
    tmp_path: Path, stub_llm: StubLLM
) -> None:
    """A crash is a tool error, the daemon answers on, and the server is started again."""
    settings = app_settings(tmp_path, stub_llm, loc=stdio_server())
    async with open_app(settings) as app:
        assert app.mcp is not None
        link = app.mcp.links["loc"]
        first_pid = int(await _call(app, stub_llm, "loc__pid", {}))
        with capture_logs() as logs:
            result = await _call(app, stub_llm, "loc__crash", {})
            assert result.startswith("error: the MCP server 'loc' went away during the call")
            await _until(lambda: link.state == "down")
            assert "loc__pid" not in app.tools.names
            stub_llm.add(Reply(text="still here"))
            assert (await app.runtime.ask("other", "hi")).message.content == "still here"
            await _until(lambda: link.state == "up")
        assert any(e["event"] == "mcp.server_down" and e["log_level"] == "warning" for e in logs)
        assert link.reconnects == 1
        second_pid = int(await _call(app, stub_llm, "loc__pid", {}))
        assert second_pid != first_pid
        with pytest.raises(ProcessLookupError):
            os.kill(first_pid, 0)
        assert 'agentd_mcp_reconnects_total{server="loc"} 1.0' in app.metrics.exposition().decode()
    with pytest.raises(ProcessLookupError):
        os.kill(second_pid, 0)


async def test_an_http_server_that_goes_away_is_reconnected(
    tmp_path: Path, stub_llm: StubLLM
) -> None:
    """Its tools leave while it is gone (its event stream ends); they are back when it is."""
    server = HttpServer()
    settings = app_settings(tmp_path, stub_llm, web={"url": server.start()})
    async with open_app(settings) as app:
        assert app.mcp is not None
        link = app.mcp.links["web"]
        await anyio.to_thread.run_sync(server.stop)
        await _until(lambda: link.state == "down")
        assert "web__add" not in app.tools.names
        await anyio.to_thread.run_sync(server.start)
        try:
            await _until(lambda: link.state == "up")
            assert await _call(app, stub_llm, "web__add", {"a": 1, "b": 1}) == "2"
        finally:
            await anyio.to_thread.run_sync(server.stop)


async def test_a_hanging_call_times_out_as_a_tool_error(
    tmp_path: Path, stub_llm: StubLLM, web_url: str
) -> None:
    """A call past the server's timeout is cancelled and answered as an error; calls go on."""
    settings = app_settings(tmp_path, stub_llm, web={"url": web_url, "timeout": 0.5})
    async with open_app(settings) as app:
        started = anyio.current_time()
        result = await _call(app, stub_llm, "web__slow", {"seconds": 30})
        assert result == "error: web__slow timed out after 0.5s"
        assert anyio.current_time() - started < 5
        assert await _call(app, stub_llm, "web__add", {"a": 1, "b": 1}) == "2"


async def test_a_huge_result_is_capped(tmp_path: Path, stub_llm: StubLLM, web_url: str) -> None:
    """A result past max_result_chars is cut, with the line that says so; the turn then cuts
    it to the model's context as it does any tool's result."""
    settings = app_settings(tmp_path, stub_llm, web={"url": web_url, "max_result_chars": 3000})
    async with open_app(settings) as app:
        call = ToolCall("1", "web__huge", '{"chars": 2000000}')
        direct = await app.tools.call(call)
        assert 2900 < len(direct.content) <= 3000 and not direct.error
        assert direct.content.endswith(f"more characters; {CUT_HINT}]")
        result = await _call(app, stub_llm, "web__huge", {"chars": 2_000_000})
        assert len(result) <= 3000
        assert result.startswith("y" * 99 + "\n") and "more characters" in result


async def test_allow_and_deny_lists_pick_the_tools(
    tmp_path: Path, stub_llm: StubLLM, web_url: str
) -> None:
    """Only allowed, not denied tools are offered; a denied one cannot be called."""
    rules = {"allow": ["add", "s*"], "deny": ["secret"]}
    settings = app_settings(tmp_path, stub_llm, web={"url": web_url, "tools": rules})
    async with open_app(settings) as app:
        result = await _call(app, stub_llm, "web__secret", {})
        assert result.startswith("error: unknown tool 'web__secret'")
        assert SECRET not in str(stub_llm.requests)
        mcp_tools = {n for n in _offered(stub_llm.requests[0]) if n.startswith("web__")}
        assert mcp_tools == {"web__add", "web__slow"}
        # add says it only reads (readOnlyHint): it looks; a tool that says nothing acts.
        assert "web__add" in app.tools.looking and "web__slow" not in app.tools.looking


async def test_a_server_limited_to_tenants(tmp_path: Path, stub_llm: StubLLM, web_url: str) -> None:
    """A server's tools are offered in its tenants' turns only."""
    settings = app_settings(tmp_path, stub_llm, web={"url": web_url, "tenants": ["acme"]})
    async with open_app(settings) as app:
        stub_llm.add(Reply(text="a"), Reply(text="b"))
        await app.runtime.ask("s", "hi", scope=scopes.Scope("acme"))
        await app.runtime.ask("s", "hi", scope=scopes.Scope("beta"))
        assert "web__add" in _offered(stub_llm.requests[0])
        assert not {n for n in _offered(stub_llm.requests[1]) if n.startswith("web__")}


async def test_a_changed_tool_list_is_offered_next_turn(tmp_path: Path, stub_llm: StubLLM) -> None:
    """The server's list_changed event brings its new tool into the next turn's offer."""
    with serving_http() as url:
        settings = app_settings(tmp_path, stub_llm, web={"url": url})
        async with open_app(settings) as app:
            assert "web__extra" not in _offered_now(app)
            assert await _call(app, stub_llm, "web__grow", {}) == "grown"
            await _until(lambda: "web__extra" in app.tools.names)
            assert await _call(app, stub_llm, "web__extra", {}) == "extra!"
            assert "web__extra" in _offered(stub_llm.requests[-2])


def _offered_now(app: App) -> set[str]:
    return {s["function"]["name"] for s in app.tools.schemas()}


async def test_a_server_that_fails_at_start_is_a_warning(
    tmp_path: Path, stub_llm: StubLLM, web_url: str
) -> None:
    """A server that cannot start is logged and shown down; the others and the daemon work."""
    bad = {"command": str(tmp_path / "no-such-server")}
    settings = app_settings(tmp_path, stub_llm, web={"url": web_url}, bad=bad)
    with capture_logs() as logs:
        async with open_app(settings) as app:
            assert app.mcp is not None and app.mcp.states() == {"web": "up", "bad": "down"}
            assert await _call(app, stub_llm, "web__add", {"a": 1, "b": 2}) == "3"
            text = app.metrics.exposition().decode()
    down = [e for e in logs if e["event"] == "mcp.server_down"]
    assert down and down[0]["log_level"] == "warning" and down[0]["server"] == "bad"
    assert "No such file or directory" in down[0]["error"]
    assert 'agentd_mcp_server_up{server="bad"} 0.0' in text


async def test_a_slow_server_does_not_hold_the_start(tmp_path: Path, stub_llm: StubLLM) -> None:
    """The app is ready after start_wait; the slow server's tools come when it is up."""
    slow = stdio_server()
    slow["args"] = ["-c", f"sleep 2; exec {slow['command']} {' '.join(slow['args'])}"]
    slow["command"] = "sh"
    settings = app_settings(tmp_path, stub_llm, start_wait=0.3, loc=slow)
    started = anyio.current_time()
    async with open_app(settings) as app:
        assert anyio.current_time() - started < 1.9
        assert app.mcp is not None and app.mcp.states() == {"loc": "starting"}
        await _until(lambda: app.mcp is not None and app.mcp.states()["loc"] == "up")
        assert "loc__add" in app.tools.names


async def test_an_older_servers_list_changed_notification_relists(tmp_path: Path) -> None:
    """notifications/tools/list_changed (servers before the 2026 listen stream) marks a change."""
    from mcp_types import ToolListChangedNotification

    from agentd.config.mcp import McpServerSettings
    from agentd.mcp.link import McpLink
    from agentd.tools.registry import ToolRegistry

    link = McpLink("old", McpServerSettings(command="x"), ToolRegistry(), tmp_path)
    await link._on_message(ValueError("a transport hiccup"))
    assert not link._changed.is_set()
    await link._on_message(ToolListChangedNotification())
    assert link._changed.is_set()


async def test_a_server_with_many_tools_is_a_warning(tmp_path: Path) -> None:
    """Past MANY_TOOLS offered tools the log says to narrow the allow list."""
    from agentd.config.mcp import McpSettings
    from agentd.mcp.link import MANY_TOOLS
    from agentd.mcp.servers import McpServers
    from agentd.tools.registry import ToolRegistry

    with serving_http("big", MANY_TOOLS + 1, extras=False) as url, capture_logs() as logs:
        settings = McpSettings(servers={"big": {"url": url}})
        async with McpServers.open(settings, ToolRegistry(), tmp_path) as servers:
            assert len(servers.info()[0].tools) == MANY_TOOLS + 1
    (warning,) = [e for e in logs if e["event"] == "mcp.many_tools"]
    assert "mcp.servers.big.tools.allow" in warning["hint"]
