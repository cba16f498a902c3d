"""`agentd run` with the HTTP channel enabled: the real daemon, an OpenAI client, SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import openai

from tests.support.daemon import NotifySocket, daemon, write_config
from tests.support.stub_llm import Reply, StubLLM


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_daemon_serves_the_api_and_stops_on_sigterm(stub_llm: StubLLM, tmp_path: Path) -> None:
    """READY=1 means the API answers; sessions persist, metrics count, SIGTERM exits 0."""
    port = _free_port()
    config = write_config(
        tmp_path / "config.json",
        tmp_path,
        stub_llm.url,
        channels={"http": {"enabled": True, "port": port}},
        cron={"enabled": False},
    )
    notify = NotifySocket(tmp_path / "notify.sock")
    try:
        with daemon(config, notify) as proc:
            notify.wait_for("READY=1")
            url = f"http://127.0.0.1:{port}"
            client = openai.OpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0, timeout=30)
            first = client.chat.completions.create(
                model="agentd", messages=[{"role": "user", "content": "hi"}], user="dan"
            )
            assert first.choices[0].message.content == "echo: hi"
            agentd = [sys.executable, "-m", "agentd", "--config", str(config)]
            chat = subprocess.run(
                [*agentd, "chat", "--session", "dan", "-m", "again"],
                env={**os.environ},
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            assert (chat.returncode, chat.stdout) == (0, "echo: again\n"), chat.stderr
            assert [m["content"] for m in stub_llm.requests[1]["messages"][1:]] == [
                "hi",
                "echo: hi",
                "again",
            ]
            ready = httpx.get(f"{url}/readyz")
            assert ready.status_code == 200, ready.text
            assert ready.json()["checks"]["channels"]["http"] is True
            scraped = httpx.get(f"{url}/metrics").text
            assert 'agentd_turns_total{channel="http",status="ok"} 2.0' in scraped
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0
    finally:
        notify.close()


def test_sigterm_drains_queued_turns(stub_llm: StubLLM, tmp_path: Path) -> None:
    """SIGTERM waits for turns still queued for a slot, not only the running one.

    Regression: a turn counted as in flight only once it held its slot, so the drain ended
    after the running turn and the queued ones were cut off.
    """
    stub_llm.fallback = lambda body: Reply(text="done", delay=1.0)
    port = _free_port()
    config = write_config(
        tmp_path / "config.json",
        tmp_path,
        stub_llm.url,
        channels={"http": {"enabled": True, "port": port}},
        cron={"enabled": False},
        default={"max_concurrent_turns": 1},
    )
    notify = NotifySocket(tmp_path / "notify.sock")
    url = f"http://127.0.0.1:{port}/v1/chat/completions"

    def ask(session: str) -> httpx.Response:
        body = {"messages": [{"role": "user", "content": "hi"}], "user": session}
        return httpx.post(url, json=body, timeout=60)

    try:
        with daemon(config, notify) as proc, ThreadPoolExecutor(3) as pool:
            notify.wait_for("READY=1")
            replies = [pool.submit(ask, f"s{i}") for i in range(3)]
            # One runs, two wait for its slot: the gauge counts all three.
            metrics = f"http://127.0.0.1:{port}/metrics"
            deadline = time.monotonic() + 20
            while "agentd_turns_in_flight 3.0" not in httpx.get(metrics).text:
                assert time.monotonic() < deadline, "three turns never were in flight"
                time.sleep(0.01)
            proc.send_signal(signal.SIGTERM)
            statuses = [r.result(timeout=30).status_code for r in replies]
            assert proc.wait(timeout=30) == 0
    finally:
        notify.close()
    assert statuses == [200, 200, 200]
    assert len(stub_llm.requests) == 3
