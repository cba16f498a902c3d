"""The chat-kill benchmark's count: each message stored once and answered once."""

from __future__ import annotations

from collections import Counter

from bench.chat_kill import tally


def test_tally_counts_lost_and_doubled_messages_per_chat() -> None:
    """A message stored twice, one never answered, one answered twice, and a stray reply
    (the right text in the wrong chat) are each counted where they belong."""
    sent = [("a", "m0"), ("b", "m1"), ("a", "m2"), ("b", "m3")]
    stored = Counter({"m0": 1, "m1": 2, "m2": 1})
    answered = Counter({"a echo: m0": 1, "b echo: m1": 1, "a echo: m2": 2, "a echo: m3": 1})
    assert tally(sent, stored, answered) == {
        "messages": 4,
        "lost stored": 1,
        "dup stored": 1,
        "lost replies": 1,
        "dup replies": 1,
        "other replies": 1,
    }


def test_tally_of_a_clean_run_is_all_zero() -> None:
    """Every message stored once and answered once in its own chat: nothing to report."""
    sent = [("a", "m0"), ("b", "m1")]
    stored = Counter({"m0": 1, "m1": 1})
    answered = Counter({"a echo: m0": 1, "b echo: m1": 1})
    counts = tally(sent, stored, answered)
    assert counts.pop("messages") == 2
    assert set(counts.values()) == {0}
