"""Idempotent retries of chat requests: the ``Idempotency-Key`` header on session requests."""

from __future__ import annotations

import contextlib
import json
import signal
import sqlite3
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from agentd import scope as scopes
from agentd.config import Settings
from agentd.daemon.app import App, open_app
from agentd.messages import Message, user
from agentd.model.sidecar import free_port
from tests.support.daemon import NotifySocket, daemon, write_config
from tests.support.http_channel import api_error, in_process
from tests.support.stub_llm import Reply, StubLLM, user_words

pytestmark = pytest.mark.anyio

SESSION = "http:dan"


def _settings(stub: StubLLM, tmp: Path) -> Settings:
    (tmp / "workdir").mkdir(exist_ok=True)
    return Settings(
        workdir=tmp / "workdir",
        state_dir=tmp / "state",
        llm={"base_url": stub.url, "max_retries": 0},  # type: ignore[arg-type]
    )


@asynccontextmanager
async def _daemon(stub: StubLLM, tmp: Path) -> AsyncIterator[tuple[App, httpx.AsyncClient]]:
    async with open_app(_settings(stub, tmp)) as app, in_process(app.runtime) as http:
        yield app, http


async def _chat(
    http: httpx.AsyncClient, text: str, key: str | None = "k-1", **body: Any
) -> httpx.Response:
    headers = {"Idempotency-Key": key} if key is not None else {}
    payload = {"messages": [{"role": "user", "content": text}], "user": "dan", **body}
    return await http.post("/v1/chat/completions", json=payload, headers=headers)


async def _stored(app: App) -> list[Message]:
    assert app.history is not None
    with scopes.use(app.runtime.default_scope):
        return await app.history.load_conversation(SESSION)


def _answer(reply: httpx.Response) -> str:
    assert reply.status_code == 200, reply.text
    content: str = reply.json()["choices"][0]["message"]["content"]
    return content


async def test_retry_replays_the_stored_answer(stub_llm: StubLLM, tmp_path: Path) -> None:
    """The same request twice under one key: one model call, one stored user message, the
    second response carries the first answer (also streamed, as one chunk)."""
    async with _daemon(stub_llm, tmp_path) as (app, http):
        first = _answer(await _chat(http, "hi"))
        again = _answer(await _chat(http, "hi"))
        streamed = await _chat(http, "hi", stream=True)
        stored = await _stored(app)
    assert first == again == "echo: hi"
    assert len(stub_llm.requests) == 1
    assert [m.role for m in stored] == ["user", "assistant"]
    assert streamed.status_code == 200
    assert streamed.text.count('"content":"echo: hi"') == 1


async def test_retry_after_restart_replays(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A retry reaching a restarted daemon still gets the stored answer without a model call."""
    async with _daemon(stub_llm, tmp_path) as (_, http):
        first = _answer(await _chat(http, "hi"))
    async with _daemon(stub_llm, tmp_path) as (app, http):
        assert _answer(await _chat(http, "hi")) == first
        assert len(await _stored(app)) == 2
    assert len(stub_llm.requests) == 1


async def test_retry_after_a_crash_runs_once(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A first attempt that stored its message and died before the answer: the retry runs the
    turn on the stored message and does not store it again."""
    async with _daemon(stub_llm, tmp_path) as (app, _):
        assert app.history is not None
        with scopes.use(app.runtime.default_scope):
            await app.history.save_conversation(SESSION, [user("hi")], request_key="k-1")
    async with _daemon(stub_llm, tmp_path) as (app, http):
        assert _answer(await _chat(http, "hi")) == "echo: hi"
        stored = await _stored(app)
    assert [(m.role, m.content) for m in stored] == [("user", "hi"), ("assistant", "echo: hi")]
    assert len(stub_llm.requests) == 1
    sent = stub_llm.requests[0]["messages"][1:]
    assert [user_words(m["content"]) for m in sent] == ["hi"]


async def test_retry_after_a_model_error_runs_once(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A 502 leaves the message stored without an answer: the retry answers it, stored once."""
    stub_llm.add(Reply(status=500, text="boom"))
    async with _daemon(stub_llm, tmp_path) as (app, http):
        api_error(await _chat(http, "hi"), 502)
        assert _answer(await _chat(http, "hi")) == "echo: hi"
        stored = await _stored(app)
    assert [m.role for m in stored] == ["user", "assistant"]


async def test_concurrent_retry_waits_for_the_first(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A retry arriving while the first attempt runs waits for it and gets its answer."""
    stub_llm.add(Reply(text="slow answer", delay=0.5))
    replies: list[str] = []
    async with _daemon(stub_llm, tmp_path) as (app, http):

        async def send() -> None:
            replies.append(_answer(await _chat(http, "hi")))

        async with anyio.create_task_group() as tg:
            tg.start_soon(send)
            await anyio.sleep(0.1)
            tg.start_soon(send)
        stored = await _stored(app)
    assert replies == ["slow answer", "slow answer"]
    assert len(stub_llm.requests) == 1
    assert [m.role for m in stored] == ["user", "assistant"]


async def test_key_reused_for_another_message_is_422(stub_llm: StubLLM, tmp_path: Path) -> None:
    """The key of a stored request sent with a different message is refused with 422."""
    async with _daemon(stub_llm, tmp_path) as (app, http):
        _answer(await _chat(http, "hi"))
        error = api_error(await _chat(http, "something else"), 422)
        assert len(await _stored(app)) == 2
    assert error["code"] == "idempotency_key_reused"
    assert len(stub_llm.requests) == 1


async def test_cut_off_request_after_later_turns_is_409(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A retry of an unanswered request that later turns have passed is refused with 409."""
    stub_llm.add(Reply(status=500, text="boom"))
    async with _daemon(stub_llm, tmp_path) as (_, http):
        api_error(await _chat(http, "hi"), 502)
        _answer(await _chat(http, "later", key="k-2"))
        error = api_error(await _chat(http, "hi"), 409)
    assert error["code"] == "idempotency_conflict"


async def test_keys_are_scoped_by_session(stub_llm: StubLLM, tmp_path: Path) -> None:
    """One key in two sessions is two requests."""
    async with _daemon(stub_llm, tmp_path) as (_, http):
        _answer(await _chat(http, "hi"))
        _answer(await _chat(http, "hi", user="eve"))
    assert len(stub_llm.requests) == 2


@pytest.mark.parametrize(
    "key",
    [
        pytest.param("", id="empty"),
        pytest.param("x" * 256, id="long"),
        pytest.param("a\tb", id="tab"),
    ],
)
async def test_malformed_key_is_400(stub_llm: StubLLM, tmp_path: Path, key: str) -> None:
    """An empty, over-long or non-printable key is refused before any turn runs."""
    async with _daemon(stub_llm, tmp_path) as (_, http):
        error = api_error(await _chat(http, "hi", key=key), 400)
    assert error["code"] == "invalid_idempotency_key"
    assert stub_llm.requests == []


def _user_rows(db: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        bodies = [json.loads(b) for (b,) in conn.execute("SELECT body FROM messages ORDER BY id")]
    return [b["content"] for b in bodies if b["role"] == "user"]


@pytest.mark.timeout(120)
def test_retry_after_kill_9_mid_turn_stores_once(stub_llm: StubLLM, tmp_path: Path) -> None:
    """A real daemon killed (-9) while the model works: the retry on the restarted daemon runs
    the turn once more on the stored message, which stays stored once."""
    stub_llm.add(Reply(text="never sent", delay=60))
    port = free_port()
    config = write_config(
        tmp_path / "c.json",
        tmp_path,
        stub_llm.url,
        channels={"http": {"enabled": True, "port": port}},
        cron={"enabled": False},
    )
    url = f"http://127.0.0.1:{port}/v1/chat/completions"
    payload = {"messages": [{"role": "user", "content": "hi"}], "user": "dan"}
    headers = {"Idempotency-Key": "k-1"}
    notify = NotifySocket(tmp_path / "notify.sock")
    try:
        with daemon(config, notify) as first, ThreadPoolExecutor(1) as pool:
            notify.wait_for("READY=1")
            token = (tmp_path / "state" / "http.token").read_text().strip()
            headers["Authorization"] = f"Bearer {token}"
            cut_off = pool.submit(httpx.post, url, json=payload, headers=headers, timeout=60)
            deadline = time.monotonic() + 30
            while not stub_llm.requests:
                assert time.monotonic() < deadline, "the model was never called"
                time.sleep(0.05)
            first.send_signal(signal.SIGKILL)
            first.wait(timeout=10)
            with pytest.raises(httpx.HTTPError):
                cut_off.result(timeout=30)
        notify.messages.clear()
        with daemon(config, notify) as again:
            notify.wait_for("READY=1")
            retry = httpx.post(url, json=payload, headers=headers, timeout=60)
            assert retry.status_code == 200, retry.text
            assert retry.json()["choices"][0]["message"]["content"] == "echo: hi"
            again.send_signal(signal.SIGTERM)
            assert again.wait(timeout=30) == 0
    finally:
        notify.close()
    assert _user_rows(tmp_path / "state" / "history.db") == ["hi"]
    assert len(stub_llm.requests) == 2
    assert [m["content"] for m in stub_llm.requests[1]["messages"][1:]] == ["hi"]
