"""LangChain's tool loop against a real ``agentd run`` on the real local model.

llama-server with the packaged model (agentd's sidecar settings, temperature 0), the daemon's
HTTP API, and LangChain's ``ChatOpenAI.bind_tools`` with a ``mul`` tool that runs in the test.
It asserts that the call came back to LangChain, ran there, and that its result reached the
answer. Skipped without the local model unless AGENTD_REQUIRE_LOCAL_MODEL=1 (``make test``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentd.model.packages import DEFAULT_MODEL
from agentd.model.sidecar import open_sidecar
from bench._daemon import agentd_daemon
from bench.agentic import ModelSpec, Options, daemon_config, server_settings
from tests.model.test_local_model import SEED, _local

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600), pytest.mark.anyio]


async def test_langchain_tool_loop_on_the_local_model(tmp_path: Path) -> None:
    from langchain_core.messages import BaseMessage, HumanMessage
    from langchain_core.tools import tool
    from langchain_openai import ChatOpenAI
    from pydantic import SecretStr

    ran: list[tuple[int, int]] = []

    @tool
    def mul(a: int, b: int) -> int:
        """Multiply two integers exactly."""
        ran.append((a, b))
        return a * b

    binary, gguf = _local()
    options = Options(temperature=0.0, seed=SEED)
    spec = ModelSpec(DEFAULT_MODEL, gguf, binary)
    # agentd's file and time tools beside the client's: fewer schemas, a shorter prompt per call.
    config: dict[str, Any] = {
        **daemon_config(options),
        "memory": {"embed": False},
        "tools": {"exec": {"enabled": False}, "web_fetch": {"enabled": False}},
        "cron": {"tasks": {"enabled": False}},
    }
    async with (
        open_sidecar(server_settings(spec, tmp_path / "server", options)) as server,
        agentd_daemon(server.base_url, tmp_path / "daemon", config, server.api_key) as daemon,
    ):
        model = ChatOpenAI(
            model="agentd",
            base_url=daemon.url + "/v1",
            api_key=SecretStr(daemon.token),
            max_retries=0,
            timeout=300,
        ).bind_tools([mul])
        messages: list[BaseMessage] = [HumanMessage("Use the mul tool: what is 1234 times 5678?")]

        def loop() -> None:
            for _ in range(4):
                reply = model.invoke(messages)
                messages.append(reply)
                calls = getattr(reply, "tool_calls", None) or []
                if not calls:
                    return
                messages.extend(mul.invoke(call) for call in calls)

        await anyio.to_thread.run_sync(loop)
    assert ran and sorted(ran[0]) == [1234, 5678], messages
    answer = str(messages[-1].content)
    assert re.search(r"7,?006,?652", answer), answer
