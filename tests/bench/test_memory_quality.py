"""The memory suite: enough facts and languages, a complete split, honest scoring."""

from __future__ import annotations

from collections import Counter

from bench._memory_cases import LANGUAGES, Question, load
from bench._memory_split import extend, load_split
from bench.memory_quality import Result, best_floor, gate_scores, recalled, table


def test_the_suite_covers_five_languages_and_every_kind() -> None:
    """At least 300 facts over 50 sessions; same, cross, update and never questions per language."""
    facts, questions = load()
    assert len(facts) >= 300
    assert len({f.id[:4] for f in facts}) >= 50  # session ids: en01 ... ja12
    ids = {f.id for f in facts}
    assert all(q.answer in ids for q in questions if q.answer is not None)
    assert all(q.stale in ids for q in questions if q.stale is not None)
    kinds = Counter((q.lang, q.kind) for q in questions)
    for lang in LANGUAGES:
        for kind in ("same", "cross", "never"):
            assert kinds[(lang, kind)] >= 4, (lang, kind)
    assert sum(kinds[(lang, "update")] for lang in LANGUAGES) >= 20
    assert all(q.lang != q.fact_lang for q in questions if q.kind == "cross")


def test_the_committed_split_holds_every_question_once() -> None:
    """Each question is in exactly one half, and extending the split moves nothing."""
    _, questions = load()
    split = load_split()
    assert set(split) == {q.id for q in questions}
    assert extend(split, questions) == split
    halves = Counter(split.values())
    assert abs(halves["dev"] - halves["held-out"]) <= 10


def _q(answer: str | None, kind: str = "same", stale: str | None = None) -> Question:
    return Question(f"q-{answer}", "en", "favourite tea", answer, kind, stale, "en")


def test_ranks_become_recall_and_mrr() -> None:
    """Rank 1 and 3 of two questions: recall@1 0.5, recall@5 1.0, MRR (1 + 1/3) / 2."""
    rows = [Result(_q("a"), "dense", 1, None), Result(_q("b"), "dense", 3, None)]
    scores = table(rows)["all"]
    assert (scores["r@1"], scores["r@5"]) == (0.5, 1.0)
    assert abs(scores["mrr"] - (1 + 1 / 3) / 2) < 1e-9
    missing = table([Result(_q("c"), "dense", None, None)])["all"]
    assert missing["r@5"] == 0.0 and missing["mrr"] == 0.0


def test_newest_first_counts_updates_ranked_above_the_stale_fact() -> None:
    """An update whose new fact ranks under the old one does not count."""
    rows = [
        Result(_q("n1", "update", "o1"), "hybrid", 1, 2),
        Result(_q("n2", "update", "o2"), "hybrid", 3, 1),
    ]
    assert table(rows)["newest_first"]["share"] == 0.5


def test_the_recall_gate_and_its_floor() -> None:
    """A floor keeps close hits; never-told questions count when nothing passes."""
    answer = Result(_q("a"), "hybrid", 1, None, hits=[(0.9, 0.0, "a"), (0.7, 0.0, "b")])
    never = Result(_q(None, "never"), "hybrid", None, None, hits=[(0.8, 0.1, "x")])
    assert recalled(answer, 0.85) == ["a"]
    assert gate_scores([answer, never], 0.85) == (1.0, 1.0)
    assert gate_scores([answer, never], 0.75) == (1.0, 0.0)
    assert 0.8 < best_floor([answer, never]) <= 0.9
