"""Milvus Lite's vectors searched in this process: the same answers, kept by every write."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agentd import scope as scopes
from agentd.memory.local_index import LocalIndex
from agentd.memory.longterm import Memory
from agentd.memory.milvus import MilvusStore
from tests.memory.conftest import word_embed

pytestmark = pytest.mark.anyio


def test_nearest_is_exact_and_survives_replacing_and_removing() -> None:
    """Cosine order, a key put again replaced, a removed row gone and the moved row intact."""
    index = LocalIndex("c", 2)
    index.put([("a", "s", "|", [1.0, 0.0]), ("b", "s", "|", [0.0, 2.0]), ("c", "s", "|", [1, 1])])
    assert [k for k, _, _ in index.nearest("s", [1.0, 0.1], 3)] == ["a", "c", "b"]
    index.put([("a", "s", "|", [0.0, 1.0])])
    assert len(index) == 3
    assert [k for k, _, _ in index.nearest("s", [1.0, 0.1], 1)] == ["c"]
    index.remove("s", "a")
    index.remove("s", "missing")
    found = index.nearest("s", [0.0, 1.0], 5)
    assert [k for k, _, _ in found] == ["b", "c"]
    assert found[0][1] == pytest.approx(1.0)
    assert index.nearest("other", [0.0, 1.0], 5) == []


def test_tag_marks_and_scopes_filter() -> None:
    """Only rows whose tag index holds a wanted mark, of the asked scope, are found."""
    index = LocalIndex("c", 2)
    index.put([("a", "s", "|t1|", [1.0, 0.0]), ("b", "s", "|t2|", [1.0, 0.1])])
    index.put([("c", "z", "|t1|", [1.0, 0.0])])
    assert [k for k, _, _ in index.nearest("s", [1.0, 0.0], 5, ["|t2|"])] == ["b"]
    assert index.nearest("s", [1.0, 0.0], 5, ["|t9|"]) == []
    with pytest.raises(ValueError, match="dimensions"):
        index.put([("d", "s", "|", [1.0, 0.0, 0.0])])


async def test_lite_searches_here_and_sees_every_write(tmp_path: Path) -> None:
    """After the first search Milvus' own search is never asked; saves, deletes and tags show."""
    uri = str(tmp_path / "milvus.db")
    async with MilvusStore.open(uri, word_embed) as store:
        with scopes.use(scopes.Scope(tenant="t")):
            await store.save(Memory("apple pie recipe", key="pie"))
    # Reopened: the index is read from what the file holds.
    async with MilvusStore.open(uri, word_embed) as store:
        with scopes.use(scopes.Scope(tenant="t")):
            assert [m.key for m in await store.search("apple pie recipe", 1)] == ["pie"]

            def refuse(*_args: Any, **_kwargs: Any) -> Any:
                raise AssertionError("Milvus Lite's own search was asked")

            store._client.search = refuse
            await store.save(Memory("banana bread", key="bread", tags=("baking",)))
            found = await store.search("banana bread", 1)
            assert [m.key for m in found] == ["bread"]
            assert found[0].score == pytest.approx(1.0, abs=1e-5)
            assert found[0].tags == ("baking",)
            assert [m.key for m in await store.search("apple", 5, ["baking"])] == ["bread"]
            assert await store.delete("bread")
            assert "bread" not in [m.key for m in await store.search("banana bread", 5)]
        with scopes.use(scopes.Scope(tenant="other")):
            assert await store.search("apple pie recipe", 5) == []


async def test_warm_reads_the_index_ahead_of_the_first_search(tmp_path: Path) -> None:
    """After warm() the first search reads nothing more from the collection."""
    uri = str(tmp_path / "milvus.db")
    async with MilvusStore.open(uri, word_embed) as store:
        with scopes.use(scopes.Scope(tenant="t")):
            await store.save(Memory("apple pie recipe", key="pie"))
    async with MilvusStore.open(uri, word_embed) as store:
        await store.warm()

        def refuse(*_args: Any, **_kwargs: Any) -> Any:
            raise AssertionError("the collection was read again")

        store._client.query_iterator = refuse
        with scopes.use(scopes.Scope(tenant="t")):
            assert [m.key for m in await store.search("apple pie recipe", 1)] == ["pie"]


def axis(i: int) -> list[float]:
    return [1.0 if j == i else 0.0 for j in range(8)]


async def axis_embed(text: str) -> list[float]:
    """``"q3"`` is the third axis (any other text the first)."""
    return axis(int(text[1:]) if text[:1] == "q" and text[1:].isdigit() else 0)


@pytest.mark.parametrize("when", ["at load", "by saves"])
async def test_a_collection_too_large_is_searched_by_lite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """Past LOCAL_LIMIT memories the index is dropped and Lite's own search answers."""
    monkeypatch.setattr("agentd.memory.milvus.LOCAL_LIMIT", 3)
    uri = str(tmp_path / "milvus.db")

    def notes(start: int, end: int) -> list[Memory]:
        return [
            Memory(f"note {i}", key=f"n{i}", embedding=tuple(axis(i))) for i in range(start, end)
        ]

    with scopes.use(scopes.Scope(tenant="t")):
        async with MilvusStore.open(uri, axis_embed) as store:
            first = 4 if when == "at load" else 2
            await store.save_many(notes(0, first))
            assert [m.key for m in await store.search("q1", 1)] == ["n1"]
            await store.save_many(notes(first, 6))
            asked: list[object] = []
            real = store._client.search

            def counted(*args: Any, **kwargs: Any) -> Any:
                asked.append(args)
                return real(*args, **kwargs)

            store._client.search = counted
            assert [m.key for m in await store.search("q5", 1)] == ["n5"]
    assert len(asked) == 1
