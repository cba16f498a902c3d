"""Hybrid search: vectors and words fused by reciprocal rank, in any script."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentd import scope as scopes
from agentd.errors import MemoryUnavailable
from agentd.memory.collection import scope_hash
from agentd.memory.fulltext import TextHit, TextIndex, match_expression, trigrams
from agentd.memory.hybrid import HybridStore, fuse
from agentd.memory.longterm import Memory
from agentd.memory.milvus import MilvusStore

pytestmark = pytest.mark.anyio

#: Words of one meaning share a dimension: the stand-in model "knows" these synonyms.
CONCEPTS = {"car": 0, "automobile": 0, "vehicle": 0, "tea": 1, "sencha": 1, "dog": 2, "puppy": 2}
DIM = 8


def concept_vector(text: str) -> list[float]:
    vec = [0.0] * DIM
    for word in text.lower().replace("?", " ").replace(".", " ").split():
        vec[CONCEPTS.get(word, 7)] += 1.0 if word in CONCEPTS else 0.05
    norm = sum(v * v for v in vec) ** 0.5 or 1.0
    return [v / norm for v in vec]


async def concept_embed(text: str) -> list[float]:
    return concept_vector(text)


@pytest.fixture
async def hybrid(tmp_path: Path) -> AsyncIterator[HybridStore]:
    """A HybridStore on Milvus Lite and an FTS5 file, with the synonym-aware stand-in model."""
    uri = str(tmp_path / "milvus.db")
    async with MilvusStore.open(uri, concept_embed) as dense:
        text = await TextIndex.open(tmp_path / "text.db")
        store = HybridStore(dense, text)
        try:
            yield store
        finally:
            await store.aclose()


def test_fusion_adds_reciprocal_ranks() -> None:
    """A key both lists rank well beats one only a single list ranks first."""
    assert fuse(["a", "b", "c"], ["b", "d"]) == ["b", "a", "d", "c"]
    assert fuse(["x"], []) == ["x"]
    assert fuse([], ["y", "z"]) == ["y", "z"]


def test_trigrams_need_no_spaces() -> None:
    """Japanese text is cut into trigrams like any other; short words are kept whole."""
    assert trigrams("好きな色") == ["好きな", "きな色"]
    assert trigrams("Tür ab") == ["tür", "ab"]
    assert match_expression('a"b') is None
    assert match_expression('say "hi"') == '"say"'


async def test_words_find_what_vectors_miss(hybrid: HybridStore) -> None:
    """The vectors rank the code among unrelated car notes; its words put it at the top."""
    code = "The Krakow door code is 7491."
    with scopes.use(scopes.Scope(tenant="t")):
        await hybrid.save_many([Memory(f"automobile note {i}") for i in range(40)] + [Memory(code)])
        found = await hybrid.search("Krakow door code for the car", top_k=2)
        dense = await hybrid.dense.search("Krakow door code for the car", top_k=30)
    assert code in [m.content for m in found]
    assert code not in [m.content for m in dense]


async def test_vectors_find_what_words_miss(hybrid: HybridStore) -> None:
    """A synonym shares no trigram with the query, but its meaning: found by the vectors."""
    with scopes.use(scopes.Scope(tenant="t")):
        await hybrid.save_many([Memory("I drive an automobile."), Memory("I like sencha.")])
        found = await hybrid.search("which car?", top_k=1)
        words = await hybrid.text.search(hybrid_scope(), "which car?", 5)
    assert [m.content for m in found] == ["I drive an automobile."]
    assert words == []
    assert found[0].score is not None and found[0].score > 0.9


def hybrid_scope() -> str:
    return scope_hash(scopes.current())


@pytest.mark.parametrize(
    ("memory", "query"),
    [
        pytest.param("私の好きな色は緑です。", "好きな色は何", id="ja"),
        pytest.param("我最喜欢的颜色是绿色。", "最喜欢的颜色", id="zh"),
        pytest.param("Meine Lieblingsfarbe ist Grün.", "Lieblingsfarbe", id="de-compound"),
    ],
)
async def test_text_without_spaces_is_found(hybrid: HybridStore, memory: str, query: str) -> None:
    """Scripts without spaces and long compounds are matched by their trigrams."""
    with scopes.use(scopes.Scope(tenant="t")):
        await hybrid.save_many([Memory(memory)] + [Memory(f"dog {i}") for i in range(30)])
        found = await hybrid.search(query, top_k=1)
    assert [m.content for m in found] == [memory]


async def test_delete_and_tags_reach_the_text_index(hybrid: HybridStore) -> None:
    """A deleted memory is not found by its words; a tag filter holds for word hits too."""
    with scopes.use(scopes.Scope(tenant="t")):
        gone = await hybrid.save(Memory("Zanzibar trip in May"))
        await hybrid.save(Memory("Zanzibar spice list", tags=("shopping",)))
        assert await hybrid.delete(gone)
        found = await hybrid.search("Zanzibar", top_k=5)
        tagged = await hybrid.search("Zanzibar", top_k=5, tags_include=["other"])
    assert [m.content for m in found] == ["Zanzibar spice list"]
    assert tagged == []


async def test_scopes_do_not_see_each_others_words(hybrid: HybridStore) -> None:
    """The text index filters on the scope like the vectors do."""
    with scopes.use(scopes.Scope(tenant="a")):
        await hybrid.save(Memory("Quetzalcoatl statue"))
    with scopes.use(scopes.Scope(tenant="b")):
        found = await hybrid.search("Quetzalcoatl", top_k=5)
    assert found == []


async def test_backfill_indexes_what_milvus_already_holds(tmp_path: Path) -> None:
    """Memories saved before the index existed are indexed once, in every scope."""
    uri = str(tmp_path / "milvus.db")
    async with MilvusStore.open(uri, concept_embed) as dense:
        with scopes.use(scopes.Scope(tenant="old")):
            await dense.save_many([Memory("Xylophone lessons on Friday")])
        store = HybridStore(dense, await TextIndex.open(tmp_path / "text.db"))
        try:
            assert await store.backfill() == 1
            assert await store.backfill() == 0
            with scopes.use(scopes.Scope(tenant="old")):
                hits = await store.text.search(hybrid_scope(), "Xylophone", 5)
        finally:
            await store.aclose()
    assert len(hits) == 1


async def test_a_query_asked_again_is_not_embedded_again(tmp_path: Path) -> None:
    """Recall and memory_search ask about the same text: its vector is embedded once."""
    asked: list[str] = []

    async def counting_embed(text: str) -> list[float]:
        asked.append(text)
        return concept_vector(text)

    async with MilvusStore.open(str(tmp_path / "milvus.db"), counting_embed) as dense:
        with scopes.use(scopes.Scope(tenant="t")):
            await dense.save(Memory("I like sencha.", embedding=tuple(concept_vector("tea"))))
            first = await dense.search("which tea?", top_k=1)
            second = await dense.search("which tea?", top_k=1)
            await dense.search("which car?", top_k=1)
    assert asked.count("which tea?") == 1
    assert asked.count("which car?") == 1
    assert [m.content for m in first] == [m.content for m in second] == ["I like sencha."]


async def test_words_are_searched_while_the_vectors_wait(tmp_path: Path) -> None:
    """The text index answers during the query's embedding, not after it."""
    order: list[str] = []

    async def slow_embed(text: str) -> list[float]:
        order.append("embed")
        await anyio.sleep(0.2)
        order.append("embedded")
        return concept_vector(text)

    async with MilvusStore.open(str(tmp_path / "milvus.db"), slow_embed) as dense:
        text = await TextIndex.open(tmp_path / "text.db")
        store = HybridStore(dense, text)
        real_search = text.search

        async def noted_search(*args: Any, **kwargs: Any) -> list[TextHit]:
            hits = await real_search(*args, **kwargs)
            order.append("words")
            return hits

        text.search = noted_search  # type: ignore[method-assign]
        try:
            with scopes.use(scopes.Scope(tenant="t")):
                await store.save(Memory("Zanzibar trip", embedding=tuple(concept_vector("x"))))
                order.clear()
                found = await store.search("Zanzibar trip", top_k=1)
        finally:
            await store.aclose()
    assert order.index("words") < order.index("embedded")
    assert [m.content for m in found] == ["Zanzibar trip"]


async def test_a_failing_vector_search_fails_the_search_plainly(hybrid: HybridStore) -> None:
    """Milvus' failure reaches the caller as MemoryUnavailable, not wrapped in a group."""

    async def broken(*_args: Any, **_kwargs: Any) -> list[Memory]:
        raise MemoryUnavailable("Milvus search failed: gone")

    hybrid.dense.search = broken  # type: ignore[method-assign]
    with scopes.use(scopes.Scope(tenant="t")), pytest.raises(MemoryUnavailable, match="gone"):
        await hybrid.search("anything", top_k=1)
