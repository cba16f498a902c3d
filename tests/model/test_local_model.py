"""Against the real local model: llama-server from the `local` extra serving the default GGUF.

One sidecar serves the module (temperature 0, fixed seed); assertions are on structure, never on
exact prose. Skipped when the binary or model is missing, unless AGENTD_REQUIRE_LOCAL_MODEL=1
(`make test` sets it, after fetching both).
"""

from __future__ import annotations

import json
import math
import os
import signal
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import httpx
import pytest
from anyio.from_thread import start_blocking_portal
from structlog.testing import capture_logs

from agentd.config import LLMSettings, Settings, SidecarSettings, load_settings
from agentd.daemon.prompt import FALLBACK_INSTRUCTIONS
from agentd.engine.loop import AgentLoop
from agentd.errors import AgentdError
from agentd.messages import Conversation, system, user
from agentd.model.choice import CallRule
from agentd.model.client import Completed, LLMClient, TextDelta, api_root, server_root
from agentd.model.packages import DEFAULT_MODEL, resolve_model_file
from agentd.model.sidecar import Sidecar, find_binary, open_sidecar
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.registry import ToolRegistry
from tests.support.sidecar_helper import (
    assert_dies_with_owner,
    process_gone,
)

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]

SEED = 42
ANSWER_CAP = 256  # small models may repeat themselves after a tool result: keep turns short
REQUIRED = os.environ.get("AGENTD_REQUIRE_LOCAL_MODEL") == "1"


def _find_local() -> tuple[Path, Path] | str:
    # Read before the tests isolate HOME: the model lives where `agentd model fetch` put it.
    try:
        state_dir = load_settings().settings.state_dir
        return find_binary(None), resolve_model_file(state_dir, DEFAULT_MODEL, None)
    except AgentdError as exc:
        return str(exc)


LOCAL = _find_local()


def _local() -> tuple[Path, Path]:
    if isinstance(LOCAL, str):
        if REQUIRED:
            pytest.fail(f"the local model is required: {LOCAL}")
        pytest.skip(f"no local model: {LOCAL}")
    return LOCAL


def _settings(state_dir: Path) -> Settings:
    binary, gguf = _local()
    sidecar = SidecarSettings(
        enabled=True, binary=binary, model_path=gguf, max_answer_tokens=ANSWER_CAP
    )
    return Settings(
        state_dir=state_dir,
        workdir=state_dir / "workdir",
        llm=LLMSettings(temperature=0.0, seed=SEED, sidecar=sidecar),
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sidecar]:
    """One supervised llama-server for the module, run by an event loop in its own thread."""
    settings = _settings(tmp_path_factory.mktemp("local-state"))
    with start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(open_sidecar(settings, backoff=(0.5, 2))) as sc:
            yield sc


@asynccontextmanager
async def _client(sidecar: Sidecar, tool_grammar: str = "off") -> AsyncIterator[LLMClient]:
    async with httpx.AsyncClient(timeout=300) as http:
        yield LLMClient(
            http,
            base_url=sidecar.base_url,
            api_key=sidecar.api_key,
            model="local",
            temperature=0.0,
            seed=SEED,
            tool_grammar=tool_grammar,
        )


@pytest.mark.anyio
async def test_chat_answers(server: Sidecar) -> None:
    """A plain chat completion returns text and token usage."""
    async with _client(server) as llm:
        result = await llm.chat([user("Say hello in one short sentence.")])
    assert result.message.role == "assistant"
    assert result.message.content.strip()
    assert not result.message.tool_calls
    assert result.usage.prompt_tokens > 0 and result.usage.completion_tokens > 0


@pytest.mark.anyio
async def test_without_its_key_the_server_answers_nothing_but_health(server: Sidecar) -> None:
    """A web page or another local user that finds the port gets no completion, embedding,
    property or slot from it (llama-server answers CORS preflights for any origin)."""
    body = {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 1}
    async with httpx.AsyncClient(base_url=server.base_url, timeout=60) as http:
        assert (await http.get("/health")).status_code == 200
        origin = {"Origin": "http://elsewhere.example"}
        chat = await http.post("/v1/chat/completions", json=body, headers=origin)
        assert chat.status_code == 401
        assert (await http.post("/v1/embeddings", json={"input": "hi"})).status_code == 401
        assert (await http.get("/props")).status_code == 401
        save = await http.post("/slots/0", params={"action": "save"}, json={"filename": "x"})
        assert save.status_code == 401
        keyed = await http.post("/v1/chat/completions", json=body, headers=server.headers)
        assert keyed.status_code == 200


@pytest.mark.anyio
async def test_streaming_matches_the_final_message(server: Sidecar) -> None:
    """Streaming yields several deltas whose concatenation is the final message."""
    async with _client(server) as llm:
        deltas: list[str] = []
        final = None
        async for event in llm.stream([user("Count from one to five in words.")]):
            if isinstance(event, TextDelta):
                deltas.append(event.text)
            elif isinstance(event, Completed):
                final = event.result
    assert final is not None
    assert len(deltas) > 1
    assert "".join(deltas) == final.message.content
    assert final.usage.completion_tokens > 0


@pytest.mark.anyio
@pytest.mark.parametrize("stream", [False, True])
async def test_a_held_call_is_started_and_continued(
    server: Sidecar, tmp_path: Path, stream: bool
) -> None:
    """A step held to write notes.txt is sent the call's start; llama-server continues it
    (sends it back first) and the call parsed is the tool's, on the held file, with content,
    and starts stay on."""
    registry = ToolRegistry()
    register_builtin_tools(registry, tmp_path)
    rule = CallRule(name="write_file", values=(("path", ("notes.txt",)),))
    messages = [
        system(FALLBACK_INSTRUCTIONS),
        user("Write a note to notes.txt that says: buy oat milk and lemons."),
    ]
    tools, names = registry.schemas(), registry.names
    with capture_logs() as logs:
        async with _client(server, tool_grammar="on") as llm:
            if stream:
                events = [e async for e in llm.stream(messages, tools, names, rule=rule)]
                assert not any(isinstance(e, TextDelta) for e in events)
                result = events[-1].result  # type: ignore[union-attr]
            else:
                result = await llm.chat(messages, tools, names, rule=rule)
    assert not [e for e in logs if e["event"] == "llm.start_not_continued"]
    [call] = result.message.tool_calls
    args = json.loads(call.arguments)
    assert call.name == "write_file" and args["path"] == "notes.txt"
    assert "milk" in args["content"]
    assert result.usage.completion_tokens < 30  # the start was read, not written


@pytest.mark.anyio
async def test_embeddings_from_the_same_server(server: Sidecar) -> None:
    """/v1/embeddings answers from the chat server: one finite vector per text, stable."""
    async with _client(server) as llm:
        vectors = await llm.embed(["a cat", "a dog", "a cat"])
    assert len(vectors) == 3 and len({len(v) for v in vectors}) == 1
    assert len(vectors[0]) >= 512  # the model's hidden size: 896 (0.5B), 1536 (1.5B)
    assert all(math.isfinite(x) for v in vectors for x in v)
    same, other = _cosine(vectors[0], vectors[2]), _cosine(vectors[0], vectors[1])
    assert same > 0.99 and same > other


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


@pytest.mark.anyio
async def test_current_time_round_trip_through_the_supervisor(
    server: Sidecar, tmp_path: Path
) -> None:
    """The model asks for current_time, the tool runs, and the model answers in words."""
    tools = ToolRegistry()
    register_builtin_tools(tools, tmp_path)
    conversation = Conversation(
        [system(FALLBACK_INSTRUCTIONS), user("What time is it in Tokyo right now?")]
    )
    async with _client(server) as llm:
        result = await AgentLoop(llm, tools, max_steps=4).run(conversation, stream=True)
    first = result.added[0]
    assert [call.name for call in first.tool_calls] == ["current_time"]
    tool_results = [m for m in result.added if m.role == "tool"]
    assert tool_results and not tool_results[0].metadata.get("error")
    assert "JST" in tool_results[0].content
    assert result.message is result.added[-1]
    assert not result.message.tool_calls and result.message.content.strip()
    assert result.steps >= 2


@pytest.mark.anyio
async def test_a_killed_server_is_restarted(server: Sidecar) -> None:
    """SIGKILL of llama-server: the sidecar restarts it, counts it, and chat works again."""
    before, pid = server.restarts, server.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    with anyio.fail_after(300):
        while True:
            if server.restarts > before and server.pid != pid:
                break
            await anyio.sleep(0.1)
    # The new process answers 503 "Loading model" until its model is in memory (seconds on a
    # busy machine, more than the client's three retries): wait for /health as a user would.
    async with httpx.AsyncClient(timeout=5) as http:
        with anyio.fail_after(120):
            while True:
                try:
                    health = await http.get(f"{server_root(api_root(server.base_url))}/health")
                    if health.status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                await anyio.sleep(0.2)
    async with _client(server) as llm:
        result = await llm.chat([user("Reply with the word ok.")])
    assert result.message.content.strip()
    assert server.restarts == before + 1
    assert process_gone(pid)


def test_no_orphan_when_the_owner_is_killed(tmp_path: Path) -> None:
    """SIGKILL of the owning process takes the real llama-server down too."""
    assert_dies_with_owner(_settings(tmp_path), within=30)


@pytest.mark.anyio
async def test_a_slot_s_prompt_cache_is_copied_into_another_slot(server: Sidecar) -> None:
    """What the warm-up relies on to fill every session slot: one slot's cache, saved and
    restored into another, serves that slot's next request (llama-server's ``cache_n``)."""
    from agentd.model.slots import SlotFiles

    assert server.slot_dir is not None
    opening = [
        {"role": "system", "content": FALLBACK_INSTRUCTIONS},
        {"role": "user", "content": "Hello."},
    ]
    body = {"messages": opening, "max_tokens": 1, "temperature": 0.0}
    async with httpx.AsyncClient(timeout=300, headers=server.headers) as http:
        chat = f"{api_root(server.base_url)}/chat/completions"
        first = (await http.post(chat, json={**body, "id_slot": 0})).json()["timings"]
        prompt = first["prompt_n"] + first.get("cache_n", 0)
        files = SlotFiles(http, server_root(server.base_url), server.slot_dir)
        assert await files.copy(0, [1]) >= prompt
        again = (await http.post(chat, json={**body, "id_slot": 1})).json()["timings"]
    # The same prompt on slot 1: all of it from the copy but the last token, which the
    # server always evaluates again for its logits.
    assert again["cache_n"] >= prompt - 1 and again["prompt_n"] <= 1
    assert not list(server.slot_dir.glob("copy*"))
