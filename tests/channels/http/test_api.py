"""The HTTP API in process (``httpx.ASGITransport``): auth, 4xx, rate limits, probes, models.

Nothing here needs a socket; streaming, disconnects, slow clients and the server's lifecycle are
tested on a real one (test_server.py, test_hostile.py, test_lifecycle.py, test_load.py).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import openai
import pytest
from pydantic import SecretStr

from agentd.config import HttpChannelSettings, RateLimitSettings
from agentd.engine.runtime import Runtime
from agentd.metrics import Metrics
from tests.support.http_channel import (
    HELLO,
    IN_PROCESS_URL,
    JSON,
    api_error,
    in_process,
    still_serving,
)
from tests.support.stub_llm import StubLLM

pytestmark = pytest.mark.anyio

TOOL_CALL = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}
    ],
}
TOOL_RESULT = {"role": "tool", "tool_call_id": "call_1", "content": "a.txt"}


@pytest.fixture
async def api(stub_runtime: Runtime) -> AsyncIterator[httpx.AsyncClient]:
    """A client on the API with small limits, in process."""
    settings = HttpChannelSettings(max_body_bytes=2048, max_message_chars=100, body_timeout=0.5)
    async with in_process(stub_runtime, settings) as client:
        yield client


def _openai(http: httpx.AsyncClient, key: str) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(
        base_url=f"{IN_PROCESS_URL}/v1", api_key=key, max_retries=0, http_client=http
    )


@pytest.mark.parametrize(
    ("content", "content_type"),
    [
        pytest.param(b'{"messages": [', "application/json", id="truncated"),
        pytest.param(b"messages=hello", "application/json; charset=utf-8", id="form-as-json"),
    ],
)
async def test_bad_json_is_400(api: httpx.AsyncClient, content: bytes, content_type: str) -> None:
    """A body declared JSON that is not JSON is a 400 saying so."""
    reply = await api.post(
        "/v1/chat/completions", content=content, headers={"Content-Type": content_type}
    )
    assert api_error(reply, 400)["code"] == "invalid_json"
    await still_serving(api)


@pytest.mark.parametrize(
    ("body", "param"),
    [
        pytest.param({"messages": "hello"}, "messages", id="messages-not-a-list"),
        pytest.param({"messages": []}, "messages", id="no-messages"),
        pytest.param({}, "messages", id="messages-missing"),
        pytest.param([1, 2], None, id="not-an-object"),
        pytest.param(
            {"messages": [{"role": "user", "content": 5}]},
            "messages.0.content",
            id="content-a-number",
        ),
        pytest.param(
            {"messages": [{"role": "wizard", "content": "x"}]}, "messages.0.role", id="unknown-role"
        ),
        pytest.param({**HELLO, "stream": "yes"}, "stream", id="stream-a-string"),
        pytest.param({**HELLO, "n": 2}, "n", id="n-above-one"),
        pytest.param({**HELLO, "user": 42}, "user", id="user-a-number"),
        pytest.param(
            {"messages": [{"role": "user", "content": [{"type": "image_url"}]}]},
            "messages.0.content",
            id="image-part",
        ),
        pytest.param(
            {"messages": [{"role": "user", "content": "x" * 101}]},
            "messages.0.content",
            id="message-too-long",
        ),
        pytest.param(
            {"messages": [{"role": "tool", "content": "x"}]},
            "messages.0.tool_call_id",
            id="tool-without-id",
        ),
        pytest.param({**HELLO, "user": "../etc/passwd"}, "user", id="bad-session-id"),
        pytest.param(
            {"messages": [*HELLO["messages"], TOOL_RESULT]},
            "messages.1.tool_call_id",
            id="tool-result-without-call",
        ),
        pytest.param(
            {"messages": [*HELLO["messages"], TOOL_CALL, *HELLO["messages"]]},
            "messages.1.tool_calls",
            id="tool-call-without-result",
        ),
        pytest.param(
            {"messages": [*HELLO["messages"], TOOL_CALL, TOOL_RESULT, TOOL_CALL, TOOL_RESULT]},
            "messages.3.tool_calls",
            id="tool-call-id-twice",
        ),
    ],
)
async def test_schema_violations_are_400_naming_the_field(
    api: httpx.AsyncClient, body: Any, param: str | None
) -> None:
    """A wrong type or value is a 400 whose param names the field."""
    reply = await api.post("/v1/chat/completions", json=body)
    error = api_error(reply, 400)
    assert error["param"] == param
    assert error["type"] == "invalid_request_error"
    await still_serving(api)


async def test_complete_tool_exchange_reaches_the_model(
    api: httpx.AsyncClient, stub_llm: StubLLM
) -> None:
    """A stateless request with a call and its result is passed on to the model as sent."""
    body = {"messages": [*HELLO["messages"], TOOL_CALL, TOOL_RESULT, *HELLO["messages"]]}
    reply = await api.post("/v1/chat/completions", json=body)
    assert reply.status_code == 200, reply.text
    sent = stub_llm.requests[-1]["messages"]
    assert [m["role"] for m in sent[-4:]] == ["user", "assistant", "tool", "user"]
    assert sent[-2]["tool_call_id"] == "call_1"


async def test_session_request_must_end_with_a_user_message(api: httpx.AsyncClient) -> None:
    """A session request whose last message is not the user's has nothing to append: 400."""
    body = {"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]}
    reply = await api.post("/v1/chat/completions", json=body, headers={"X-Session-Id": "s"})
    assert api_error(reply, 400)["code"] == "no_user_message"


async def test_huge_declared_body_is_413(api: httpx.AsyncClient) -> None:
    """A Content-Length above the limit is refused with 413."""
    body = json.dumps({"messages": [{"role": "user", "content": "x" * 5000}]}).encode()
    reply = await api.post("/v1/chat/completions", content=body, headers=JSON)
    assert api_error(reply, 413)["code"] == "request_too_large"
    await still_serving(api)


async def test_unknown_route_and_wrong_method(api: httpx.AsyncClient) -> None:
    """Unknown paths are 404 and wrong methods 405, both in the OpenAI error shape."""
    assert api_error(await api.get("/v1/nothing"), 404)["type"] == "not_found_error"
    api_error(await api.get("/v1/chat/completions"), 405)


async def test_missing_and_wrong_token_are_401(stub_runtime: Runtime) -> None:
    """No token or a wrong one is 401 with WWW-Authenticate; the health probe stays open."""
    settings = HttpChannelSettings(tokens=[SecretStr("right")])
    async with in_process(stub_runtime, settings) as http:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "right"}):
            reply = await http.post("/v1/chat/completions", json=HELLO, headers=headers)
            assert api_error(reply, 401)["type"] == "authentication_error"
            assert reply.headers["www-authenticate"].startswith("Bearer")
        api_error(await http.get("/metrics"), 401)
        api_error(await http.get("/v1/models"), 401)
        assert (await http.get("/healthz")).status_code == 200
        assert (await http.get("/metrics", headers={"Authorization": "Bearer right"})).is_success


async def test_auth_failure_and_success(stub_runtime: Runtime) -> None:
    """With tokens set, a wrong token is a 401 AuthenticationError and the right one works."""
    settings = HttpChannelSettings(tokens=[SecretStr("s3cret"), SecretStr("other")])
    async with in_process(stub_runtime, settings) as http:
        with pytest.raises(openai.AuthenticationError) as caught:
            await _openai(http, "wrong").chat.completions.create(
                model="agentd", messages=[{"role": "user", "content": "hi"}]
            )
        assert caught.value.status_code == 401
        assert caught.value.code == "invalid_api_key"
        client = _openai(http, "other")
        reply = await client.chat.completions.create(
            model="agentd", messages=[{"role": "user", "content": "hi"}]
        )
        models = await client.models.list()
    assert reply.choices[0].message.content == "echo: hi"
    assert [m.id for m in models.data] == ["agentd"]


async def test_rate_limit_is_429_with_retry_after_per_token(stub_runtime: Runtime) -> None:
    """Past its burst a token gets 429 with Retry-After; another token is not affected."""
    settings = HttpChannelSettings(
        tokens=[SecretStr("a"), SecretStr("b")],
        rate_limit=RateLimitSettings(requests_per_minute=6, burst=2),
    )
    async with in_process(stub_runtime, settings) as http:
        a = {"Authorization": "Bearer a"}
        statuses = [(await http.get("/v1/models", headers=a)).status_code for _ in range(3)]
        assert statuses == [200, 200, 429]
        limited = await http.get("/v1/models", headers=a)
        assert api_error(limited, 429)["code"] == "rate_limit_exceeded"
        assert 1 <= int(limited.headers["retry-after"]) <= 10
        assert (await http.get("/v1/models", headers={"Authorization": "Bearer b"})).is_success


async def test_shutting_down_is_503_with_retry_after(stub_runtime: Runtime) -> None:
    """While the daemon drains, new turns get 503 with Retry-After, session or not."""
    async with in_process(stub_runtime) as http:
        stub_runtime.accepting = False
        for extra in ({}, {"user": "dora"}, {"stream": True}):
            reply = await http.post("/v1/chat/completions", json={**HELLO, **extra})
            assert api_error(reply, 503)["code"] == "shutting_down"
            assert reply.headers["retry-after"] == "5"


async def test_models_retrieve(stub_runtime: Runtime) -> None:
    """The agent's model can be retrieved by id; another id is a 404."""
    async with in_process(stub_runtime) as http:
        client = _openai(http, "unused")
        model = await client.models.retrieve("agentd")
        assert (model.id, model.owned_by) == ("agentd", "agentd")
        with pytest.raises(openai.NotFoundError):
            await client.models.retrieve("gpt-4o")


async def test_health_ready_and_metrics(stub_runtime: Runtime, metrics: Metrics) -> None:
    """healthz is up, readyz checks the model server, metrics count the turn that ran."""
    async with in_process(stub_runtime, metrics=metrics) as http:
        assert (await http.get("/healthz")).json() == {"status": "ok"}
        ready = await http.get("/readyz")
        assert ready.status_code == 200
        assert ready.json()["checks"] == {
            "channels": {"http": True},
            "llm": "ok",
            "memory": "off",
        }
        await http.post(
            "/v1/chat/completions", json={"messages": [{"role": "user", "content": "x"}]}
        )
        scraped = await http.get("/metrics")
    assert scraped.headers["content-type"].startswith("text/plain")
    text = scraped.text
    assert 'agentd_turns_total{channel="http",status="ok"} 1.0' in text
    assert 'agentd_llm_request_duration_seconds_count{mode="chat",outcome="ok"} 1.0' in text
    assert 'agentd_http_requests_total{code="200",route="chat"} 1.0' in text
    assert "agentd_turns_in_flight 0.0" in text


async def test_readyz_shows_its_checks_only_with_a_token(stub_runtime: Runtime) -> None:
    """With tokens set, /readyz without one says ready or not; a right one gets the checks."""
    settings = HttpChannelSettings(tokens=[SecretStr("right")])
    async with in_process(stub_runtime, settings) as http:
        bare = await http.get("/readyz")
        wrong = await http.get("/readyz", headers={"Authorization": "Bearer wrong"})
        full = await http.get("/readyz", headers={"Authorization": "Bearer right"})
    assert (bare.status_code, bare.json()) == (200, {"status": "ready"})
    assert wrong.status_code == 401 and "checks" not in wrong.text
    assert full.status_code == 200 and full.json()["checks"]["llm"] == "ok"


async def test_readyz_is_503_when_the_model_server_is_down(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """readyz reports the unreachable model server with 503."""
    stub_llm.stop()
    async with in_process(stub_runtime) as http:
        ready = await http.get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["checks"]["llm"] == "unreachable"
