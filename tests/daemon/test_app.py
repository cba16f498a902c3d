"""The wiring: settings to a runtime with built-in tools and the system prompt."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentd.config import CronJob, Settings, load_settings
from agentd.daemon.app import build_channels, open_app
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
        assert stub_llm.requests[0]["messages"][0]["content"] == "You are Ada."
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
