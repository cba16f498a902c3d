"""MilvusStore against Milvus Lite and a real Milvus server (the same tests on both)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agentd import scope as scopes
from agentd.errors import InvalidMemory, MemoryUnavailable, ScopeMissing
from agentd.memory.collection import literal
from agentd.memory.longterm import MAX_CONTENT_BYTES, Memory
from agentd.memory.milvus import MilvusStore
from tests.memory.conftest import word_embed, word_vector

pytestmark = pytest.mark.anyio


async def test_save_then_get_returns_the_seed_fields(
    store: MilvusStore, alice: scopes.Scope
) -> None:
    """A saved memory comes back with key, content, tags, ts and the scope's agent id."""
    with scopes.use(scopes.Scope(tenant=alice.tenant, app="helper")):
        key = await store.save(Memory("likes green tea", tags=("pref", "drink"), ts=1234))
        got = await store.get(key)
    assert got is not None
    assert (got.key, got.content, got.tags, got.ts, got.agent_id) == (
        key,
        "likes green tea",
        ("pref", "drink"),
        1234,
        "helper",
    )


async def test_search_ranks_by_meaning(store: MilvusStore, alice: scopes.Scope) -> None:
    """The nearest memory comes first, scores fall, and top_k bounds the answer."""
    with scopes.use(alice):
        await store.save_many(
            [Memory("green tea in the morning"), Memory("the car is blue"), Memory("tax forms")]
        )
        found = await store.search("green tea morning", top_k=2)
    assert [m.content for m in found][:1] == ["green tea in the morning"]
    assert len(found) == 2
    assert found[0].score is not None and found[1].score is not None
    assert found[0].score >= found[1].score


async def test_a_given_embedding_is_stored_as_is(store: MilvusStore, alice: scopes.Scope) -> None:
    """save embeds only when the memory has no embedding of its own."""
    with scopes.use(alice):
        await store.save(Memory("the car is blue"))
        key = await store.save(
            Memory("unrelated words", embedding=tuple(word_vector("zebra stripes")))
        )
        found = await store.search("zebra stripes", top_k=1)
    assert [m.key for m in found] == [key]


async def test_tag_filter_keeps_intersecting_memories(
    store: MilvusStore, alice: scopes.Scope
) -> None:
    """Only memories sharing a tag (ignoring case) are returned."""
    with scopes.use(alice):
        await store.save(Memory("green tea", tags=("Drink",)))
        await store.save(Memory("green car", tags=("car",)))
        await store.save(Memory("green light"))
        found = await store.search("green", top_k=10, tags_include=["drink", "nothing"])
    assert [m.content for m in found] == ["green tea"]


async def test_delete_removes_once(store: MilvusStore, alice: scopes.Scope) -> None:
    """delete says whether the memory existed, and it is gone from get and search."""
    with scopes.use(alice):
        key = await store.save(Memory("temporary note"))
        assert await store.delete(key) is True
        assert await store.delete(key) is False
        assert await store.get(key) is None
        assert await store.search("temporary note", top_k=5) == []


async def test_stats_count_the_scope_only(
    store: MilvusStore, alice: scopes.Scope, bob: scopes.Scope
) -> None:
    """stats reports the memories of the current scope and the probed dimension."""
    with scopes.use(alice):
        await store.save_many([Memory("one"), Memory("two")])
    with scopes.use(bob):
        await store.save(Memory("three"))
        stats = await store.stats()
    assert stats.memories_in_scope == 1
    assert stats.dimension == 16
    assert stats.backend == ("milvus-lite" if store.lite else "milvus")
    assert stats.degraded is None


async def test_other_scopes_are_invisible(
    store: MilvusStore, alice: scopes.Scope, bob: scopes.Scope
) -> None:
    """Another tenant can neither find, get nor delete a memory."""
    with scopes.use(alice):
        key = await store.save(Memory("alice's secret"))
    with scopes.use(bob):
        assert await store.search("alice's secret", top_k=10) == []
        assert await store.get(key) is None
        assert await store.delete(key) is False
    with scopes.use(alice):
        assert await store.get(key) is not None


async def test_the_same_key_in_two_scopes_is_two_memories(
    store: MilvusStore, alice: scopes.Scope, bob: scopes.Scope
) -> None:
    """A key chosen by two tenants never overwrites across them; within one it replaces."""
    with scopes.use(alice):
        await store.save(Memory("alice v1", key="note"))
    with scopes.use(bob):
        await store.save(Memory("bob's", key="note"))
    with scopes.use(alice):
        await store.save(Memory("alice v2", key="note"))
        got = await store.get("note")
        assert got is not None and got.content == "alice v2"
        assert (await store.stats()).memories_in_scope == 1
    with scopes.use(bob):
        got = await store.get("note")
        assert got is not None and got.content == "bob's"


async def test_no_scope_fails_closed(store: MilvusStore) -> None:
    """Every call outside a tenant scope raises ScopeMissing."""
    with pytest.raises(ScopeMissing):
        await store.save(Memory("x"))
    with pytest.raises(ScopeMissing):
        await store.search("x")
    with pytest.raises(ScopeMissing):
        await store.get("x")
    with pytest.raises(ScopeMissing):
        await store.delete("x")


async def test_filter_syntax_in_keys_and_tags_stays_data(
    store: MilvusStore, alice: scopes.Scope
) -> None:
    """A quote-laden tag matches only itself; a key with filter syntax is refused."""
    evil = 'a"] or true or ["'
    with scopes.use(alice):
        await store.save(Memory("plain"))
        tagged = await store.save(Memory("tagged", tags=(evil,)))
        found = await store.search("plain", top_k=10, tags_include=[evil])
        assert [m.key for m in found] == [tagged]
        with pytest.raises(InvalidMemory):
            await store.get('x" or key != "')


@pytest.mark.parametrize(
    "memory",
    [
        pytest.param(Memory("é" * (MAX_CONTENT_BYTES // 2 + 1)), id="content-over-bytes"),
        pytest.param(Memory("   "), id="empty-content"),
        pytest.param(Memory("x", tags=tuple(f"t{i}" for i in range(40))), id="too-many-tags"),
        pytest.param(Memory("x", tags=("t" * 65,)), id="tag-too-long"),
        pytest.param(Memory("x", key="has space"), id="bad-key"),
    ],
)
async def test_refused_memories_say_why(
    store: MilvusStore, memory: Memory, alice: scopes.Scope
) -> None:
    """Inputs beyond the schema's limits raise InvalidMemory before Milvus is asked."""
    with scopes.use(alice), pytest.raises(InvalidMemory):
        await store.save(memory)


async def test_content_at_the_byte_limit_fits(store: MilvusStore, alice: scopes.Scope) -> None:
    """Multi-byte content up to the limit is accepted by both Lite and the server."""
    with scopes.use(alice):
        key = await store.save(Memory("é" * (MAX_CONTENT_BYTES // 2)))
        got = await store.get(key)
    assert got is not None and len(got.content) == MAX_CONTENT_BYTES // 2


async def test_top_k_out_of_range_is_refused(store: MilvusStore, alice: scopes.Scope) -> None:
    """top_k must be between 1 and 100."""
    with scopes.use(alice), pytest.raises(InvalidMemory):
        await store.search("x", top_k=0)


async def test_search_before_any_save_is_empty(
    milvus_uri: str, fresh_collection: str, alice: scopes.Scope
) -> None:
    """A store whose collection does not exist yet answers searches with nothing."""
    async with MilvusStore.open(milvus_uri, word_embed, collection=fresh_collection) as store:
        with scopes.use(alice):
            assert await store.search("anything") == []
            assert await store.get("nothing") is None
            assert (await store.stats()).memories_in_scope == 0
        assert store.dimension is None


async def test_a_missing_collection_is_asked_about_once_on_lite(
    tmp_path: Path, alice: scopes.Scope
) -> None:
    """Recall searches every turn: on Lite, "no collection" is asked once, and a save creates it."""
    uri = str(tmp_path / "milvus" / "memory.db")
    async with MilvusStore.open(uri, word_embed, collection="memories") as store:
        asked = []
        has_collection = store._client.has_collection

        def counting(*args: Any, **kwargs: Any) -> Any:
            asked.append(args)
            return has_collection(*args, **kwargs)

        store._client.has_collection = counting
        with scopes.use(alice):
            for _ in range(3):
                assert await store.search("anything") == []
            assert len(asked) == 1
            await store.save(Memory("the door code is 2020"))
            found = await store.search("door code")
        assert [m.content for m in found] == ["the door code is 2020"]
        assert len(asked) == 1


async def test_reopening_learns_the_dimension(
    milvus_uri: str, collection: str, alice: scopes.Scope
) -> None:
    """A second open finds the collection and its dimension without probing."""
    async with MilvusStore.open(milvus_uri, word_embed, collection=collection) as first:
        with scopes.use(alice):
            key = await first.save(Memory("kept across restarts"))
    async with MilvusStore.open(milvus_uri, word_embed, collection=collection) as second:
        assert second.dimension == 16
        with scopes.use(alice):
            assert (await second.get(key)) is not None


async def test_another_embedding_size_is_refused(
    milvus_uri: str, collection: str, alice: scopes.Scope
) -> None:
    """A model with another dimension gets a clear error and the store reports degraded."""
    async with MilvusStore.open(milvus_uri, word_embed, collection=collection) as first:
        with scopes.use(alice):
            await first.save(Memory("sixteen dimensions"))

    async def wide(text: str) -> list[float]:
        return [1.0] * 32

    async with MilvusStore.open(milvus_uri, wide, collection=collection) as second:
        with scopes.use(alice), pytest.raises(MemoryUnavailable, match="32 dimensions"):
            await second.search("x")
        assert second.degraded is not None


def test_literal_escapes_what_the_parsers_read() -> None:
    """Backslashes, quotes and line breaks are escaped; other text is kept."""
    assert literal('a"b\\c\nd\re\tü') == '"a\\"b\\\\c\\nd\\re\tü"'
