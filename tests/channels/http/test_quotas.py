"""Tenant quotas through the HTTP API in process: 429 for one tenant while another is served.

Each tenant calls with its principal's token; the stores are read back in the tenant's scope.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from structlog.testing import capture_logs

from agentd import scope as scopes
from agentd.cli.main import _parser
from agentd.cli.tenants import COLUMNS, run_tenants
from agentd.config import AgentDefaults, HttpChannelSettings, Settings
from agentd.engine.loop import AgentLoop
from agentd.engine.policy import SessionPolicy
from agentd.engine.quotas import Quotas
from agentd.engine.runtime import Runtime
from agentd.memory.history import SQLiteHistory
from agentd.memory.usage import SQLiteUsage
from agentd.metrics import Metrics
from agentd.model.client import open_client
from agentd.model.timed import TimedModel
from tests.support.http_channel import api_error, in_process
from tests.support.stub_llm import StubLLM, echo, tokens

pytestmark = pytest.mark.anyio

ALPHA = scopes.Scope(tenant="alpha")
BETA = scopes.Scope(tenant="beta")
GAMMA = scopes.Scope(tenant="gamma")
ADMIN_TOKEN = "admin-token"
HTTP = HttpChannelSettings(
    tokens=[ADMIN_TOKEN],  # type: ignore[list-item]
    principals=[  # type: ignore[list-item]
        {"name": tenant, "tenant": tenant, "token": f"{tenant}-token"}
        for tenant in ("alpha", "beta", "gamma")
    ],
    rate_limit={"requests_per_minute": 0},  # type: ignore[arg-type]
)


@dataclass
class Served:
    client: httpx.AsyncClient
    history: SQLiteHistory
    settings: Settings


@pytest.fixture
async def served(stub_llm: StubLLM, tmp_path: Path) -> AsyncIterator[Served]:
    """The API on a runtime with a history file and quotas: alpha 2 turns a minute, gamma 1
    token a day, beta unlimited."""
    settings = Settings(
        llm={"base_url": stub_llm.url, "max_retries": 0},  # type: ignore[arg-type]
        history={"path": tmp_path / "history.db"},  # type: ignore[arg-type]
        tenants={
            "alpha": {"limits": {"turns_per_minute": 2}},  # type: ignore[dict-item]
            "gamma": {"limits": {"tokens_per_day": 1}},  # type: ignore[dict-item]
        },
    )
    metrics = Metrics()
    async with open_client(settings) as llm, SQLiteHistory.open(settings.history_path) as history:
        quotas = Quotas(
            settings.limits_for,
            SQLiteUsage(history),
            on_usage=metrics.tenant_usage,
            on_refused=metrics.quota_refused,
        )
        async with (
            Runtime(
                AgentLoop(TimedModel(llm, metrics.on_llm)),
                system_prompt="You are a test.",
                defaults=AgentDefaults(),
                sessions=SessionPolicy(history=history),
                quotas=quotas,
            ) as runtime,
            in_process(runtime, HTTP, metrics=metrics) as client,
        ):
            client.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
            yield Served(client, history, settings)


@contextmanager
def acting(client: httpx.AsyncClient, scope: scopes.Scope) -> Iterator[None]:
    """Requests with the token of ``scope``'s principal; stores read in that scope."""
    client.headers["Authorization"] = f"Bearer {scope.tenant}-token"
    try:
        with scopes.use(scope):
            yield
    finally:
        client.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"


def chat(text: str, *, session: str | None = "s1", stream: bool = False) -> dict[str, Any]:
    body: dict[str, Any] = {"messages": [{"role": "user", "content": text}], "stream": stream}
    if session is not None:
        body["user"] = session
    return body


def stub_usage(requests: list[dict[str, Any]]) -> tuple[int, int]:
    """Prompt and completion tokens the stub reported for ``requests`` (echo answers)."""
    prompt = sum(tokens(body) for body in requests)
    completion = sum(max(1, len(echo(body).text) // 4) for body in requests)
    return prompt, completion


def samples(exposition: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(exposition)
        for s in family.samples
    }


@pytest.mark.parametrize(
    "refused",
    [
        pytest.param(chat("third"), id="session"),
        pytest.param(chat("third", stream=True), id="session-stream"),
        pytest.param(chat("third", session=None), id="stateless"),
    ],
)
async def test_turns_per_minute_is_429_for_that_tenant_only(
    served: Served, stub_llm: StubLLM, refused: dict[str, Any]
) -> None:
    """alpha's third turn in a minute is a 429 with Retry-After that stores and calls nothing;
    beta is served before, meanwhile and after."""
    client = served.client
    for scope, text in ((ALPHA, "one"), (BETA, "b-one"), (ALPHA, "two")):
        with acting(client, scope):
            assert (await client.post("/v1/chat/completions", json=chat(text))).status_code == 200
    with acting(client, ALPHA):
        before = await served.history.load_conversation("http:s1")
        calls = len(stub_llm.requests)
        reply = await client.post("/v1/chat/completions", json=refused)
        error = api_error(reply, 429)
        assert (error["type"], error["code"]) == ("rate_limit_error", "tenant_quota_exceeded")
        assert "'alpha'" in error["message"] and "2 turns per minute" in error["message"]
        assert 1 <= int(reply.headers["Retry-After"]) <= 60
        assert len(stub_llm.requests) == calls
        assert await served.history.load_conversation("http:s1") == before
        assert [s.session_id for s in await served.history.list_sessions()] == ["http:s1"]
    with acting(client, BETA):
        reply = await client.post("/v1/chat/completions", json=chat("b-two"))
        assert reply.json()["choices"][0]["message"]["content"] == "echo: b-two"


async def test_tokens_per_day_is_429_until_utc_midnight(served: Served) -> None:
    """Once gamma has used its day's tokens, its next turn is a 429 until 00:00 UTC."""
    with acting(served.client, GAMMA):
        ok = await served.client.post("/v1/chat/completions", json=chat("hello"))
        assert ok.status_code == 200
        reply = await served.client.post("/v1/chat/completions", json=chat("again"))
    error = api_error(reply, 429)
    assert error["code"] == "tenant_quota_exceeded"
    assert "model tokens for today (UTC)" in error["message"]
    assert 1 <= int(reply.headers["Retry-After"]) <= 86400
    with acting(served.client, BETA):
        assert (await served.client.post("/v1/chat/completions", json=chat("x"))).status_code == 200


async def test_usage_in_metrics_and_the_cli_matches_the_stub(
    served: Served, stub_llm: StubLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    """/metrics and `agentd tenants usage` show each tenant's turns and exactly the tokens the
    stub reported for its turns; a refused turn counts nowhere but in the refusals."""
    used: dict[str, list[dict[str, Any]]] = {"alpha": [], "beta": []}
    plan = [(ALPHA, "one", "s1"), (BETA, "a longer message for beta", "b"), (ALPHA, "two", None)]
    plan += [(BETA, "and more", "b"), (ALPHA, "refused", "s1")]
    for scope, text, session in plan:
        first = len(stub_llm.requests)
        with acting(served.client, scope):
            await served.client.post("/v1/chat/completions", json=chat(text, session=session))
        used[scope.tenant] += stub_llm.requests[first:]
    seen = samples((await served.client.get("/metrics")).text)
    rows = {}
    for tenant, turns in (("alpha", 2), ("beta", 2)):
        prompt, completion = stub_usage(used[tenant])
        assert seen[("agentd_tenant_turns_total", (("tenant", tenant),))] == turns
        assert seen[("agentd_tenant_tokens_total", (("kind", "prompt"), ("tenant", tenant)))] == (
            prompt
        )
        assert (
            seen[("agentd_tenant_tokens_total", (("kind", "completion"), ("tenant", tenant)))]
            == completion
        )
        assert seen[("agentd_tenant_tool_calls_total", (("tenant", tenant),))] == 0
        rows[tenant] = [str(turns), str(prompt), str(completion), "0"]
    refusals = ("agentd_tenant_quota_refusals_total", (("limit", "turns_per_minute"),))
    assert seen[(refusals[0], (*refusals[1], ("tenant", "alpha")))] == 1

    capsys.readouterr()
    with capture_logs():
        assert await run_tenants(served.settings, _parser().parse_args(["tenants", "usage"])) == 0
    lines = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert lines[0] == list(COLUMNS)
    assert {line[0]: line[2:] for line in lines[1:]} == rows

    with capture_logs():
        assert await run_tenants(served.settings, _parser().parse_args(["tenants", "list"])) == 0
    listed = capsys.readouterr().out
    assert "alpha  turns/min 2, tokens/day unlimited" in listed
    assert "beta  turns/min unlimited, tokens/day unlimited" in listed
    assert "gamma  turns/min unlimited, tokens/day 1" in listed
    assert len(listed.splitlines()) == 4  # and "default", the install's own tenant
