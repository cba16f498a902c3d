"""The real daemon as a subprocess: heartbeat ticks, exactly-once claims, crashes, drains."""

from __future__ import annotations

import contextlib
import datetime as dt
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from agentd.cron.ticklog import iso, parse_iso
from tests.support.daemon import NotifySocket, daemon, write_config
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.timeout(90)

# How long the daemon "was down" between two runs; a multiple of every interval used below.
DOWNTIME = dt.timedelta(seconds=10)


def _rows(
    tmp: Path, sql: str = "SELECT scheduled_for, status, kind, error FROM cron_ticks"
) -> list[tuple]:
    db = tmp / "state" / "memory.db"
    if not db.exists():
        return []
    try:
        with sqlite3.connect(db) as conn:
            return conn.execute(sql + " ORDER BY scheduled_for").fetchall()
    except sqlite3.OperationalError:  # the daemon has not created the table yet
        return []


def _wait(predicate, timeout: float = 30.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def _backdate(tmp: Path, by: dt.timedelta) -> None:
    """Move every recorded tick ``by`` into the past, as if the daemon had been down that long."""
    with contextlib.closing(sqlite3.connect(tmp / "state" / "memory.db")) as conn, conn:
        rows = conn.execute("SELECT id, scheduled_for FROM cron_ticks ORDER BY scheduled_for")
        # Oldest first: a row only ever moves below every row not yet moved, so no UNIQUE clash.
        conn.executemany(
            "UPDATE cron_ticks SET scheduled_for=? WHERE id=?",
            [(iso(parse_iso(when) - by), rid) for rid, when in rows.fetchall()],
        )


def _job(**kw: object) -> dict[str, object]:
    return {"cron": {"jobs": [{"name": "beat", "schedule": "1s", "prompt": "check in", **kw}]}}


@pytest.fixture
def notify(tmp_path: Path):
    sock = NotifySocket(tmp_path / "notify.sock")
    yield sock
    sock.close()


def test_every_second_job_records_ok_ticks(
    stub_llm: StubLLM, tmp_path: Path, notify: NotifySocket
) -> None:
    """A 1s job runs on a real daemon; each tick is one ok row and one model call."""
    cfg = write_config(tmp_path / "c.json", tmp_path, stub_llm.url, **_job())
    with daemon(cfg, notify) as proc:
        notify.wait_for("READY=1")
        _wait(lambda: sum(r[1] == "ok" for r in _rows(tmp_path)) >= 3, what="3 ok ticks")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    rows = _rows(tmp_path)
    ok = [r for r in rows if r[1] == "ok"]
    assert len(ok) >= 3
    assert len(stub_llm.requests) == len(ok)
    times = [r[0] for r in ok]
    assert len(set(times)) == len(times)


def test_two_daemons_run_each_tick_once(stub_llm: StubLLM, tmp_path: Path) -> None:
    """Two daemons sharing only the tick file (each its own state) never run one tick twice."""
    cfg = write_config(tmp_path / "c.json", tmp_path, stub_llm.url, **_job())
    job = _job()
    job["cron"]["tick_log"] = str(tmp_path / "state" / "memory.db")  # type: ignore[index]
    # The state lock refuses a second daemon on one state dir or history file; the tick log
    # alone stays shareable.
    cfg2 = write_config(
        tmp_path / "c2.json", tmp_path, stub_llm.url, state_dir=str(tmp_path / "state2"), **job
    )
    with daemon(cfg) as first, daemon(cfg2) as second:
        _wait(lambda: sum(r[1] == "ok" for r in _rows(tmp_path)) >= 5, what="5 ok ticks")
        for proc in (first, second):
            proc.send_signal(signal.SIGTERM)
        assert first.wait(timeout=30) == 0
        assert second.wait(timeout=30) == 0
    ok = [r for r in _rows(tmp_path) if r[1] == "ok"]
    # Every model call belongs to exactly one recorded tick: no tick ran in both daemons.
    assert len(stub_llm.requests) == len(ok)
    assert len({r[0] for r in ok}) == len(ok)


def test_sigkill_during_tick_is_marked_interrupted(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A tick cut by SIGKILL is found on the next start and marked error 'interrupted'."""
    stub_llm.add(Reply(text="slow", delay=20))
    cfg = write_config(tmp_path / "c.json", tmp_path, stub_llm.url, **_job(schedule="1h"))
    cfg_fast = write_config(
        tmp_path / "c2.json", tmp_path, stub_llm.url, **_job(schedule="1s", catch_up="skip")
    )
    with daemon(cfg_fast) as proc:
        _wait(lambda: any(r[1] == "running" for r in _rows(tmp_path)), what="a running tick")
        proc.kill()
        proc.wait(timeout=10)
    running = [r for r in _rows(tmp_path) if r[1] == "running"]
    assert len(running) == 1
    with daemon(cfg) as proc:
        _wait(
            lambda: any(r[0] == running[0][0] and r[1] == "error" for r in _rows(tmp_path)),
            what="the interrupted row",
        )
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    row = next(r for r in _rows(tmp_path) if r[0] == running[0][0])
    assert row[1:] == ("error", "scheduled", "interrupted")


def test_downtime_records_missed_and_coalesces_one_run(stub_llm: StubLLM, tmp_path: Path) -> None:
    """After downtime (backdated rows), missed ticks are rows and exactly one catch-up runs."""
    cfg = write_config(tmp_path / "c.json", tmp_path, stub_llm.url, **_job(schedule="2s"))
    with daemon(cfg) as proc:
        _wait(lambda: any(r[1] == "ok" for r in _rows(tmp_path)), what="a first tick")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    _backdate(tmp_path, DOWNTIME)
    with daemon(cfg) as proc:
        _wait(
            lambda: any(r[2] == "catch_up" and r[1] == "ok" for r in _rows(tmp_path)),
            what="the catch-up run",
        )
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    rows = _rows(tmp_path)
    missed = [r for r in rows if r[1] == "missed"]
    catch_up = [r for r in rows if r[2] == "catch_up"]
    assert len(missed) >= 3
    assert len(catch_up) == 1
    # The catch-up run is the latest missed tick.
    assert catch_up[0][0] > max(r[0] for r in missed)


def test_skip_catch_up_runs_none(stub_llm: StubLLM, tmp_path: Path) -> None:
    """With catch_up 'skip' missed ticks are recorded but none of them runs."""
    cfg = write_config(
        tmp_path / "c.json", tmp_path, stub_llm.url, **_job(schedule="1s", catch_up="skip")
    )
    with daemon(cfg) as proc:
        _wait(lambda: any(r[1] == "ok" for r in _rows(tmp_path)), what="a first tick")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    _backdate(tmp_path, DOWNTIME)
    with daemon(cfg) as proc:
        _wait(lambda: any(r[1] == "missed" for r in _rows(tmp_path)), what="missed rows")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    rows = _rows(tmp_path)
    assert not [r for r in rows if r[2] == "catch_up"]
    assert len(stub_llm.requests) == sum(r[1] == "ok" for r in rows)


def test_sigterm_drains_in_flight_turn(
    stub_llm: StubLLM, tmp_path: Path, notify: NotifySocket
) -> None:
    """SIGTERM during a turn lets it finish (ok row), sends STOPPING=1, and exits 0."""
    stub_llm.add(Reply(text="done after a while", delay=2))
    cfg = write_config(tmp_path / "c.json", tmp_path, stub_llm.url, **_job(schedule="1h"))
    cfg_fast = write_config(tmp_path / "c.json", tmp_path, stub_llm.url, **_job())
    with daemon(cfg_fast, notify) as proc:
        notify.wait_for("READY=1")
        _wait(lambda: any(r[1] == "running" for r in _rows(tmp_path)), what="a running tick")
        proc.send_signal(signal.SIGTERM)
        notify.wait_for("STOPPING=1")
        assert proc.wait(timeout=30) == 0
    first = _rows(tmp_path)[0]
    assert first[1] == "ok"
    assert cfg.exists()


def test_notify_messages_arrive_in_order(
    stub_llm: StubLLM, tmp_path: Path, notify: NotifySocket
) -> None:
    """READY=1 (with STATUS), WATCHDOG=1 pings, then STOPPING=1 on SIGTERM."""
    cfg = write_config(tmp_path / "c.json", tmp_path, stub_llm.url, **_job(schedule="1h"))
    with daemon(cfg, notify, env={"WATCHDOG_USEC": "200000"}) as proc:
        notify.wait_for("READY=1")
        notify.wait_for("WATCHDOG=1")
        proc.send_signal(signal.SIGTERM)
        notify.wait_for("STOPPING=1")
        assert proc.wait(timeout=30) == 0
    lines = [line for m in notify.messages for line in m.splitlines()]
    ready = lines.index("READY=1")
    assert any(line.startswith("STATUS=serving") for line in lines)
    assert lines.index("WATCHDOG=1") > ready
    assert lines.index("STOPPING=1") > ready


def test_bad_config_exits_78(tmp_path: Path, stub_llm: StubLLM) -> None:
    """An invalid cron schedule stops `agentd run` with exit 78 and names the key."""
    cfg = write_config(
        tmp_path / "c.json", tmp_path, stub_llm.url, **_job(schedule="every blue moon")
    )
    with daemon(cfg) as proc:
        assert proc.wait(timeout=30) == 78
        out = proc.stdout.read() if proc.stdout else ""
    assert "cron.jobs.0" in out


def test_sighup_reloads_agents_md(stub_llm: StubLLM, tmp_path: Path) -> None:
    """SIGHUP re-reads AGENTS.md: later turns see the new system prompt, the daemon stays up."""
    cfg = write_config(tmp_path / "c.json", tmp_path, stub_llm.url, **_job(session_mode="window"))
    (tmp_path / "workdir" / "AGENTS.md").write_text("rules v1")
    with daemon(cfg) as proc:
        _wait(lambda: len(stub_llm.requests) >= 1, what="a first turn")
        assert "rules v1" in stub_llm.requests[0]["messages"][0]["content"]
        (tmp_path / "workdir" / "AGENTS.md").write_text("rules v2")
        proc.send_signal(signal.SIGHUP)
        _wait(
            lambda: "rules v2" in stub_llm.requests[-1]["messages"][0]["content"],
            what="the reloaded prompt",
        )
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0


def test_unreadable_agents_md_at_start_exits_78(tmp_path: Path, stub_llm: StubLLM) -> None:
    """An AGENTS.md that is a directory stops `agentd run` with exit 78, naming it, no traceback."""
    cfg = write_config(tmp_path / "c.json", tmp_path, stub_llm.url)
    (tmp_path / "workdir" / "AGENTS.md").mkdir()
    with daemon(cfg) as proc:
        assert proc.wait(timeout=30) == 78
        out = proc.stdout.read() if proc.stdout else ""
    assert str(tmp_path / "workdir" / "AGENTS.md") in out and "is a directory" in out, out
    assert "Traceback" not in out


def test_sighup_with_unreadable_agents_md_keeps_the_prompt(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """AGENTS.md turned into a folder, then SIGHUP: the daemon stays up with the old prompt."""
    cfg = write_config(tmp_path / "c.json", tmp_path, stub_llm.url, **_job(session_mode="window"))
    agents = tmp_path / "workdir" / "AGENTS.md"
    agents.write_text("rules v1")
    with daemon(cfg) as proc:
        _wait(lambda: len(stub_llm.requests) >= 1, what="a first turn")
        agents.unlink()
        (agents / "x").mkdir(parents=True)
        proc.send_signal(signal.SIGHUP)
        seen = len(stub_llm.requests)
        _wait(lambda: len(stub_llm.requests) >= seen + 2, what="turns after the reload")
        assert proc.poll() is None
        assert "rules v1" in stub_llm.requests[-1]["messages"][0]["content"]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        out = proc.stdout.read() if proc.stdout else ""
    assert "prompt.reload_failed" in out and "Traceback" not in out


def test_cli_ticks_and_cron_run(stub_llm: StubLLM, tmp_path: Path) -> None:
    """`agentd cron run JOB` records a manual tick; `agentd ticks` prints it."""
    import os
    import subprocess
    import sys

    stub_llm.add(Reply(text="all quiet"))
    cfg = write_config(tmp_path / "c.json", tmp_path, stub_llm.url, **_job(schedule="1h"))
    env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}

    def agentd(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "agentd", "--config", str(cfg), *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )

    ran = agentd("cron", "run", "beat")
    assert ran.returncode == 0, ran.stderr
    assert "beat" in ran.stdout and ": ok" in ran.stdout
    assert agentd("cron", "run", "nope").returncode == 2
    table = agentd("ticks", "--job", "beat")
    assert table.returncode == 0
    lines = table.stdout.splitlines()
    assert lines[0].split()[:4] == ["JOB", "SCHEDULED_FOR", "STATUS", "KIND"]
    assert "manual" in lines[1] and "all quiet" in lines[1]
    assert "(no ticks" in agentd("ticks", "--status", "missed").stdout
