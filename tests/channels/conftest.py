from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentd.config import AgentDefaults, Settings, TelegramSettings
from agentd.daemon.app import App, open_app
from agentd.engine.loop import AgentLoop
from agentd.engine.runtime import Runtime
from agentd.metrics import Metrics
from agentd.model.client import open_client
from agentd.model.timed import TimedModel
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.registry import ToolRegistry
from channels.telegram import TelegramChannel
from tests.support.fake_telegram import TOKEN, FakeTelegram, running_fake
from tests.support.stub_llm import StubLLM

HANG_GUARD = 15.0
SYSTEM = "You are agentd under test."


@pytest.fixture
def fake_tg() -> Iterator[FakeTelegram]:
    """A fake Bot API server on 127.0.0.1."""
    with running_fake() as fake:
        yield fake


@pytest.fixture
async def runtime(stub_llm: StubLLM, tmp_path: Path) -> AsyncIterator[Runtime]:
    """A real Runtime wired like the daemon's, talking to the stub LLM."""
    (tmp_path / "workdir").mkdir()
    settings = Settings(
        workdir=tmp_path / "workdir",
        state_dir=tmp_path / "state",
        llm={"base_url": stub_llm.url, "max_retries": 0},  # type: ignore[arg-type]
    )
    async with open_app(settings) as app:
        yield app.runtime


@pytest.fixture
async def home_app(stub_llm: StubLLM, tmp_path: Path) -> AsyncIterator[App]:
    """The daemon's app (real SQLite history, no long-term memory) in the install tenant
    ``home``, on the stub LLM."""
    (tmp_path / "workdir").mkdir()
    settings = Settings(
        workdir=tmp_path / "workdir",
        state_dir=tmp_path / "state",
        tenant="home",
        llm={"base_url": stub_llm.url, "max_retries": 0},  # type: ignore[arg-type]
        memory={"embed": False},  # type: ignore[arg-type]
    )
    async with open_app(settings) as opened:
        yield opened


def tg_settings(fake: FakeTelegram, **overrides: Any) -> TelegramSettings:
    values: dict[str, Any] = {
        "enabled": True,
        "token": TOKEN,
        "base_url": fake.url,
        "allow_from": [42, "@alice"],
        "poll_timeout": 1,
        "backoff_initial": 0.01,
        "backoff_max": 0.05,
    }
    values.update(overrides)
    return TelegramSettings(**values)


@asynccontextmanager
async def serving(
    fake: FakeTelegram, runtime: Runtime, state: Path, **overrides: Any
) -> AsyncIterator[TelegramChannel]:
    """The channel serving in a task group; cancelled (like a shutdown) on exit."""
    channel = TelegramChannel(tg_settings(fake, **overrides), state_path=state)
    async with channel, anyio.create_task_group() as tg:
        await tg.start(channel.serve, runtime)
        yield channel
        tg.cancel_scope.cancel()


async def wait_until(check: Callable[[], object]) -> None:
    """Poll ``check`` until it is truthy (the deadline only guards against a hang)."""
    with anyio.fail_after(HANG_GUARD):
        # The state changes in the fake's server threads, which cannot set an anyio Event.
        while not check():  # noqa: ASYNC110
            await anyio.sleep(0.01)


@pytest.fixture
def metrics() -> Metrics:
    """A private metrics registry per test."""
    return Metrics()


@pytest.fixture
async def stub_runtime(
    stub_llm: StubLLM, metrics: Metrics, tmp_path: Path
) -> AsyncIterator[Runtime]:
    """A runtime on the stub LLM with a fixed system prompt, built-in tools and ``metrics``."""
    settings = Settings(llm={"base_url": stub_llm.url, "max_retries": 0})  # type: ignore[arg-type]
    async with open_client(settings) as llm:
        tools = ToolRegistry()
        register_builtin_tools(tools, tmp_path)
        agent_loop = AgentLoop(TimedModel(llm, metrics.on_llm), tools, on_tool=metrics.on_tool)
        async with Runtime(
            agent_loop,
            system_prompt=SYSTEM,
            defaults=AgentDefaults(max_concurrent_turns=32),
            on_turn=metrics.on_turn,
        ) as runtime:
            metrics.watch_runtime(runtime)
            yield runtime
