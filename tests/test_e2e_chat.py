"""End to end: `agentd chat --local -m` as a subprocess against the loopback stub."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.stub_llm import Reply, StubLLM


def _run(
    stub: StubLLM, tmp_path: Path, *args: str, stream: bool = True, **extra: str
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        **extra,
        "LLAMA_URL": stub.url,
        "AGENT_WORKDIR": str(tmp_path / "workdir"),
        "AGENTD_STATE_DIR": str(tmp_path / "state"),
        "MEMORY_EMBED": "false",
    }
    (tmp_path / "workdir").mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "agentd", "chat", "--local", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_chat_runs_a_tool_and_answers(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A scripted tool request runs current_time, and the final answer is printed."""
    stub_llm.add(
        Reply(tool_calls=[("current_time", {"timezone": "UTC"})]), Reply(text="It is late.")
    )
    proc = _run(stub_llm, tmp_path, "-m", "what time is it?")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "It is late."
    second = stub_llm.requests[1]["messages"]
    assert second[-3]["tool_calls"][0]["function"]["name"] == "current_time"
    assert second[-2]["role"] == "tool" and "UTC" in second[-2]["content"]
    assert all(r.get("stream") for r in stub_llm.requests)
    # The stub is no grammar-held local model: the small-model rules ask it nothing apart.
    assert stub_llm.checks == [] and stub_llm.routes == [] and stub_llm.intents == []


def test_chat_answers_in_words_when_the_check_says_no(stub_llm: StubLLM, tmp_path: Path) -> None:
    """With default.guards.check_calls on, a call the check finds not needed is not run: the
    model is asked for words instead."""
    stub_llm.check_answer = "no"
    stub_llm.add(Reply(tool_calls=[("current_time", {"timezone": "UTC"})]), Reply(text="4."))
    on = {"AGENTD_DEFAULT__GUARDS__CHECK_CALLS": "on"}
    proc = _run(stub_llm, tmp_path, "-m", "What's 2+2?", **on)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "4."
    [check] = stub_llm.checks
    assert "current_time" in check["messages"][-1]["content"]
    second = stub_llm.requests[1]
    assert "tools" not in second and all(m["role"] != "tool" for m in second["messages"])


def test_chat_says_when_nothing_answers(tmp_path: Path) -> None:
    """With no server at LLAMA_URL the CLI says so and exits 69."""
    stub = StubLLM()
    stub.start()
    url = stub.url
    stub.stop()
    env = {**os.environ, "LLAMA_URL": url, "AGENT_WORKDIR": str(tmp_path), "MEMORY_EMBED": "false"}
    proc = subprocess.run(
        [sys.executable, "-m", "agentd", "chat", "--local", "-m", "hi"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 69
    assert "no model server answers" in proc.stderr
