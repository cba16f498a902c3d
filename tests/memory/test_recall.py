"""Recall: the best long-term matches of a message above a floor, as a note."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from agentd.errors import MemoryUnavailable
from agentd.memory.longterm import Memory
from agentd.memory.recall import CANDIDATES, HEAD, memory_recall, words

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


async def test_nothing_close_enough_is_no_note() -> None:
    recall = memory_recall(Store([mem("Tea: sencha.", 0.6)]), 3, 0.8)  # type: ignore[arg-type]
    assert await recall("What's 2+2?") is None


async def test_a_store_that_cannot_answer_is_no_note() -> None:
    failing = Store(fail=True)
    assert await memory_recall(failing, 3, 0.8)("hi") is None  # type: ignore[arg-type]
    degraded = Store([mem("x", 0.99)], degraded="unreachable")
    assert await memory_recall(degraded, 3, 0.8)("hi") is None  # type: ignore[arg-type]
    assert degraded.queries == []
    assert await memory_recall(Store([mem("x", 0.99)]), 3, 0.8)("  ") is None  # type: ignore[arg-type]


def test_the_telling_words_of_a_message() -> None:
    assert words("What's my favourite tea?") == {"favourite", "tea"}
    assert words("When is my sister Emil's birthday?") == {"sister", "emil", "birthday"}
    assert words("The door codes of the Lisbon office") == {"door", "code", "lisbon", "office"}
    assert words("Please remember: it is") == set()


async def test_a_memory_holding_most_of_the_words_is_recalled_under_the_floor() -> None:
    # Scores as the packaged model's embeddings gave them: the match under unrelated memories.
    store = Store(
        [
            mem("The wifi password is in the drawer.", 0.61),
            mem("Jasmine tea is my favorite tea", 0.54),
            mem("The door code of the Lisbon office is 4239.", 0.52),
        ]
    )
    recall = memory_recall(store, 3, 0.8)  # type: ignore[arg-type]
    assert await recall("What's my favourite tea?") == f"{HEAD}\n- Jasmine tea is my favorite tea)"
    note = await recall("What is the door code of the Lisbon office?")
    assert note == f"{HEAD}\n- The door code of the Lisbon office is 4239.)"
    assert await recall("What is the capital of France?") is None


async def test_tags_count_as_words_and_word_matches_come_first() -> None:
    store = Store(
        [
            mem("Unrelated but close.", 0.9),
            Memory(content="Sencha.", tags=("favourite", "tea"), score=0.3),
        ]
    )
    note = await memory_recall(store, 3, 0.8)("my favourite tea?")  # type: ignore[arg-type]
    # Shown with its tags: a bare value says what it is by them.
    assert note == f"{HEAD}\n- Sencha. (tags: favourite, tea)\n- Unrelated but close.)"
    one = await memory_recall(store, 1, 0.8)("my favourite tea?")  # type: ignore[arg-type]
    assert one == f"{HEAD}\n- Sencha. (tags: favourite, tea))"
