"""`agentd run` with the HTTP channel enabled: the real daemon, an OpenAI client, SIGTERM.

No tokens are configured, as after `make run`: the daemon generates state_dir/http.token and
requires it, and clients read it from there.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import openai

from agentd.model.sidecar import free_port
from tests.support.daemon import NotifySocket, auth, daemon, http_token, write_config
from tests.support.stub_llm import Reply, StubLLM


def test_daemon_serves_the_api_and_stops_on_sigterm(stub_llm: StubLLM, tmp_path: Path) -> None:
    """READY=1 means the API answers; sessions persist, metrics count, SIGTERM exits 0."""
    port = free_port()
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
            token = http_token(tmp_path)
            client = openai.OpenAI(base_url=f"{url}/v1", api_key=token, max_retries=0, timeout=30)
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
            assert httpx.get(f"{url}/readyz").json() == {"status": "ready"}
            ready = httpx.get(f"{url}/readyz", headers=auth(tmp_path))
            assert ready.status_code == 200, ready.text
            assert ready.json()["checks"]["channels"]["http"] is True
            assert ready.json()["checks"]["warm"] == "off"  # auto: only with the sidecar
            scraped = httpx.get(f"{url}/metrics", headers=auth(tmp_path)).text
            assert 'agentd_turns_total{channel="http",status="ok"} 2.0' in scraped
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0
    finally:
        notify.close()


def test_warm_start_runs_after_ready_and_readyz_says_when_done(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """With llm.warm_start on, READY=1 comes while the warm-up request is still running; it
    asks for one token, and /readyz shows ``warming`` and then ``done``."""
    stub_llm.add(Reply(text="", delay=2.0))
    port = free_port()
    config = write_config(
        tmp_path / "config.json",
        tmp_path,
        stub_llm.url,
        channels={"http": {"enabled": True, "port": port}},
        cron={"enabled": False},
    )
    raw = json.loads(config.read_text())
    raw["llm"]["warm_start"] = "on"
    config.write_text(json.dumps(raw))
    notify = NotifySocket(tmp_path / "notify.sock")
    url = f"http://127.0.0.1:{port}/readyz"
    try:
        with daemon(config, notify):
            notify.wait_for("READY=1")

            def warm() -> str:
                return str(httpx.get(url, headers=auth(tmp_path)).json()["checks"]["warm"])

            assert warm() in ("pending", "warming")
            deadline = time.monotonic() + 20
            while warm() != "done":
                assert time.monotonic() < deadline, "the warm-up never finished"
                time.sleep(0.1)
    finally:
        notify.close()
    assert stub_llm.requests[0]["max_tokens"] == 1
    assert stub_llm.requests[0]["messages"][0]["role"] == "system"
    assert stub_llm.requests[0]["tools"]


def test_sigterm_drains_queued_turns(stub_llm: StubLLM, tmp_path: Path) -> None:
    """SIGTERM waits for turns still queued for a slot, not only the running one.

    Regression: a turn counted as in flight only once it held its slot, so the drain ended
    after the running turn and the queued ones were cut off.
    """
    stub_llm.fallback = lambda body: Reply(text="done", delay=1.0)
    port = free_port()
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
        return httpx.post(url, json=body, headers=auth(tmp_path), timeout=60)

    try:
        with daemon(config, notify) as proc, ThreadPoolExecutor(3) as pool:
            notify.wait_for("READY=1")
            replies = [pool.submit(ask, f"s{i}") for i in range(3)]
            # One runs, two wait for its slot: the gauge counts all three.
            metrics = f"http://127.0.0.1:{port}/metrics"
            deadline = time.monotonic() + 20
            while (
                "agentd_turns_in_flight 3.0" not in httpx.get(metrics, headers=auth(tmp_path)).text
            ):
                assert time.monotonic() < deadline, "three turns never were in flight"
                time.sleep(0.01)
            proc.send_signal(signal.SIGTERM)
            statuses = [r.result(timeout=30).status_code for r in replies]
            assert proc.wait(timeout=30) == 0
    finally:
        notify.close()
    assert statuses == [200, 200, 200]
    assert len(stub_llm.requests) == 3


def _http_config(tmp_path: Path, llm_url: str, port: int, **http: object) -> Path:
    return write_config(
        tmp_path / "config.json",
        tmp_path,
        llm_url,
        channels={"http": {"enabled": True, "port": port, **http}},
        cron={"enabled": False},
    )


def test_generated_token_is_required_reused_and_refused_when_exposed(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """First start writes http.token (0600) and requires it; the next reuses it; 0644 exits 78."""
    port = free_port()
    config = _http_config(tmp_path, stub_llm.url, port)
    url = f"http://127.0.0.1:{port}/v1/chat/completions"
    body = {"messages": [{"role": "user", "content": "hi"}]}
    path = tmp_path / "state" / "http.token"
    tokens = []
    for _ in range(2):
        notify = NotifySocket(tmp_path / "notify.sock")
        try:
            with daemon(config, notify) as proc:
                notify.wait_for("READY=1")
                assert stat.S_IMODE(path.stat().st_mode) == 0o600
                tokens.append(http_token(tmp_path))
                assert httpx.post(url, json=body, timeout=30).status_code == 401
                ok = httpx.post(url, json=body, headers=auth(tmp_path), timeout=30)
                assert ok.status_code == 200, ok.text
                assert httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200
                proc.send_signal(signal.SIGTERM)
                assert proc.wait(timeout=30) == 0
                out = proc.stdout.read() if proc.stdout else ""
        finally:
            notify.close()
            (tmp_path / "notify.sock").unlink(missing_ok=True)
        # The log names the file and how to use it, never the token.
        assert str(path) in out
        assert tokens[-1] not in out
    assert tokens[0] == tokens[1]
    path.chmod(0o644)
    with daemon(config) as proc:
        assert proc.wait(timeout=30) == 78
        out = proc.stdout.read() if proc.stdout else ""
    assert str(path) in out and "chmod 600" in out


def test_no_token_on_loopback_serves_without_one_and_config_show_warns(
    stub_llm: StubLLM, tmp_path: Path
) -> None:
    """The loopback opt-out needs no token and creates no file; `config show` warns about it."""
    port = free_port()
    config = _http_config(tmp_path, stub_llm.url, port, no_token_on_loopback=True)
    notify = NotifySocket(tmp_path / "notify.sock")
    url = f"http://127.0.0.1:{port}/v1/chat/completions"
    try:
        with daemon(config, notify) as proc:
            notify.wait_for("READY=1")
            reply = httpx.post(url, json={"messages": [{"role": "user", "content": "hi"}]})
            assert reply.status_code == 200, reply.text
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0
    finally:
        notify.close()
    assert not (tmp_path / "state" / "http.token").exists()
    show = subprocess.run(
        [sys.executable, "-m", "agentd", "--config", str(config), "config", "show"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert show.returncode == 0, show.stderr
    assert "WARNING: channels.http.no_token_on_loopback" in show.stdout


def test_no_token_off_loopback_is_a_config_error(stub_llm: StubLLM, tmp_path: Path) -> None:
    """The opt-out on a non-loopback address (even with tokens) stops the start with exit 78."""
    config = _http_config(
        tmp_path,
        stub_llm.url,
        free_port(),
        host="0.0.0.0",
        tokens=["t"],
        no_token_on_loopback=True,
    )
    with daemon(config) as proc:
        assert proc.wait(timeout=30) == 78
        out = proc.stdout.read() if proc.stdout else ""
    assert "no_token_on_loopback" in out
