"""The input rules every long-term memory store shares."""

from __future__ import annotations

import pytest

from agentd.errors import InvalidMemory
from agentd.memory.longterm import Memory, memories_text, normalize_tags


def test_tags_are_trimmed_and_deduplicated_ignoring_case() -> None:
    """Whitespace is collapsed, empty tags dropped, and the first spelling of a tag kept."""
    assert normalize_tags([" Travel ", "travel", "", "to  do", "TO DO"]) == ("Travel", "to do")
    with pytest.raises(InvalidMemory, match="at most 32"):
        normalize_tags([str(i) for i in range(33)])


def test_memories_text_shows_key_date_tags_and_score() -> None:
    """Each memory is one line the model (or a person) can read."""
    memory = Memory("tea", tags=("pref",), key="k1", ts=0, score=0.5)
    assert memories_text([memory]) == "- k1 ? [pref] (0.50): tea"


def test_memories_text_shows_the_words_a_memory_was_saved_from() -> None:
    """The user's own request is shown under what the model kept, once, on one line."""
    said = Memory("Prefers jasmine tea.", key="k2", words="Merk dir:\n ich trinke Jasmintee.")
    assert memories_text([said]).splitlines()[1] == "  said: Merk dir: ich trinke Jasmintee."
    same = Memory("I like tea.", key="k3", words="I like tea.")
    assert len(memories_text([same]).splitlines()) == 1
