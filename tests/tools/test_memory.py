"""memory_save and memory_search as the model sees them, on a scripted store."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from agentd import said
from agentd.errors import InvalidMemory, MemoryUnavailable
from agentd.memory.longterm import Memory, MemoryStats
from agentd.messages import ToolCall
from agentd.tools.memory import register_memory_tools
from agentd.tools.registry import ToolRegistry

pytestmark = pytest.mark.anyio

ARGS: dict[str, dict[str, object]] = {
    "memory_save": {"content": "x"},
    "memory_search": {"query": "x"},
}


class ScriptedStore:
    """A MemoryStore whose calls record their arguments and raise ``fail`` when set."""

    def __init__(self, found: Sequence[Memory] = (), fail: Exception | None = None) -> None:
        self.degraded: str | None = None
        self.found = list(found)
        self.fail = fail
        self.calls: list[tuple[str, object]] = []

    async def save(self, memory: Memory) -> str:
        self.calls.append(("save", memory))
        if self.fail:
            raise self.fail
        return "k1"

    async def save_many(self, memories: Sequence[Memory]) -> list[str]:
        return [await self.save(m) for m in memories]

    async def search(
        self, query: str, top_k: int = 5, tags_include: Sequence[str] = ()
    ) -> list[Memory]:
        self.calls.append(("search", (query, top_k, tuple(tags_include))))
        if self.fail:
            raise self.fail
        return self.found

    async def get(self, key: str) -> Memory | None:
        return None

    async def delete(self, key: str) -> bool:
        return False

    async def stats(self) -> MemoryStats:
        return MemoryStats("fake", "", "", None, 0, None)

    async def aclose(self) -> None:
        pass


async def _call(store: ScriptedStore, name: str, **args: object) -> tuple[str, bool]:
    tools = ToolRegistry()
    register_memory_tools(tools, store)
    outcome = await tools.call(ToolCall(id="c1", name=name, arguments=json.dumps(args)))
    return outcome.content, outcome.error


def test_schemas_name_the_optional_arguments() -> None:
    """The model sees content/query required and tags/top_k optional."""
    tools = ToolRegistry()
    register_memory_tools(tools, ScriptedStore())
    schemas = {s["function"]["name"]: s["function"]["parameters"] for s in tools.schemas()}
    assert schemas["memory_save"]["required"] == ["content"]
    assert schemas["memory_search"]["required"] == ["query"]
    assert set(schemas["memory_search"]["properties"]) == {"query", "top_k", "tags"}


async def test_save_passes_content_and_tags() -> None:
    """memory_save stores the content with its tags and answers with the key."""
    store = ScriptedStore()
    assert await _call(store, "memory_save", content="tea", tags=["pref"]) == (
        "saved memory k1",
        False,
    )
    assert store.calls == [("save", Memory("tea", tags=("pref",)))]


async def test_a_save_in_a_turn_keeps_the_users_words() -> None:
    """The turn's request goes with the model's content (it may have translated the fact)."""
    store = ScriptedStore()
    with said.use("Recuerda: mi gato se llama Pelusa"):
        await _call(store, "memory_save", content="The user's cat is Pelusa")
    assert store.calls == [
        ("save", Memory("The user's cat is Pelusa", words="Recuerda: mi gato se llama Pelusa"))
    ]


async def test_search_lists_what_it_found() -> None:
    """memory_search shows one line per memory, content first and no key (the model read a
    key before the content back as the answer), or says it found none."""
    found = [Memory("green tea", tags=("pref",), key="k9f3", score=0.9, ts=1_764_000_000_000)]
    text, error = await _call(ScriptedStore(found), "memory_search", query="tea", tags=["pref"])
    assert not error and text == "- green tea (tags: pref) [2025-11-24]"
    assert await _call(ScriptedStore(), "memory_search", query="tea") == (
        "no memories found",
        False,
    )


@pytest.mark.parametrize("name", ["memory_save", "memory_search"])
async def test_unavailable_store_is_one_plain_line(name: str) -> None:
    """A failing store gives a normal result saying memory is unavailable and why."""
    store = ScriptedStore(fail=MemoryUnavailable("Milvus search failed: refused"))
    text, error = await _call(store, name, **ARGS[name])
    assert (text, error) == ("memory unavailable: Milvus search failed: refused", False)


@pytest.mark.parametrize("name", ["memory_save", "memory_search"])
async def test_refused_input_is_an_error_result(name: str) -> None:
    """An input beyond the limits comes back as an error the model can correct."""
    store = ScriptedStore(fail=InvalidMemory("at most 32 tags"))
    text, error = await _call(store, name, **ARGS[name])
    assert error and "at most 32 tags" in text
