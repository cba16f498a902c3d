"""The wiring: settings to a runtime with built-in tools and the system prompt."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from agentd import scope as scopes
from agentd.config import CronJob, Settings, load_settings
from agentd.daemon.app import App, build_channels, open_app
from agentd.errors import ConfigError
from agentd.messages import ToolCall
from channels.http.console.sources import AgentTasks
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio


async def test_open_app_wires_a_working_runtime(tmp_path: Path, stub_llm: StubLLM) -> None:
    """open_app() builds tools, prompt and runtime from settings; a turn reaches the model."""
    workdir = tmp_path / "workdir"
    workdir.mkdir()
    (tmp_path / "SYSTEM.md").write_text("You are Ada.")
    settings = load_settings(
        environ={
            "LLAMA_URL": stub_llm.url,
            "AGENT_WORKDIR": str(workdir),
            "AGENT_MAX_STEPS": "3",
            "AGENTD_TENANT": "acme",
        }
    ).settings
    async with open_app(settings) as app:
        builtin = {"current_time", "read_file", "write_file", "append_file", "list_dir"}
        assert builtin <= app.tools.names
        assert app.runtime.system_prompt == "You are Ada."
        assert app.runtime.agent_loop.max_steps == 3
        assert app.runtime.default_scope.tenant == "acme"
        stub_llm.add(Reply(text="hello"))
        result = await app.runtime.ask("s", "hi")
        assert result.message.content == "hello"
        prompt = stub_llm.requests[0]["messages"][0]["content"]
        assert prompt.startswith("Today is ") and prompt.endswith("\n\nYou are Ada.")
        (workdir / "AGENTS.md").write_text("Notes live in notes/.")
        app.reload_prompt()
        assert app.runtime.system_prompt == "You are Ada.\n\nNotes live in notes/."


@pytest.mark.parametrize(
    ("env", "state", "tools"),
    [
        pytest.param({"MEMORY_EMBED": "false"}, "off", False, id="off"),
        pytest.param({"MEMORY_EMBED": "true", "MILVUS_ADDR": ""}, "degraded", False, id="no-addr"),
        pytest.param({"MEMORY_EMBED": "true"}, "ok", True, id="lite"),
    ],
)
async def test_memory_state_reaches_readiness_and_metrics(
    tmp_path: Path, stub_llm: StubLLM, env: dict[str, str], state: str, tools: bool
) -> None:
    """Long-term memory is off, degraded or ok; the metrics gauge says degraded only then."""
    environ = {"LLAMA_URL": stub_llm.url, "AGENTD_STATE_DIR": str(tmp_path / "state"), **env}
    settings = load_settings(environ=environ).settings
    async with open_app(settings) as app:
        assert app.memory_state() == state
        assert ("memory_search" in app.tools.names) is tools
        text = app.metrics.exposition().decode()
    degraded = 1.0 if state == "degraded" else 0.0
    assert f"agentd_memory_degraded {degraded}" in text


async def test_cron_ticks_count_in_the_app_metrics(tmp_path: Path, stub_llm: StubLLM) -> None:
    """A tick through the cron channel build_channels wires counts in the app's exposition."""
    job = CronJob(name="beat", schedule="1h", prompt="check")
    settings = Settings(
        workdir=tmp_path,
        state_dir=tmp_path / "state",
        llm={"base_url": stub_llm.url, "max_retries": 0},  # type: ignore[arg-type]
        memory={"embed": False},  # type: ignore[arg-type]
        cron={"jobs": [job]},  # type: ignore[arg-type]
    )
    stub_llm.add(Reply(text="HEARTBEAT_OK"))
    async with open_app(settings) as app:
        [cron] = build_channels(app, app.channel_health)
        async with cron:
            status = await cron.heartbeat(app.runtime).tick(job, "2026-01-05T10:00:00Z")
        text = app.metrics.exposition().decode()
    assert status == "ok"
    assert 'agentd_cron_ticks_total{job="beat",status="ok"} 1.0' in text


async def test_the_console_lists_and_runs_the_cron_jobs(tmp_path: Path, stub_llm: StubLLM) -> None:
    """The HTTP channel's console gets the cron jobs: listed, run now as a manual tick."""
    job = CronJob(name="beat", schedule="1h", prompt="check")
    settings = Settings(
        workdir=tmp_path,
        state_dir=tmp_path / "state",
        llm={"base_url": stub_llm.url, "max_retries": 0},  # type: ignore[arg-type]
        memory={"embed": False},  # type: ignore[arg-type]
        cron={"jobs": [job]},  # type: ignore[arg-type]
        channels={"http": {"enabled": True, "no_token_on_loopback": True}},  # type: ignore[arg-type]
    )
    async with open_app(settings) as app:
        cron, http = build_channels(app, app.channel_health)
        assert http.console is not None
        jobs, tasks = http.console.schedules  # configured jobs, then the agent's tasks
        [health] = http.console.health
        assert [s.name for s in await jobs.scheduled()] == ["beat"]
        assert isinstance(tasks, AgentTasks) and await tasks.scheduled() == []
        async with cron:
            assert await jobs.run_now("beat") == "ok"
            with pytest.raises(KeyError):
                await jobs.run_now("other")
        [tick] = await jobs.runs(job="beat")
        states = {c.name: c.state for c in await health.components()}
    assert (tick.kind, tick.status) == ("manual", "ok")
    assert states["long-term memory (Milvus)"] == "off"


def _settings(tmp_path: Path, stub_llm: StubLLM, **extra: object) -> Settings:
    workdir = tmp_path / "workdir"
    workdir.mkdir(exist_ok=True)
    return Settings(
        workdir=workdir,
        state_dir=tmp_path / "state",
        llm={"base_url": stub_llm.url, "max_retries": 0},  # type: ignore[arg-type]
        memory={"embed": False},  # type: ignore[arg-type]
        **extra,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    "break_it",
    [
        pytest.param(lambda p: p.mkdir(), id="directory"),
        pytest.param(lambda p: p.write_bytes(b"rules \xff\xfe"), id="not-utf8"),
        pytest.param(lambda p: p.symlink_to(p.parents[1] / "outside.md"), id="symlink-out"),
    ],
)
async def test_reload_keeps_the_prompt_when_agents_md_is_unreadable(
    tmp_path: Path, stub_llm: StubLLM, break_it: Callable[[Path], None]
) -> None:
    """A SIGHUP reload that cannot read AGENTS.md keeps the previous prompt and logs an error."""
    settings = _settings(tmp_path, stub_llm)
    agents = settings.workdir / "AGENTS.md"
    agents.write_text("rules v1")
    (tmp_path / "outside.md").write_text("injected")
    async with open_app(settings) as app:
        before = app.runtime.system_prompt
        assert before.endswith("rules v1")
        agents.unlink()
        break_it(agents)
        with capture_logs() as logs:
            assert app.reload_prompt() is False
        assert app.runtime.system_prompt == before
        [event] = [e for e in logs if e["event"] == "prompt.reload_failed"]
        assert event["log_level"] == "error" and str(agents) in event["error"]
        if agents.is_dir() and not agents.is_symlink():
            agents.rmdir()
        else:
            agents.unlink()
        agents.write_text("rules v2")
        assert app.reload_prompt() is True
        assert app.runtime.system_prompt.endswith("rules v2")


async def test_start_with_an_unreadable_agents_md_is_a_config_error(
    tmp_path: Path, stub_llm: StubLLM
) -> None:
    """open_app refuses to start when AGENTS.md exists but cannot be read, naming the file."""
    settings = _settings(tmp_path, stub_llm)
    (settings.workdir / "AGENTS.md").mkdir()
    with pytest.raises(ConfigError) as caught:
        async with open_app(settings):
            pass
    assert str(settings.workdir / "AGENTS.md") in str(caught.value)


async def _write(app: App, path: str, tenant: str | None = None) -> bool:
    """Whether write_file succeeded on ``path``, called in ``tenant``'s scope (the install's)."""
    call = ToolCall("c", "write_file", json.dumps({"path": path, "content": "obey me"}))
    with scopes.use(scopes.Scope(tenant=tenant or app.settings.tenant)):
        return not (await app.tools.call(call)).error


async def test_instruction_files_are_read_only_to_the_agent(
    tmp_path: Path, stub_llm: StubLLM
) -> None:
    """The wired tools refuse AGENTS.md, HEARTBEAT.md and a cron job's prompt_file."""
    job = CronJob(name="beat", schedule="1h", prompt_file=Path("prompts/beat.md"))
    settings = _settings(tmp_path, stub_llm, cron={"jobs": [job]})
    async with open_app(settings) as app:
        for path in ("AGENTS.md", "HEARTBEAT.md", "AGENTS.md/x", "prompts/beat.md"):
            assert not await _write(app, path), path
        assert await _write(app, "notes.md")
    assert sorted(p.name for p in settings.workdir.iterdir()) == ["notes.md"]


async def test_instruction_files_are_read_only_in_a_tenants_workdir(
    tmp_path: Path, stub_llm: StubLLM
) -> None:
    """Another tenant's agent may not write AGENTS.md or HEARTBEAT.md in its own workdir."""
    settings = _settings(tmp_path, stub_llm)
    async with open_app(settings) as app:
        for path in ("AGENTS.md", "HEARTBEAT.md", "AGENTS.md/x"):
            assert not await _write(app, path, tenant="family"), path
        assert await _write(app, "notes.md", tenant="family")
    own = settings.state_dir / "tenants" / "family" / "workdir"
    assert sorted(p.name for p in own.iterdir()) == ["notes.md"]
    assert list(settings.workdir.iterdir()) == []


async def test_instructions_writable_lets_the_agent_write_them(
    tmp_path: Path, stub_llm: StubLLM
) -> None:
    """default.instructions_writable turns the protection off."""
    settings = _settings(tmp_path, stub_llm, default={"instructions_writable": True})
    async with open_app(settings) as app:
        assert await _write(app, "AGENTS.md")
        assert await _write(app, "HEARTBEAT.md")
        assert await _write(app, "AGENTS.md", tenant="family")
    assert (settings.workdir / "AGENTS.md").read_text() == "obey me"
    own = settings.state_dir / "tenants" / "family" / "workdir"
    assert (own / "AGENTS.md").read_text() == "obey me"


async def test_the_learned_token_estimate_survives_a_restart(
    tmp_path: Path, stub_llm: StubLLM
) -> None:
    """What the budget learned of the server's token count is saved when the app closes and
    read back when it opens again (for the same server only)."""
    settings = Settings(
        workdir=tmp_path,
        state_dir=tmp_path / "state",
        llm={"base_url": stub_llm.url, "max_retries": 0},  # type: ignore[arg-type]
        memory={"embed": False},  # type: ignore[arg-type]
    )
    async with open_app(settings) as app:
        budget = app.runtime.agent_loop.budget
        assert budget is not None
        first = budget.counter.chars_per_token
        budget.counter.chars_per_token = first + 0.75
    assert (tmp_path / "state" / "context.json").exists()
    async with open_app(settings) as app:
        budget = app.runtime.agent_loop.budget
        assert budget is not None and budget.counter.chars_per_token == first + 0.75
    other = settings.model_copy(update={"llm": settings.llm.model_copy(update={"model": "x"})})
    async with open_app(other) as app:
        budget = app.runtime.agent_loop.budget
        assert budget is not None and budget.counter.chars_per_token == first


async def test_the_turn_rules_reach_the_loop(tmp_path: Path, stub_llm: StubLLM) -> None:
    """default.guards are the loop's; a routed turn through the stub: one question (answered
    with the script's next call), then the step names that tool (as OpenAI's tool_choice: the
    stub has no grammar)."""
    from agentd.engine.route import QUESTION_HEAD

    guards = {"route": "on", "claims": "off"}
    settings = _settings(tmp_path, stub_llm, default={"guards": guards})
    async with open_app(settings) as app:
        loop = app.runtime.agent_loop
        assert "route" in (await loop.guards()).names
        assert "claims" not in loop.rules(local=True).names
        stub_llm.add(Reply(tool_calls=[("current_time", {})]), Reply(text="It is noon."))
        result = await app.runtime.ask("s", "What time is it?")
        assert result.message.content == "It is noon."
        [route] = stub_llm.routes
        assert route["messages"][-1]["content"].startswith(QUESTION_HEAD)
        assert {t["function"]["name"] for t in route["tools"]} == app.tools.names
        first = stub_llm.requests[0]
        assert first["tool_choice"] == {"type": "function", "function": {"name": "current_time"}}
        assert route["messages"][:-1] == first["messages"]
    (tmp_path / "b").mkdir()
    async with open_app(_settings(tmp_path / "b", stub_llm)) as app:
        loop = app.runtime.agent_loop
        # The defaults: the stub is no grammar-held local model, so only structural rules run.
        assert (await loop.guards()).names == loop.rules(local=False).names
        assert {"intent", "route", "claims", "read_first"} <= loop.rules(local=True).names
        assert loop.mentioned is not None and app.runtime.prompt_for is not None
        (app.settings.workdir / "notes.md").write_text("x")
        with scopes.use(scopes.Scope(tenant=app.settings.tenant)):
            assert await loop.mentioned("read notes.md and other.md") == ["notes.md"]
            assert loop.listing is not None and await loop.listing() == ["notes.md"]
    (tmp_path / "c").mkdir()
    settings = _settings(tmp_path / "c", stub_llm, default={"read_first": False})
    async with open_app(settings) as app:
        assert "read_first" not in app.runtime.agent_loop.rules(local=True).names
