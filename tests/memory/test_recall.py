"""Recall: the long-term memories nearest to a message, as a note that may not answer it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from agentd.errors import MemoryUnavailable
from agentd.memory.longterm import Memory
from agentd.memory.recall import CANDIDATES, HEAD, NEAR, RULE, memory_recall, overlap

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


def shown(*lines: str) -> str:
    """The note showing ``lines``."""
    return "\n".join([HEAD, *lines, RULE])


async def test_matches_near_the_floor_become_a_note() -> None:
    """A memory at or a little under the floor is shown; one further under is not."""
    store = Store(
        [
            mem("Emil's birthday is on May 8.", 0.86),
            mem("Our cat is called Pixel.", 0.8 - NEAR + 0.001),
            mem("Tea: sencha.", 0.8 - NEAR - 0.001),
        ]
    )
    recall = memory_recall(store, 3, 0.8)  # type: ignore[arg-type]
    note = await recall("When is the party?")
    assert note == shown("- Emil's birthday is on May 8.", "- Our cat is called Pixel.")
    assert store.queries == [("When is the party?", CANDIDATES)]


async def test_the_note_asks_for_an_answer_only_from_a_memory_that_says_it() -> None:
    """The note says its memories may be unrelated and that without one that answers, the
    answer is "I do not know"; it ends before the request without a blank line (the request
    follows the note after one)."""
    note = await memory_recall(Store([mem("Tea: sencha.", 0.9)]), 3, 0.8)("Eye colour?")  # type: ignore[arg-type]
    assert note is not None
    assert "may be unrelated" in note.splitlines()[0]
    assert note.splitlines()[-1] == RULE
    assert "do not know" in RULE
    assert "\n\n" not in note
    assert note.startswith("(") and note.endswith(")")


async def test_nothing_close_enough_is_no_note() -> None:
    """Memories searched, none near the floor: no note."""
    recall = memory_recall(Store([mem("Tea: sencha.", 0.6)]), 3, 0.8)  # type: ignore[arg-type]
    assert await recall("What's 2+2?") is None


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
    """Words decide where the vectors score a match far below the floor."""
    store = Store(
        [
            mem("The wifi password is in the drawer.", 0.61),
            mem("Jasmine tea is my favorite tea", 0.54),
            mem("The door code of the Lisbon office is 4239.", 0.52),
        ]
    )
    recall = memory_recall(store, 3, 0.8)  # type: ignore[arg-type]
    assert await recall("my favorite tea?") == shown("- Jasmine tea is my favorite tea")
    note = await recall("door code of the Lisbon office?")
    assert note == shown("- The door code of the Lisbon office is 4239.")
    assert await recall("What is the capital of France?") is None


async def test_tags_count_as_words_and_top_k_keeps_the_store_order() -> None:
    """Tags are matched too, and top_k takes the store's (fused) best."""
    store = Store(
        [
            mem("Unrelated but close.", 0.9),
            Memory(content="Sencha.", tags=("favourite", "tea"), score=None),
        ]
    )
    note = await memory_recall(store, 3, 0.8)("favourite tea?")  # type: ignore[arg-type]
    # Shown with its tags: a bare value says what it is by them.
    assert note == shown("- Unrelated but close.", "- Sencha. (tags: favourite, tea)")
    one = await memory_recall(store, 1, 0.8)("favourite tea?")  # type: ignore[arg-type]
    assert one == shown("- Unrelated but close.")


async def test_the_newest_memory_leads_when_two_disagree() -> None:
    """The memory said last comes first, each with its day, whatever the store's order."""
    paris = Memory(content="I live in Paris.", ts=1_700_000_000_000, score=0.9)
    berlin = Memory(content="I moved to Berlin.", ts=1_760_000_000_000, score=0.85)
    confirmed = Memory(
        content="Tea: sencha.", ts=1_600_000_000_000, confirmed=1_770_000_000_000, score=0.82
    )
    note = await memory_recall(Store([paris, berlin, confirmed]), 3, 0.8)("where do I live?")  # type: ignore[arg-type]
    assert note == shown(
        "- Tea: sencha. [2026-02-02]",
        "- I moved to Berlin. [2025-10-09]",
        "- I live in Paris. [2023-11-14]",
    )


async def test_the_first_hit_a_little_under_the_floor_is_shown() -> None:
    """The end-to-end benchmark's misses: the answer first, under the floor (0.83 and 0.79
    for a floor of 0.84), shown with the candidates near it."""
    found = [mem("Our cat is called Pixel.", 0.83), mem("The vet is on Bath Road.", 0.8)]
    found += [mem(f"Filler {i}.", 0.7) for i in range(5)]
    note = await memory_recall(Store(found), 3, 0.84)("What's the name of our pet?")  # type: ignore[arg-type]
    assert note == shown("- Our cat is called Pixel.", "- The vet is on Bath Road.")
