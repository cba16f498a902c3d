"""Ranking around the store's mean vector: what memories share stops deciding their order."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from agentd import scope as scopes
from agentd.memory.centre import CENTRE_AFTER, MeanVector, centred_cosines, centred_order
from agentd.memory.longterm import Memory
from agentd.memory.milvus import MilvusStore

pytestmark = pytest.mark.anyio

#: Dimension 0 is what every text shares (a model's narrow cone); 1, 2 and 3 are topics.
HAYSTACK = [(3.0, *(1.0 if t == i % 3 else 0.0 for t in range(3))) for i in range(40)]
QUERY = (3.0, 1.0, 0.0, 0.0)
#: Another topic, mostly what every text shares: plain cosine ranks it first.
WRONG = (5.0, 0.0, 1.0, 0.0)
#: The query's topic, little of the shared part.
RIGHT = (1.0, 1.0, 0.0, 0.0)


def unit(values: tuple[float, ...]) -> list[float]:
    norm = sum(v * v for v in values) ** 0.5
    return [v / norm for v in values]


def cosine(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return float(np.dot(unit(a), unit(b)))


def test_the_mean_waits_for_enough_memories() -> None:
    """Below CENTRE_AFTER vectors there is no mean; from there it is their average."""
    means = MeanVector()
    means.add([[1.0, 0.0]] * (CENTRE_AFTER - 1))
    assert means.mean() is None
    means.add([[0.0, 2.0]])
    mean = means.mean()
    assert mean is not None
    assert mean.tolist() == pytest.approx([(CENTRE_AFTER - 1) / CENTRE_AFTER, 1 / CENTRE_AFTER])


def test_centring_lets_the_topic_beat_the_shared_part() -> None:
    """Around the haystack's mean the fact on the query's topic ranks first."""
    assert cosine(QUERY, WRONG) > cosine(QUERY, RIGHT)
    mean = np.mean(np.asarray([unit(v) for v in HAYSTACK]), axis=0)
    assert centred_order(unit(QUERY), [unit(WRONG), unit(RIGHT)], mean) == [1, 0]


async def test_search_reorders_around_the_stored_mean(tmp_path: Path) -> None:
    """Milvus' plain cosine puts the other topic first; the store's search does not, and
    keeps the plain cosine as each memory's score."""

    async def embed(text: str) -> list[float]:
        return unit(QUERY)

    async with MilvusStore.open(str(tmp_path / "milvus.db"), embed) as store:
        with scopes.use(scopes.Scope(tenant="t")):
            await store.save_many([Memory("filler", embedding=tuple(unit(v))) for v in HAYSTACK])
            await store.save_many(
                [
                    Memory("wrong topic", embedding=tuple(unit(WRONG))),
                    Memory("right topic", embedding=tuple(unit(RIGHT))),
                ]
            )
            found = await store.search("what I asked", top_k=len(HAYSTACK) + 2)
            scores = {m.content: m.score for m in found}
    ranked = [m.content for m in found]
    assert ranked.index("right topic") < ranked.index("wrong topic")
    assert scores["right topic"] == pytest.approx(cosine(QUERY, RIGHT), abs=1e-5)


async def test_a_small_store_keeps_the_plain_order(tmp_path: Path) -> None:
    """With fewer memories than CENTRE_AFTER there is no mean to trust: cosine order."""

    async def embed(text: str) -> list[float]:
        return unit(QUERY)

    async with MilvusStore.open(str(tmp_path / "milvus.db"), embed) as store:
        with scopes.use(scopes.Scope(tenant="t")):
            await store.save_many(
                [
                    Memory("wrong topic", embedding=tuple(unit(WRONG))),
                    Memory("right topic", embedding=tuple(unit(RIGHT))),
                ]
            )
            found = await store.search("what I asked", top_k=2)
    assert [m.content for m in found] == ["wrong topic", "right topic"]


def test_of_two_memories_saying_the_same_the_newer_leads() -> None:
    """ "I live in Paris" ranked above "I moved to Berlin", told later, swap; others stay."""
    mean = np.mean(np.asarray([unit(v) for v in HAYSTACK]), axis=0)
    paris = unit((3.0, 1.0, 0.1, 0.0))
    berlin = unit((3.0, 1.0, 0.0, 0.15))
    other = unit((3.0, 0.0, 1.0, 0.0))
    vectors = [other, berlin, paris]
    assert centred_order(unit(QUERY), vectors, mean) == [2, 1, 0]
    assert centred_order(unit(QUERY), vectors, mean, said=[5, 1, 2]) == [2, 1, 0]
    assert centred_order(unit(QUERY), vectors, mean, said=[1, 9, 2]) == [1, 2, 0]


class TwoFaced:
    """An embedder whose queries and stored texts differ, as retrieval models' do."""

    model_id = "two-faced"

    async def query(self, text: str) -> list[float]:
        return unit(WRONG)

    async def documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [unit(QUERY) for _ in texts]


async def test_neighbours_compare_a_fact_as_a_stored_text_with_its_closeness(
    tmp_path: Path,
) -> None:
    """A new fact is compared by its document vector (returned for its save): ranked around
    the mean, each memory with its centred cosine as closeness; a small store has none."""
    async with MilvusStore.open(str(tmp_path / "milvus.db"), TwoFaced()) as store:
        with scopes.use(scopes.Scope(tenant="t")):
            await store.save_many(
                [
                    Memory("wrong topic", embedding=tuple(unit(WRONG))),
                    Memory("right topic", embedding=tuple(unit(RIGHT))),
                ]
            )
            vector, small = await store.neighbours("a fact", 2)
            await store.save_many([Memory("filler", embedding=tuple(unit(v))) for v in HAYSTACK])
            _, found = await store.neighbours("a fact", len(HAYSTACK) + 2)
            searched = [m.content for m in await store.search("anything", len(HAYSTACK) + 2)]
    assert vector == pytest.approx(unit(QUERY))
    assert [m.closeness for m in small] == [None, None]
    by_content = {m.content: m for m in found}
    ranked = [m.content for m in found]
    assert ranked.index("right topic") < ranked.index("wrong topic")
    vectors = [unit(v) for v in (*HAYSTACK, WRONG, RIGHT)]
    mean = np.mean(np.asarray(vectors), axis=0)
    expected = centred_cosines(unit(QUERY), [unit(RIGHT), unit(WRONG)], mean)
    assert by_content["right topic"].closeness == pytest.approx(expected[0], abs=1e-4)
    assert by_content["wrong topic"].closeness == pytest.approx(expected[1], abs=1e-4)
    # A search embeds its text as a query (here the other topic's vector).
    assert searched.index("wrong topic") < searched.index("right topic")
