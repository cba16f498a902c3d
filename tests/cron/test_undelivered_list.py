"""A task answer that could not be delivered stays in sight: ``agentd tasks list``, the console."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from agentd import scope as scopes
from agentd.cli.tasks import _list as list_tasks
from agentd.config import Settings
from agentd.cron.tasks import Task, TaskStore, parse_when
from agentd.cron.ticklog import UNDELIVERED, TickLog
from agentd.origin import Origin
from channels.http.console.sources import AgentTasks

ANSWER = "REMINDER: call the plumber\nbefore noon"


async def undelivered_task(path: Path) -> Task:
    """A one-shot task of tenant ``t``, done, whose run answered but was not delivered."""
    async with TickLog.open(path) as log:
        store = TaskStore(log)
        with scopes.use(scopes.Scope(tenant="t")):
            task = await store.add(
                "call the plumber", parse_when(in_="1h", min_interval=60), Origin("telegram", "9")
            )
        assert await log.claim(task.job, task.spec)
        await log.finish(
            task.job,
            task.spec,
            "ok",
            output=ANSWER,
            error="not delivered after 5 tries: TelegramError: no answer",
        )
        await store.finish(task.id)
    return task


@pytest.mark.anyio
async def test_tasks_list_shows_an_undelivered_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A done task is listed without --all when its answer was not delivered, with the answer."""
    path = tmp_path / "ticks.db"
    task = await undelivered_task(path)
    settings = Settings(state_dir=tmp_path, cron={"tick_log": path})  # type: ignore[arg-type]
    with scopes.use(scopes.Scope(tenant="t")):
        assert await list_tasks(settings, argparse.Namespace(all=False)) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{task.id}: at ")
    assert f"undelivered answer of {task.spec} (not delivered after 5 tries" in out
    assert "    REMINDER: call the plumber\n    before noon" in out


@pytest.mark.anyio
async def test_console_schedules_keep_an_undelivered_task_and_its_answer(tmp_path: Path) -> None:
    """The Schedules page's agent tasks include a done task with an undelivered run, and its
    run filters as undelivered with the answer kept."""
    path = tmp_path / "ticks.db"
    task = await undelivered_task(path)
    async with TickLog.open(path) as log:
        source = AgentTasks(TaskStore(log))
        [listed] = await source.scheduled()
        assert (listed.name, listed.tenant, listed.next_fire) == (task.job, "t", None)
        assert listed.kind == "agent task (undelivered answer)"
        [tick] = await source.runs(job=task.job, status=UNDELIVERED)
        assert (tick.state, tick.output) == (UNDELIVERED, ANSWER)
        assert await source.runs(job=task.job, status="error") == []
