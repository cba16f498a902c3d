"""Secrets never reach an HTTP client or the log through a model server's error (issue #15, 6)."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import structlog

from agentd.config import Settings, secret_values
from agentd.daemon.app import open_app
from agentd.daemon.logging import configure
from agentd.errors import LLMError, LLMUnavailable
from agentd.messages import user
from agentd.model.client import LLMClient
from tests.support.http_channel import in_process
from tests.support.stub_llm import Reply, StubLLM

API_KEY = "sk-live-4f9a8b7c6d5e"
pytestmark = pytest.mark.anyio

SECRETS = (API_KEY, "http-token-0123456789", "123456:telegram-bot-token", "milvus-root-pw")


@pytest.fixture
def log_stream() -> Iterator[io.StringIO]:
    """The daemon's log, configured as `agentd run` does, written to a string."""
    yield io.StringIO()
    structlog.reset_defaults()
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
async def test_model_error_echoing_authorization_is_scrubbed(
    stub_llm: StubLLM, tmp_path: Path, log_stream: io.StringIO, stream: bool
) -> None:
    """A 502 for a model error that quotes our Authorization header carries no secret."""
    settings = Settings(
        workdir=tmp_path / "workdir",
        state_dir=tmp_path / "state",
        llm={"base_url": stub_llm.url, "max_retries": 0, "api_key": API_KEY},  # type: ignore[arg-type]
        channels={  # type: ignore[arg-type]
            "http": {"tokens": [SECRETS[1]]},
            "telegram": {"token": SECRETS[2]},
        },
        milvus={"token": SECRETS[3]},  # type: ignore[arg-type]
    )
    (tmp_path / "workdir").mkdir()
    configure(level="debug", fmt="json", secrets=secret_values(settings), stream=log_stream)
    # The server's error quotes the key and every other configured secret.
    quoted = f"bad request {' '.join(SECRETS)}"
    stub_llm.add(Reply(text=quoted, status=500, echo_authorization=True))
    async with open_app(settings) as app, in_process(app.runtime, settings.channels.http) as http:
        body = {"messages": [{"role": "user", "content": "hi"}], "stream": stream}
        reply = await http.post(
            "/v1/chat/completions", json=body, headers={"Authorization": f"Bearer {SECRETS[1]}"}
        )
    assert reply.status_code == 502, reply.text
    assert "model server answered HTTP 500" in reply.text
    assert "Authorization: Bearer ***" in reply.text
    logged = log_stream.getvalue()
    for secret in SECRETS:
        assert secret not in reply.text
        assert secret not in logged


async def test_unreachable_model_error_hides_url_password() -> None:
    """The 'no model server answers at URL' error masks the URL's password."""
    async with httpx.AsyncClient() as http:
        llm = LLMClient(http, base_url="http://u:hunter2@127.0.0.1:1", model="m", max_retries=0)
        with pytest.raises(LLMUnavailable) as caught:
            await llm.chat([user("hi")])
    assert "hunter2" not in str(caught.value)
    assert "http://u:***@127.0.0.1:1" in str(caught.value)


async def test_mid_stream_error_echoing_the_key_is_scrubbed() -> None:
    """An error inside a stream that quotes the key and a known secret reaches no one whole."""

    def handler(request: httpx.Request) -> httpx.Response:
        quoted = f"denied: {request.headers['authorization']} and {SECRETS[2]}"
        body = f'data: {{"error": {{"message": "{quoted}"}}}}\n\n'
        return httpx.Response(200, text=body, headers={"content-type": "text/event-stream"})

    transport = httpx.MockTransport(handler)
    async with httpx.AsyncClient(transport=transport) as http:
        llm = LLMClient(http, base_url="http://m", model="m", api_key=API_KEY, secrets=[SECRETS[2]])
        with pytest.raises(LLMError) as caught:
            async for _ in llm.stream([user("hi")]):
                pass
    assert API_KEY not in str(caught.value) and SECRETS[2] not in str(caught.value)
    assert "denied: Bearer ***" in str(caught.value)
