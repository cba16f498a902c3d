"""SIGKILL in the middle of a turn: after a restart the model sees what it would have seen.

The crash run is ``agentd chat --local -m`` as subprocesses: turn 1, turn 2 killed with SIGKILL
while the stub model is still answering, turn 3 in a fresh process. The reference run is the same
conversation in one process whose turn 2 is cancelled at the same point. Turn 3's request to the
model must be identical in both.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentd import scope as scopes
from agentd.config import Settings
from agentd.daemon.app import open_app
from agentd.engine.runtime import Runtime
from agentd.memory.history import SQLiteHistory
from agentd.messages import Message
from tests.support.stub_llm import Reply, StubLLM

SESSION = "console:local"
SLOW = "this answer is streamed very slowly and never finishes in time " * 3
WAIT_LIMIT = 60.0

SCENARIOS = [
    # (turn 2's scripted replies, how many model requests exist when the kill comes)
    pytest.param([Reply(text=SLOW, chunk_delay=1.0)], 2, id="answer-streaming"),
    pytest.param(
        [
            Reply(tool_calls=[("write_file", {"path": "n.txt", "content": "abc"})]),
            Reply(text=SLOW, chunk_delay=1.0),
        ],
        3,
        id="after-tool-exchange",
    ),
    pytest.param(
        [Reply(tool_calls=[("write_file", {"path": "n.txt", "content": "abc"})], chunk_delay=2.0)],
        2,
        id="tool-call-streaming",
    ),
]


def _wait_for_requests(stub: StubLLM, count: int) -> None:
    deadline = time.monotonic() + WAIT_LIMIT
    while len(stub.requests) < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the stub never saw {count} requests")
        time.sleep(0.02)


def _env(stub: StubLLM, workdir: Path, state: Path) -> dict[str, str]:
    return {
        **os.environ,
        "LLAMA_URL": stub.url,
        "AGENT_WORKDIR": str(workdir),
        "AGENTD_STATE_DIR": str(state),
        "AGENTD_LLM__MAX_RETRIES": "0",
        "MEMORY_EMBED": "false",
    }


def _chat(env: dict[str, str], text: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "agentd", "chat", "--local", "-m", text],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _finish(proc: subprocess.Popen[bytes]) -> None:
    _, err = proc.communicate(timeout=WAIT_LIMIT)
    assert proc.returncode == 0, err.decode()


def _crash_run(stub: StubLLM, workdir: Path, state: Path, turn2: list[Reply], kill_at: int) -> Any:
    env = _env(stub, workdir, state)
    stub.requests.clear()
    stub.add(Reply(text="first answer"))
    _finish(_chat(env, "first"))
    stub.add(*turn2)
    proc = _chat(env, "second")
    try:
        _wait_for_requests(stub, kill_at)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.communicate(timeout=WAIT_LIMIT)
    assert proc.returncode == -signal.SIGKILL
    stub.add(Reply(text="third answer"))
    _finish(_chat(env, "third"))
    return stub.requests[-1]["messages"]


async def _drain(runtime: Runtime, text: str) -> None:
    async with runtime.turn(SESSION, text) as events:
        async for _ in events:
            pass


async def _reference_run(
    stub: StubLLM, workdir: Path, state: Path, turn2: list[Reply], kill_at: int
) -> Any:
    settings = Settings(
        workdir=workdir,
        state_dir=state,
        llm={"base_url": stub.url, "max_retries": 0},
        memory={"embed": False},  # as the crashed run's MEMORY_EMBED
    )
    stub.requests.clear()
    stub.add(Reply(text="first answer"))
    async with open_app(settings) as app:
        await _drain(app.runtime, "first")
        stub.add(*turn2)
        async with anyio.create_task_group() as tg:
            tg.start_soon(_drain, app.runtime, "second")
            await anyio.to_thread.run_sync(_wait_for_requests, stub, kill_at)
            tg.cancel_scope.cancel()
        stub.add(Reply(text="third answer"))
        await _drain(app.runtime, "third")
    return stub.requests[-1]["messages"]


def _assert_whole_exchanges(messages: list[Message]) -> None:
    for i, message in enumerate(messages):
        if message.tool_calls:
            results = messages[i + 1 : i + 1 + len(message.tool_calls)]
            assert [r.tool_call_id for r in results] == [c.id for c in message.tool_calls]


async def _stored(path: Path) -> list[Message]:
    async with SQLiteHistory.open(path) as store:
        with scopes.use(scopes.Scope()):
            return await store.load_conversation(SESSION)


@pytest.mark.parametrize(("turn2", "kill_at"), SCENARIOS)
def test_sigkill_mid_turn_then_restart_sends_the_no_crash_request(
    stub_llm: StubLLM, tmp_path: Path, turn2: list[Reply], kill_at: int
) -> None:
    """Killed mid-turn, a restarted agentd sends the model what an uncrashed one would."""
    # A workdir each: a file the first run wrote would make the second's same write a no-op.
    crashed_dir, reference_dir = tmp_path / "wd-crash", tmp_path / "wd-ref"
    crashed_dir.mkdir()
    reference_dir.mkdir()
    crashed = _crash_run(stub_llm, crashed_dir, tmp_path / "crash", turn2, kill_at)
    reference = anyio.run(_reference_run, stub_llm, reference_dir, tmp_path / "ref", turn2, kill_at)
    assert crashed == reference
    contents = [m["content"] for m in crashed if m["role"] == "user"]
    assert contents == ["first", "second", "third"]
    stored = anyio.run(_stored, tmp_path / "crash" / "history.db")
    _assert_whole_exchanges(stored)
    assert [m.role for m in stored if m.tool_calls or m.role == "tool"] == (
        ["assistant", "tool"] if kill_at == 3 else []
    )
