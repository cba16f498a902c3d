"""Many sessions at once over a real socket: every reply reaches its session, in order."""

from __future__ import annotations

import httpx
import pytest

from agentd.engine.runtime import Runtime
from agentd.metrics import Metrics
from tests.support.http_channel import serving
from tests.support.stub_llm import StubLLM

pytestmark = pytest.mark.anyio

SESSIONS = 200
TURNS = 3


async def test_concurrent_sessions_each_get_their_replies_in_order(
    stub_runtime: Runtime, stub_llm: StubLLM, metrics: Metrics
) -> None:
    """200 sessions x 3 turns concurrently (half streaming): all 600 replies right and in order."""
    import anyio

    replies: dict[int, list[str]] = {i: [] for i in range(SESSIONS)}
    limits = httpx.Limits(max_connections=SESSIONS, max_keepalive_connections=SESSIONS)

    async def session(http: httpx.AsyncClient, i: int) -> None:
        for turn in range(TURNS):
            body = {
                "messages": [{"role": "user", "content": f"s{i} t{turn}"}],
                "stream": i % 2 == 1,
            }
            headers = {"X-Session-Id": f"load-{i}"}
            if body["stream"]:
                text = ""
                async with http.stream(
                    "POST", "/v1/chat/completions", json=body, headers=headers
                ) as response:
                    assert response.status_code == 200
                    async for line in response.aiter_lines():
                        if line.startswith("data: {"):
                            import json

                            chunk = json.loads(line[6:])
                            text += chunk["choices"][0]["delta"].get("content") or ""
                replies[i].append(text)
            else:
                response = await http.post("/v1/chat/completions", json=body, headers=headers)
                assert response.status_code == 200, response.text
                replies[i].append(response.json()["choices"][0]["message"]["content"])

    async with (
        serving(stub_runtime, metrics=metrics) as channel,
        httpx.AsyncClient(base_url=channel.url, limits=limits, timeout=60) as http,
    ):
        async with anyio.create_task_group() as tg:
            for i in range(SESSIONS):
                tg.start_soon(session, http, i)

    for i in range(SESSIONS):
        assert replies[i] == [f"echo: s{i} t{turn}" for turn in range(TURNS)]
        history = await stub_runtime.history(f"http:load-{i}")
        assert [m.content for m in history[1:]] == [
            text for turn in range(TURNS) for text in (f"s{i} t{turn}", f"echo: s{i} t{turn}")
        ]
    ok = metrics.registry.get_sample_value(
        "agentd_turns_total", {"channel": "http", "status": "ok"}
    )
    assert ok == SESSIONS * TURNS
    assert len(stub_llm.requests) == SESSIONS * TURNS
