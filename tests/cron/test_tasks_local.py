"""Against the real local model: "remind me in 10 seconds to stretch" makes a task that fires.

The runtime runs on the local llama-server sidecar (temperature 0, fixed seed), as the daemon
does; the turn comes from an HTTP session, so the reminder's answer is appended to that
session's history. Assertions are on structure (a task, its tick, the answer), never on prose.
Skipped without the local model unless AGENTD_REQUIRE_LOCAL_MODEL=1 (``make test``).
"""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from agentd import scope as scopes
from agentd.config import LLMSettings, Settings, SidecarSettings
from agentd.cron.taskrun import TaskScheduler
from agentd.daemon.app import open_app
from tests.model.test_local_model import ANSWER_CAP, SEED, _local

pytestmark = [pytest.mark.integration, pytest.mark.timeout(1800), pytest.mark.anyio]


async def test_remind_me_in_ten_seconds_fires(tmp_path: Path) -> None:
    """The model calls schedule_task; the task runs about 10 s later and answers the session."""
    binary, gguf = _local()
    sidecar = SidecarSettings(
        enabled=True, binary=binary, model_path=gguf, max_answer_tokens=ANSWER_CAP
    )
    settings = Settings(
        state_dir=tmp_path / "state",
        workdir=tmp_path / "workdir",
        # The work is bounded (answers capped, few tools), not the time: on a busy machine one
        # model call may take minutes, and that is no failure of the feature.
        llm=LLMSettings(temperature=0.0, seed=SEED, sidecar=sidecar, timeout=900),
        # The task tools and the file and time tools: fewer schemas, a shorter prompt per call.
        memory={"embed": False},  # type: ignore[arg-type]
        tools={"exec": {"enabled": False}, "web_fetch": {"enabled": False}},  # type: ignore[arg-type]
    )
    (tmp_path / "workdir").mkdir()
    async with open_app(settings) as app, anyio.create_task_group() as tg:
        assert app.tasks is not None
        tg.start_soon(TaskScheduler(app.tasks, app.runtime, poll=0.5).serve)
        await app.runtime.ask("me", "Remind me in 10 seconds to stretch.", channel="http")
        with scopes.use(scopes.Scope(tenant=settings.tenant)):
            tasks = await app.tasks.of_tenant(include_finished=True)
        assert tasks, "the model scheduled no task"
        task = tasks[-1]  # a model may retry after an error result; the last one counts
        assert task.kind == "at" and "stretch" in task.prompt.lower()
        with anyio.fail_after(300):
            while await app.tasks.status_of(task.id) == "active":  # noqa: ASYNC110 (in SQLite)
                await anyio.sleep(0.5)
        tick = await app.tasks.ticklog.get(task.job, task.spec)
        tg.cancel_scope.cancel()
    assert tick is not None and tick.status == "ok" and tick.delivered, tick
    assert tick.output
