"""The CLI commands that open a store a running daemon also holds, run beside the real daemon.

``tasks`` and ``ticks`` share the tick log with the daemon (SQLite in WAL mode, each tick
claimed once), so they work beside it and the daemon runs a task the CLI added. ``cron run``
runs a turn in this process and would write the history the daemon serves from: beside the
daemon it refuses in one line saying what to do, and works once the daemon is stopped.
(``memory`` and ``mcp serve`` go through the daemon: tests/cli/test_memory_daemon.py and
tests/mcp/test_serve.py.)
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.support.daemon import ready_daemon, run_cli, stop, write_config
from tests.support.stub_llm import StubLLM


def _config(tmp_path: Path, llm_url: str) -> Path:
    return write_config(
        tmp_path / "config.json",
        tmp_path,
        llm_url,
        cron={
            "enabled": True,
            "jobs": [{"name": "nightly", "schedule": "0 3 1 1 *", "prompt": "check the logs"}],
            "tasks": {"poll": 0.2},
        },
    )


def _wait_for(config: Path, job: str, status: str, within: float = 30.0) -> str:
    deadline = time.monotonic() + within
    while True:
        ticks = run_cli(config, "ticks", "--job", job, "--status", status)
        assert ticks.returncode == 0, ticks.stderr
        if job in ticks.stdout or time.monotonic() > deadline:
            return ticks.stdout
        time.sleep(0.3)


def test_tasks_and_ticks_work_beside_the_daemon(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A task added by the CLI beside the daemon is run by the daemon; list, cancel and ticks
    answer while it runs."""
    config = _config(tmp_path, stub_llm.url)
    with ready_daemon(config, tmp_path / "notify.sock") as proc:
        added = run_cli(config, "tasks", "add", "say hello", "--in", "1s")
        assert added.returncode == 0, added.stderr
        task = added.stdout.split(":", 1)[0]
        later = run_cli(config, "tasks", "add", "water the plants", "--in", "1h")
        assert later.returncode == 0, later.stderr
        other = later.stdout.split(":", 1)[0]
        listed = run_cli(config, "tasks", "list")
        assert listed.returncode == 0 and f"{other}: at " in listed.stdout

        ran = _wait_for(config, f"task:{task}", "ok")
        assert f"task:{task}" in ran, "the daemon did not run the task the CLI added"
        cancelled = run_cli(config, "tasks", "cancel", other)
        assert (cancelled.returncode, cancelled.stdout) == (0, f"cancelled {other}\n")
        assert other not in run_cli(config, "tasks", "list").stdout
        stop(proc)
    assert any("say hello" in str(r["messages"]) for r in stub_llm.requests)


def test_cron_run_beside_the_daemon_says_what_to_do(stub_llm: StubLLM, tmp_path: Path) -> None:
    """Beside the daemon: exit 75 and one line pointing at its web console; after it: it runs."""
    config = _config(tmp_path, stub_llm.url)
    with ready_daemon(config, tmp_path / "notify.sock") as proc:
        refused = run_cli(config, "cron", "run", "nightly")
        stop(proc)
    assert refused.returncode == 75
    lines = [line for line in refused.stderr.splitlines() if line.startswith("agentd: ")]
    assert len(lines) == 1
    assert "run 'nightly' from its web console (Schedules, Run now), or stop it" in lines[0]
    assert not any("check the logs" in str(r["messages"]) for r in stub_llm.requests)

    ran = run_cli(config, "cron", "run", "nightly")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("nightly ") and ran.stdout.endswith(": ok\n")
