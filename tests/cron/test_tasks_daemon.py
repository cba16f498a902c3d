"""Agent tasks through the real daemon: the stub model calls the tools, the fake Bot API delivers.

A Telegram message ``TOOL:<name> <json>`` makes the stub model call that tool, and its next
answer repeats the tool's result; a scheduled task's run is answered ``REMINDER: <prompt>``.
Firing delays (the delivery's time minus the task's instant) are checked against 1 s and, when
``TASK_DELAYS`` names a file, appended to it (one number per line) for the report.
"""

from __future__ import annotations

import datetime as dt
import itertools
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.support.daemon import daemon, write_config
from tests.support.fake_telegram import TOKEN, FakeTelegram, running_fake
from tests.support.stub_llm import StubLLM
from tests.support.task_script import scripted

pytestmark = pytest.mark.timeout(120)

ENV = {"TELEGRAM_BOT_TOKEN": TOKEN}
#: The fake stamps calls with time.monotonic(); this turns them into wall-clock times.
WALL = time.time() - time.monotonic()


def wait(predicate: Callable[[], object], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def ticks(db: Path, prefix: str = "task:") -> list[dict[str, Any]]:
    """The tick log's task rows, oldest first."""
    if not db.exists():
        return []
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        rows = conn.execute(
            "SELECT job, scheduled_for, status, kind, error, delivered, owner FROM cron_ticks"
            " WHERE job LIKE ? ORDER BY scheduled_for, id",
            (prefix + "%",),
        ).fetchall()
    return [dict(row) for row in rows]


def epoch(instant: str) -> float:
    return dt.datetime.strptime(instant, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC).timestamp()


def record_delays(delays: list[float]) -> None:
    target = os.environ.get("TASK_DELAYS")
    if target:
        with open(target, "a", encoding="utf-8") as fh:
            fh.writelines(f"{d:.3f}\n" for d in delays)


def reminders(fake: FakeTelegram, chat: int) -> list[tuple[str, float]]:
    """(text, time sent) of the REMINDER messages the fake accepted for ``chat``."""
    return [
        (c.params["text"], c.at + WALL)
        for c in fake.called("sendMessage:ok")
        if str(c.params["chat_id"]) == str(chat) and "REMINDER" in c.params["text"]
    ]


def answers(fake: FakeTelegram, chat: int) -> list[str]:
    return [m["text"] for m in fake.sent(chat) if "REMINDER" not in m["text"]]


def config(tmp: Path, stub: StubLLM, fake: FakeTelegram, **tasks: Any) -> Path:
    return write_config(
        tmp / "c.json",
        tmp,
        stub.url,
        cron={
            "tick_log": str(tmp.parent / "ticks.db"),
            "tasks": {"min_interval": 2, "max_per_tenant": 4, "poll": 0.5, **tasks},
        },
        channels={
            "telegram": {
                "enabled": True,
                "base_url": fake.url,
                "allow_from": [1, 2],
                "poll_timeout": 1,
            }
        },
        log={"format": "json", "level": "warning"},
    )


def cli(cfg: Path, *args: str) -> str:
    """Run ``agentd --config cfg ARGS`` and return its output."""
    done = subprocess.run(
        [sys.executable, "-m", "agentd", "--config", str(cfg), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **ENV},
        check=True,
    )
    return done.stdout


def stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0


@pytest.fixture
def fake() -> Iterator[FakeTelegram]:
    with running_fake() as server:
        yield server


def test_reminder_recurring_cancel_errors_and_tenants(
    stub_llm: StubLLM, fake: FakeTelegram, tmp_path: Path
) -> None:
    """A reminder 2 s ahead reaches its chat once within 1 s; a recurring task fires on each
    instant until cancelled; bad inputs are tool errors; tenants cannot see each other's."""
    stub_llm.fallback = scripted
    (tmp_path / "d").mkdir()
    cfg = config(tmp_path / "d", stub_llm, fake)
    db = tmp_path / "ticks.db"
    with daemon(cfg, env=ENV) as proc:
        fake.message(1, 'TOOL:schedule_task {"prompt": "call the dentist", "in": "2s"}')
        wait(lambda: answers(fake, 1))
        assert "scheduled task t-" in answers(fake, 1)[0]
        wait(lambda: reminders(fake, 1), timeout=10)
        fake.message(1, 'TOOL:schedule_task {"prompt": "drink water", "every": "2s"}')
        wait(lambda: len(answers(fake, 1)) == 2)
        recurring = answers(fake, 1)[1].split()[4]
        for bad in (
            '{"prompt": "x", "at": "2001-01-01T00:00:00Z"}',
            '{"prompt": "x", "every": "1s"}',
            '{"prompt": "x", "cron": "0 9 * * *", "timezone": "Nowhere/City"}',
            '{"prompt": "x", "at": "2030-01-01T00:00:00Z", "every": "1h"}',
        ):
            fake.message(1, f"TOOL:schedule_task {bad}")
        for _ in range(3):
            fake.message(1, 'TOOL:schedule_task {"prompt": "later", "every": "1d"}')
        fake.message(1, 'TOOL:schedule_task {"prompt": "one too many", "every": "1d"}')
        wait(lambda: len(answers(fake, 1)) == 10)
        errors = answers(fake, 1)[2:6]
        for text, says in zip(
            errors,
            ["in the past", "shortest interval", "unknown timezone", "exactly one"],
            strict=True,
        ):
            assert "error" in text and says in text, text
        assert "4 active tasks" in answers(fake, 1)[9]
        # Another tenant (sender 2) neither lists nor cancels sender 1's tasks.
        fake.message(2, "TOOL:list_tasks {}")
        fake.message(2, f'TOOL:cancel_task {{"id": "{recurring}"}}')
        wait(lambda: len(answers(fake, 2)) == 2)
        assert "no open tasks" in answers(fake, 2)[0]
        assert "no active task" in answers(fake, 2)[1]
        fake.message(1, "TOOL:list_tasks {}")
        wait(lambda: len(answers(fake, 1)) == 11)
        assert recurring in answers(fake, 1)[10]
        # Let the recurring task fire on three instants, then cancel it.
        wait(lambda: sum("drink water" in t for t, _ in reminders(fake, 1)) >= 3, timeout=12)
        fake.message(1, f'TOOL:cancel_task {{"id": "{recurring}"}}')
        wait(lambda: len(answers(fake, 1)) == 12)
        assert f"cancelled task {recurring}" in answers(fake, 1)[11]
        fired = sum("drink water" in t for t, _ in reminders(fake, 1))
        time.sleep(4.5)
        stop(proc)
    rows = ticks(db)
    once = [r for r in rows if r["job"] != f"task:{recurring}"]
    assert [(r["status"], r["kind"], r["delivered"]) for r in once] == [("ok", "scheduled", 1)]
    dentist = [(t, at) for t, at in reminders(fake, 1) if "dentist" in t]
    assert len(dentist) == 1
    water = [(t, at) for t, at in reminders(fake, 1) if "drink water" in t]
    assert len(water) in (fired, fired + 1)  # one run may have been under way at the cancel
    runs = [r for r in rows if r["job"] == f"task:{recurring}" and r["status"] == "ok"]
    assert len(runs) == len(water)
    instants = [epoch(r["scheduled_for"]) for r in runs]
    assert all(b - a == 2 for a, b in itertools.pairwise(instants))
    delays = [at - epoch(once[0]["scheduled_for"]) for _, at in dentist]
    delays += [at - due for (_, at), due in zip(water, instants, strict=True)]
    record_delays(delays)
    assert all(0 <= d < 1.0 for d in delays), delays


def test_downtime_runs_a_reminder_once_late(
    stub_llm: StubLLM, fake: FakeTelegram, tmp_path: Path
) -> None:
    """Stopped across the due times: the reminder runs once, late, saying so; the recurring
    task's passed instants are 'missed' rows and the latest runs once, late."""
    stub_llm.fallback = scripted
    (tmp_path / "d").mkdir()
    cfg = config(tmp_path / "d", stub_llm, fake)
    db = tmp_path / "ticks.db"
    cli(cfg, "tasks", "add", "--tenant", "telegram:1", "--to", "telegram:1", "--every", "2s",
        "stretch")  # fmt: skip
    with daemon(cfg, env=ENV) as proc:
        fake.message(1, 'TOOL:schedule_task {"prompt": "call the dentist", "in": "3s"}')
        wait(lambda: answers(fake, 1))
        stop(proc)
    assert not [t for t, _ in reminders(fake, 1) if "dentist" in t]
    time.sleep(6)
    with daemon(cfg, env=ENV) as proc:
        wait(lambda: len([t for t, _ in reminders(fake, 1) if t.startswith("(late")]) >= 2)
        time.sleep(0.5)
        stop(proc)
    rows = ticks(db)
    late = [r for r in rows if r["kind"] == "catch_up"]
    assert [(r["status"], r["delivered"]) for r in late] == [("ok", 1), ("ok", 1)]
    assert {r["job"] for r in late} == {r["job"] for r in rows}  # one late run per task
    assert any(r["status"] == "missed" for r in rows)
    late_texts = [t for t, _ in reminders(fake, 1) if t.startswith("(late: this was due at")]
    assert len([t for t in late_texts if "dentist" in t]) == 1
    assert len([t for t, _ in reminders(fake, 1) if "dentist" in t]) == 1
    assert len([t for t in late_texts if "stretch" in t]) == 1
    listed = cli(cfg, "tasks", "list", "--tenant", "telegram:1", "--all")
    assert "at " in listed and ", done," in listed


def test_two_daemons_run_each_instant_once(
    stub_llm: StubLLM, fake: FakeTelegram, tmp_path: Path
) -> None:
    """Two daemons on one tick log: every instant of a task runs and is delivered once."""
    stub_llm.fallback = scripted
    cfgs = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        cfgs.append(config(tmp_path / name, stub_llm, fake))
    db = tmp_path / "ticks.db"
    with ExitStack() as stack:
        procs = [stack.enter_context(daemon(cfg, env=ENV)) for cfg in cfgs]
        wait(db.exists)
        to = ("--tenant", "t1", "--to", "telegram:5")
        cli(cfgs[0], "tasks", "add", *to, "--every", "2s", "tick")
        cli(cfgs[1], "tasks", "add", *to, "--in", "2s", "once")
        wait(lambda: len(reminders(fake, 5)) >= 6, timeout=15)
        time.sleep(0.5)
        for proc in procs:
            stop(proc)
    rows = ticks(db)
    texts = [t for t, _ in reminders(fake, 5)]
    assert len([t for t in texts if "once" in t]) == 1
    runs = [r for r in rows if r["status"] == "ok"]
    assert len(runs) == len(texts)  # every delivery is one run, no run delivered twice
    assert len({(r["job"], r["scheduled_for"]) for r in runs}) == len(runs)
    assert not [r for r in rows if r["status"] == "error"]
    record_delays([at - epoch(r["scheduled_for"]) for (_, at), r in zip(
        sorted(reminders(fake, 5), key=lambda x: x[1]),
        sorted(runs, key=lambda r: r["scheduled_for"]), strict=True)])  # fmt: skip


def test_sigkill_during_a_run_is_interrupted_then_the_next_instant_runs(
    stub_llm: StubLLM, fake: FakeTelegram, tmp_path: Path
) -> None:
    """SIGKILL while a task's turn runs: the tick is 'interrupted' at the next start, and the
    task's next instant runs and is delivered."""
    first = []

    def slow(prompt: str) -> float:
        first.append(prompt)
        return 30.0 if len(first) == 1 else 0.0

    stub_llm.fallback = lambda body: scripted(body, slow=slow)
    (tmp_path / "d").mkdir()
    cfg = config(tmp_path / "d", stub_llm, fake)
    db = tmp_path / "ticks.db"
    cli(cfg, "tasks", "add", "--to", "telegram:1", "--every", "2s", "--catch-up", "skip", "beat")
    with daemon(cfg, env=ENV) as proc:
        wait(lambda: first)
        proc.kill()
        proc.wait(timeout=10)
    statuses = [r["status"] for r in ticks(db)]
    # An instant that came while the first run hung is recorded as skipped (the previous run
    # was still running), or as missed when the scheduler itself came late (a slow machine).
    assert statuses[0] == "running" and set(statuses[1:]) <= {"missed", "skipped"}, statuses
    with daemon(cfg, env=ENV) as proc:
        wait(lambda: reminders(fake, 1))
        stop(proc)
    rows = ticks(db)
    assert (rows[0]["status"], rows[0]["error"]) == ("error", "interrupted")
    assert [r for r in rows if r["status"] == "ok" and r["kind"] == "scheduled"]
    assert len(reminders(fake, 1)) == len([r for r in rows if r["status"] == "ok"])


def test_a_reminder_cut_off_in_a_dead_daemon_runs_once_in_the_other(
    stub_llm: StubLLM, fake: FakeTelegram, tmp_path: Path
) -> None:
    """Two daemons: SIGKILL the one running a reminder; the other marks that run interrupted
    and runs the reminder once more, late, within seconds."""
    calls: list[str] = []

    def slow(prompt: str) -> float:
        calls.append(prompt)
        return 30.0 if len(calls) == 1 else 0.0

    stub_llm.fallback = lambda body: scripted(body, slow=slow)
    cfgs = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        cfgs.append(config(tmp_path / name, stub_llm, fake))
    db = tmp_path / "ticks.db"
    with ExitStack() as stack:
        procs = {p.pid: p for p in (stack.enter_context(daemon(cfg, env=ENV)) for cfg in cfgs)}
        wait(db.exists)
        cli(cfgs[0], "tasks", "add", "--to", "telegram:7", "--in", "2s", "stretch")
        wait(lambda: calls)
        (row,) = ticks(db)
        owner = procs.pop(int(row["owner"].split(":")[-2]))
        owner.kill()
        owner.wait(timeout=10)
        wait(lambda: reminders(fake, 7), timeout=20)
        time.sleep(0.5)
        for proc in procs.values():
            stop(proc)
    (text,) = [t for t, _ in reminders(fake, 7)]
    assert text.startswith("(late: this was due at") and "REMINDER: stretch" in text
    (row,) = ticks(db)
    assert (row["status"], row["kind"], row["delivered"]) == ("ok", "catch_up", 1)
