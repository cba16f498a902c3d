"""Recall: the best long-term matches of a message above a floor, as a note."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from agentd.errors import MemoryUnavailable
from agentd.memory.longterm import Memory
from agentd.memory.recall import (
    BACKGROUND_AFTER,
    CANDIDATES,
    HEAD,
    NOTHING,
    memory_recall,
    overlap,
)

pytestmark = pytest.mark.anyio


@dataclass
class Store:
    found: list[Memory] = field(default_factory=list)
    fail: bool = False
    degraded: str | None = None
    queries: list[tuple[str, int]] = field(default_factory=list)

    async def search(
        self, query: str, top_k: int = 5, tags_include: Sequence[str] = ()
    ) -> list[Memory]:
        self.queries.append((query, top_k))
        if self.fail:
            raise MemoryUnavailable("milvus is gone")
        return self.found[:top_k]


def mem(content: str, score: float) -> Memory:
    return Memory(content=content, score=score)


async def test_matches_above_the_floor_become_a_note() -> None:
    store = Store([mem("Emil's birthday is on May 8.", 0.86), mem("Tea: sencha.", 0.79)])
    recall = memory_recall(store, 3, 0.8)  # type: ignore[arg-type]
    note = await recall("When is the party?")
    assert note == f"{HEAD}\n- Emil's birthday is on May 8.)"
    assert store.queries == [("When is the party?", CANDIDATES)]


async def test_nothing_close_enough_is_said() -> None:
    """Memories searched, none close enough: the note says nothing matches (a small model
    with no note made up what the user had never said)."""
    recall = memory_recall(Store([mem("Tea: sencha.", 0.6)]), 3, 0.8)  # type: ignore[arg-type]
    assert await recall("What's 2+2?") == NOTHING
    assert await memory_recall(Store(), 3, 0.8)("What colour are my eyes?") == NOTHING  # type: ignore[arg-type]


async def test_a_store_that_cannot_answer_is_no_note() -> None:
    failing = Store(fail=True)
    assert await memory_recall(failing, 3, 0.8)("hi") is None  # type: ignore[arg-type]
    degraded = Store([mem("x", 0.99)], degraded="unreachable")
    assert await memory_recall(degraded, 3, 0.8)("hi") is None  # type: ignore[arg-type]
    assert degraded.queries == []
    assert await memory_recall(Store([mem("x", 0.99)]), 3, 0.8)("  ") is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("query", "content", "matches"),
    [
        pytest.param("What's my favourite tea?", "Jasmine tea is my favourite tea", True, id="en"),
        pytest.param("Wie lautet der Türcode?", "Der Türcode im Büro ist 2020.", True, id="de"),
        pytest.param(
            "¿Cuál es mi color favorito?", "Mi color favorito es el verde.", True, id="es"
        ),
        pytest.param("私の好きな色は", "私の好きな色は緑です。", True, id="ja"),
        pytest.param("What's my favourite tea?", "The car is blue.", False, id="unrelated"),
    ],
)
def test_overlap_is_shared_trigrams_in_any_language(
    query: str, content: str, matches: bool
) -> None:
    """A memory holding most of the message's trigrams matches, with no word list per language."""
    assert (overlap(query, Memory(content=content)) >= 0.5) is matches


async def test_a_memory_holding_most_of_the_words_is_recalled_under_the_floor() -> None:
    """Words decide where the vectors score a match below the floor."""
    store = Store(
        [
            mem("The wifi password is in the drawer.", 0.61),
            mem("Jasmine tea is my favorite tea", 0.54),
            mem("The door code of the Lisbon office is 4239.", 0.52),
        ]
    )
    recall = memory_recall(store, 3, 0.8)  # type: ignore[arg-type]
    assert await recall("my favorite tea?") == f"{HEAD}\n- Jasmine tea is my favorite tea)"
    note = await recall("door code of the Lisbon office?")
    assert note == f"{HEAD}\n- The door code of the Lisbon office is 4239.)"
    assert await recall("What is the capital of France?") == NOTHING


async def test_tags_count_as_words_and_the_store_order_is_kept() -> None:
    """Tags are matched too, and the note keeps the store's (fused) order."""
    store = Store(
        [
            mem("Unrelated but close.", 0.9),
            Memory(content="Sencha.", tags=("favourite", "tea"), score=None),
        ]
    )
    note = await memory_recall(store, 3, 0.8)("favourite tea?")  # type: ignore[arg-type]
    # Shown with its tags: a bare value says what it is by them.
    assert note == f"{HEAD}\n- Unrelated but close.\n- Sencha. (tags: favourite, tea))"
    one = await memory_recall(store, 1, 0.8)("favourite tea?")  # type: ignore[arg-type]
    assert one == f"{HEAD}\n- Unrelated but close.)"


async def test_the_newest_memory_leads_when_two_disagree() -> None:
    """The memory said last comes first, each with its day, whatever the store's order."""
    paris = Memory(content="I live in Paris.", ts=1_700_000_000_000, score=0.9)
    berlin = Memory(content="I moved to Berlin.", ts=1_760_000_000_000, score=0.85)
    confirmed = Memory(
        content="Tea: sencha.", ts=1_600_000_000_000, confirmed=1_770_000_000_000, score=0.82
    )
    note = await memory_recall(Store([paris, berlin, confirmed]), 3, 0.8)("where do I live?")  # type: ignore[arg-type]
    assert note == (
        f"{HEAD}\n- Tea: sencha. [2026-02-02]\n- I moved to Berlin. [2025-10-09]"
        "\n- I live in Paris. [2023-11-14])"
    )


@pytest.mark.parametrize(
    ("best", "others", "recalled"),
    [
        pytest.param(0.82, 0.74, True, id="stands-out-under-the-floor"),
        pytest.param(0.82, 0.78, False, id="close-to-the-others"),
        pytest.param(0.79, 0.70, False, id="too-far-under-the-floor"),
    ],
)
async def test_a_memory_standing_out_from_the_others_is_recalled_a_little_under_the_floor(
    best: float, others: float, recalled: bool
) -> None:
    """Under the floor by at most UNDER_FLOOR and STANDS_OUT above the other candidates'
    median: recalled; otherwise not."""
    found = [mem("Our cat is called Pixel.", best)]
    found += [mem(f"Filler {i}.", others - 0.001 * i) for i in range(BACKGROUND_AFTER + 2)]
    note = await memory_recall(Store(found), 3, 0.84)("Wie heißt das Haustier?")  # type: ignore[arg-type]
    assert note == (f"{HEAD}\n- Our cat is called Pixel.)" if recalled else NOTHING)


async def test_a_few_candidates_are_no_background() -> None:
    """With BACKGROUND_AFTER candidates or fewer, only the floor decides."""
    found = [mem("Our cat is called Pixel.", 0.82)]
    found += [mem(f"Filler {i}.", 0.6) for i in range(BACKGROUND_AFTER - 1)]
    assert await memory_recall(Store(found), 3, 0.84)("Wie heißt das Haustier?") == NOTHING  # type: ignore[arg-type]
