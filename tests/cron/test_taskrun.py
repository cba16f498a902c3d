"""The task scheduler in process: answers to an HTTP session's history, HEARTBEAT_OK, retries."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentd import scope as scopes
from agentd.config import Settings
from agentd.cron.taskrun import TaskScheduler
from agentd.cron.tasks import parse_when
from agentd.cron.ticklog import UNDELIVERED, iso
from agentd.daemon.app import App, open_app
from agentd.errors import TelegramError
from agentd.origin import Origin
from tests.support.stub_llm import Reply, StubLLM, user_words
from tests.support.task_script import scripted

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(30)]


@pytest.fixture(params=["sqlite", "postgres"])
async def app(
    request: pytest.FixtureRequest, stub_llm: StubLLM, tmp_path: Path
) -> AsyncIterator[App]:
    """The app on SQLite files, and with history, tick log and tasks on PostgreSQL."""
    (tmp_path / "workdir").mkdir()
    history = {} if request.param == "sqlite" else {"url": request.getfixturevalue("pg_url")}
    settings = Settings(
        workdir=tmp_path / "workdir",
        state_dir=tmp_path / "state",
        llm={"base_url": stub_llm.url, "max_retries": 0},  # type: ignore[arg-type]
        cron={"tasks": {"poll": 0.2}},  # type: ignore[arg-type]
        history=history,  # type: ignore[arg-type]
    )
    stub_llm.fallback = scripted
    async with open_app(settings) as app:
        yield app


async def until(check: Callable[[], Any]) -> Any:
    with anyio.fail_after(10):
        while not (value := await check()):  # noqa: ASYNC110 (state in SQLite, no event)
            await anyio.sleep(0.05)
    return value


async def test_an_http_session_gets_the_answer_in_its_history(app: App) -> None:
    """A task scheduled in an HTTP session's turn appends its answer to that session."""
    assert app.tasks is not None
    scheduler = TaskScheduler(app.tasks, app.runtime, poll=0.2)
    async with anyio.create_task_group() as tg:
        tg.start_soon(scheduler.serve)
        result = await app.runtime.ask(
            "s1", 'TOOL:schedule_task {"prompt": "stand up", "in": "1s"}', channel="http"
        )
        assert "scheduled task t-" in result.message.content

        async def answered() -> bool:
            history = await app.runtime.history("s1")
            return history[-1].content == "REMINDER: stand up"

        await until(answered)
        # The answer lands before the run is recorded: stop the scheduler once both happened.
        await until(lambda: _done(app, result_task_id(result.message.content)))
        tg.cancel_scope.cancel()
    with scopes.use(scopes.Scope(tenant=app.settings.tenant)):
        (task,) = await app.tasks.of_tenant(include_finished=True)
    assert task.status == "done" and task.origin == Origin("http", None, "s1")


async def test_heartbeat_ok_is_not_delivered(app: App, stub_llm: StubLLM) -> None:
    """An answer of exactly HEARTBEAT_OK is recorded but not delivered."""
    assert app.tasks is not None
    stub_llm.fallback = lambda body: Reply(text="HEARTBEAT_OK")
    sent: list[str] = []

    async def deliver(target: str, text: str) -> None:
        sent.append(text)

    scheduler = TaskScheduler(
        app.tasks, app.runtime, deliver=deliver, can_deliver=lambda c: True, poll=0.2
    )
    with scopes.use(scopes.Scope(tenant="t")):
        task = await app.tasks.add(
            "check", parse_when(in_="1s", min_interval=60), Origin("telegram", "9")
        )
    async with anyio.create_task_group() as tg:
        tg.start_soon(scheduler.serve)
        await until(lambda: _done(app, task.id))
        tg.cancel_scope.cancel()
    tick = await app.tasks.ticklog.get(task.job, task.spec)
    assert tick is not None
    assert (tick.status, tick.output, tick.delivered) == ("ok", "HEARTBEAT_OK", False)
    assert sent == []


async def test_an_interrupted_reminder_runs_once_more_late(app: App) -> None:
    """A one-shot run cut off by a crash runs again once, late, and says it is late."""
    assert app.tasks is not None
    sent: list[str] = []

    async def deliver(target: str, text: str) -> None:
        sent.append(f"{target} {text}")

    now = dt.datetime.now(dt.UTC)
    with scopes.use(scopes.Scope(tenant="t")):
        task = await app.tasks.add(
            "stretch", parse_when(in_="1s", min_interval=60, now=now), Origin("telegram", "9")
        )
    ticklog = app.tasks.ticklog
    assert await ticklog.claim(task.job, task.spec)
    await ticklog.finish(task.job, task.spec, "error", error="interrupted")
    scheduler = TaskScheduler(
        app.tasks, app.runtime, deliver=deliver, can_deliver=lambda c: True, poll=0.2
    )
    async with anyio.create_task_group() as tg:
        tg.start_soon(scheduler.serve)
        await until(lambda: _done(app, task.id))
        tg.cancel_scope.cancel()
    assert sent == [f"telegram:9 (late: this was due at {task.spec[:10]} {task.spec[11:19]} UTC)"
                    "\nREMINDER: stretch"]  # fmt: skip
    tick = await ticklog.get(task.job, task.spec)
    assert tick is not None and (tick.status, tick.kind) == ("ok", "catch_up")
    assert iso(now) <= task.spec


def result_task_id(text: str) -> str:
    """The task id in schedule_task's answer (``scheduled task t-... ``)."""
    return next(word for word in text.split() if word.startswith("t-")).rstrip(":,.")


async def _done(app: App, task_id: str) -> bool:
    assert app.tasks is not None
    return await app.tasks.status_of(task_id) == "done"


async def test_a_reminder_due_during_shutdown_stays_for_the_next_start(app: App) -> None:
    """A run refused because the daemon drains is 'interrupted' and its task stays active."""
    assert app.tasks is not None
    with scopes.use(scopes.Scope(tenant="t")):
        task = await app.tasks.add(
            "stretch", parse_when(in_="1s", min_interval=60), Origin("telegram", "9")
        )
    app.runtime.accepting = False
    scheduler = TaskScheduler(app.tasks, app.runtime, poll=0.2)
    async with anyio.create_task_group() as tg:
        tg.start_soon(scheduler.serve)
        tick = await until(lambda: _finished_tick(app, task.job, task.spec))
        tg.cancel_scope.cancel()
    assert (tick.status, tick.error) == ("error", "interrupted")
    assert await app.tasks.status_of(task.id) == "active"
    app.runtime.accepting = True


async def _finished_tick(app: App, job: str, when: str) -> Any:
    assert app.tasks is not None
    tick = await app.tasks.ticklog.get(job, when)
    return tick if tick is not None and tick.status != "running" else None


async def test_a_task_runs_with_no_more_tools_than_the_chat_that_made_it(
    app: App, stub_llm: StubLLM
) -> None:
    """A Telegram group is not offered exec; a task it schedules is not either when it runs
    (the narrowest rule of its channel). An operator's task runs with the cron rule."""
    assert app.tasks is not None
    offered: list[tuple[str, bool]] = []

    def model(body: dict[str, Any]) -> Reply:
        names = {t["function"]["name"] for t in body.get("tools") or ()}
        last = body["messages"][-1]
        content = user_words(str(last.get("content") or ""))
        if last["role"] == "user" and content.startswith("[Scheduled task"):
            offered.append((content[:20], "exec" in names))
        return scripted(body)

    stub_llm.fallback = model
    scheduler = TaskScheduler(
        app.tasks, app.runtime, deliver=_ignore, can_deliver=lambda c: True, poll=0.2
    )
    async with anyio.create_task_group() as tg:
        tg.start_soon(scheduler.serve)
        made = await app.runtime.ask(
            "telegram:-100123",
            'TOOL:schedule_task {"prompt": "check the disk", "in": "1s"}',
            channel="telegram",
            audience="telegram_group",
        )
        agents = result_task_id(made.message.content)
        with scopes.use(scopes.Scope(tenant=app.settings.tenant)):
            operators = await app.tasks.add(
                "check the disk",
                parse_when(in_="1s", min_interval=60),
                Origin("telegram", "-100123"),
                created_by="cli",
            )
        await until(lambda: _done(app, agents))
        await until(lambda: _done(app, operators.id))
        tg.cancel_scope.cancel()
    assert sorted(has_exec for _, has_exec in offered) == [False, True]


async def _ignore(target: str, text: str) -> None:
    return None


async def test_an_undeliverable_answer_is_retried_then_kept(app: App) -> None:
    """A reminder whose delivery keeps failing is tried again with backoff, then recorded
    undelivered with its answer kept, and listed as such; the task is done."""
    assert app.tasks is not None
    tries: list[str] = []

    async def failing(target: str, text: str) -> None:
        tries.append(text)
        raise TelegramError("sendMessage", "Internal Server Error", status=500)

    scheduler = TaskScheduler(
        app.tasks,
        app.runtime,
        deliver=failing,
        can_deliver=lambda c: True,
        poll=0.2,
        deliver_attempts=3,
        deliver_backoff=(0.01, 0.02),
    )
    with scopes.use(scopes.Scope(tenant="t")):
        task = await app.tasks.add(
            "stretch", parse_when(in_="1s", min_interval=60), Origin("telegram", "9")
        )
    async with anyio.create_task_group() as tg:
        tg.start_soon(scheduler.serve)
        await until(lambda: _done(app, task.id))
        tg.cancel_scope.cancel()
    assert tries == ["REMINDER: stretch"] * 3
    tick = await app.tasks.ticklog.get(task.job, task.spec)
    assert tick is not None and tick.undelivered and tick.state == UNDELIVERED
    assert (tick.output, tick.delivered) == ("REMINDER: stretch", False)
    assert tick.error is not None and "3 tries" in tick.error and "HTTP 500" in tick.error
    assert [t.id for t in await app.tasks.undelivered()] == [task.id]
    listed = await app.tasks.ticklog.list(status=UNDELIVERED)
    assert [t.job for t in listed] == [task.job]


async def test_a_delivery_that_fails_once_is_delivered_on_a_retry(app: App) -> None:
    """One failed delivery is retried: the answer arrives once and the run is delivered."""
    assert app.tasks is not None
    sent: list[str] = []

    async def flaky(target: str, text: str) -> None:
        if not sent:
            sent.append("failed")
            raise TelegramError("sendMessage", "no answer")
        sent.append(text)

    scheduler = TaskScheduler(
        app.tasks,
        app.runtime,
        deliver=flaky,
        can_deliver=lambda c: True,
        poll=0.2,
        deliver_backoff=(0.01, 0.02),
    )
    with scopes.use(scopes.Scope(tenant="t")):
        task = await app.tasks.add(
            "stretch", parse_when(in_="1s", min_interval=60), Origin("telegram", "9")
        )
    async with anyio.create_task_group() as tg:
        tg.start_soon(scheduler.serve)
        await until(lambda: _done(app, task.id))
        tg.cancel_scope.cancel()
    assert sent == ["failed", "REMINDER: stretch"]
    tick = await app.tasks.ticklog.get(task.job, task.spec)
    assert tick is not None and (tick.state, tick.delivered, tick.error) == ("ok", True, None)
    assert await app.tasks.undelivered() == []


async def test_a_refused_delivery_is_not_retried(app: App) -> None:
    """A delivery the service refuses for good (a retry cannot help) is kept at once."""
    assert app.tasks is not None
    tries: list[str] = []

    async def refused(target: str, text: str) -> None:
        tries.append(text)
        raise TelegramError("sendMessage", "Forbidden: bot was blocked by the user", status=403)

    scheduler = TaskScheduler(
        app.tasks, app.runtime, deliver=refused, can_deliver=lambda c: True, poll=0.2
    )
    with scopes.use(scopes.Scope(tenant="t")):
        task = await app.tasks.add(
            "stretch", parse_when(in_="1s", min_interval=60), Origin("telegram", "9")
        )
    async with anyio.create_task_group() as tg:
        tg.start_soon(scheduler.serve)
        await until(lambda: _done(app, task.id))
        tg.cancel_scope.cancel()
    tick = await app.tasks.ticklog.get(task.job, task.spec)
    assert len(tries) == 1 and tick is not None and tick.undelivered
    assert tick.output == "REMINDER: stretch"
