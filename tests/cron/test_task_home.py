"""A task's answer lands in the history it was asked in, whichever daemon shares the tick log.

Two apps with their own state and history share one tick log (as two daemons would). A task
made on one answers into a session's history: only the daemon on that history may run it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentd.config import Settings
from agentd.cron.taskrun import TaskScheduler
from agentd.cron.tasks import history_home
from agentd.daemon.app import App, open_app
from tests.support.stub_llm import StubLLM
from tests.support.task_script import scripted

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(60)]


def settings(tmp_path: Path, name: str, stub: StubLLM) -> Settings:
    (tmp_path / name / "workdir").mkdir(parents=True)
    return Settings(
        workdir=tmp_path / name / "workdir",
        state_dir=tmp_path / name / "state",
        llm={"base_url": stub.url, "max_retries": 0},  # type: ignore[arg-type]
        cron={"tick_log": tmp_path / "ticks.db", "tasks": {"poll": 0.2}},  # type: ignore[arg-type]
    )


@pytest.fixture
async def apps(stub_llm: StubLLM, tmp_path: Path) -> AsyncIterator[tuple[App, App]]:
    """Daemons A and B: own state and history, one tick log."""
    stub_llm.fallback = scripted
    async with AsyncExitStack() as stack:
        a = await stack.enter_async_context(open_app(settings(tmp_path, "a", stub_llm)))
        b = await stack.enter_async_context(open_app(settings(tmp_path, "b", stub_llm)))
        yield a, b


async def until(check: Callable[[], Any]) -> None:
    with anyio.fail_after(10):
        while not await check():  # noqa: ASYNC110 (state in SQLite, no event)
            await anyio.sleep(0.05)


async def reminders(app: App, session: str) -> list[str]:
    return [m.content for m in await app.runtime.history(session) if "REMINDER" in m.content]


def task_id(text: str) -> str:
    return next(word for word in text.split() if word.startswith("t-")).rstrip(":,.")


async def test_another_daemon_does_not_answer_into_its_own_history(
    apps: tuple[App, App],
) -> None:
    """B, sharing only the tick log, leaves A's session task alone; A runs it into A's session."""
    a, b = apps
    assert a.tasks is not None and b.tasks is not None
    made = await a.runtime.ask(
        "s1", 'TOOL:schedule_task {"prompt": "stand up", "in": "1s"}', channel="http"
    )
    task = task_id(made.message.content)
    async with anyio.create_task_group() as tg:
        tg.start_soon(TaskScheduler(b.tasks, b.runtime, poll=0.2).serve)
        await anyio.sleep(2.5)  # past the instant, with only B running tasks
        tg.cancel_scope.cancel()
    assert await reminders(b, "s1") == []
    assert await b.tasks.status_of(task) == "active"
    async with anyio.create_task_group() as tg:
        tg.start_soon(TaskScheduler(a.tasks, a.runtime, poll=0.2).serve)
        await until(lambda: _done(a, task))
        tg.cancel_scope.cancel()
    (answer,) = await reminders(a, "s1")
    assert answer.endswith("REMINDER: stand up")
    assert await reminders(b, "s1") == []


async def test_a_chat_reminder_is_taken_over_by_a_daemon_that_reaches_the_chat(
    apps: tuple[App, App],
) -> None:
    """A fresh task answered to a chat runs on B while A does not run tasks: B sends it there."""
    a, b = apps
    assert a.tasks is not None and b.tasks is not None
    made = await a.runtime.ask(
        "telegram:5",
        'TOOL:schedule_task {"prompt": "water the plants", "in": "1s"}',
        channel="telegram",
    )
    task = task_id(made.message.content)
    sent: list[tuple[str, str]] = []

    async def deliver(target: str, text: str) -> None:
        sent.append((target, text))

    scheduler = TaskScheduler(
        b.tasks, b.runtime, deliver=deliver, can_deliver=lambda c: c == "telegram", poll=0.2
    )
    async with anyio.create_task_group() as tg:
        tg.start_soon(scheduler.serve)
        await until(lambda: _done(b, task))
        tg.cancel_scope.cancel()
    assert [target for target, _ in sent] == ["telegram:5"]


async def _done(app: App, task: str) -> bool:
    assert app.tasks is not None
    return await app.tasks.status_of(task) == "done"


def test_history_home_names_the_store_never_the_password(tmp_path: Path) -> None:
    """The home of a SQLite history is its file; of PostgreSQL the database, no credentials."""
    local = Settings(state_dir=tmp_path / "s", history={"path": tmp_path / "h.db"})  # type: ignore[arg-type]
    assert history_home(local).endswith(f":{tmp_path / 'h.db'}")
    assert history_home(local).startswith("sqlite:")
    shared = Settings(
        history={"url": "postgresql://agentd:s3cret@db.internal:5433/agentd"}  # type: ignore[arg-type]
    )
    assert history_home(shared) == "postgresql:db.internal:5433/agentd"
    other = Settings(history={"url": "postgresql://agentd:x@db.internal/agentd"})  # type: ignore[arg-type]
    assert history_home(other) == "postgresql:db.internal:5432/agentd"
