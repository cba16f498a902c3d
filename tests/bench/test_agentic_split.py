"""The agentic suite's dev/held-out split: drawn once, committed, balanced, never moved."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from bench._agentic_cases import CASES, Case, Say, Script
from bench._agentic_split import SPLIT_PATH, extend, load, save, select

#: The entries drawn first (in file order) and their digest: they never change.
FROZEN = 104
FROZEN_SHA256 = "ccbd5243f2d1c08ed38b091fa8b4ad3386fbba0c542709e3f7b5d535ebd632e8"
#: The forty fresh cases appended at once after them, and their digest.
FRESH_END = 144
FRESH_SHA256 = "87370dae363a7960a6e27f11f63662516964fc597e16cc9df48a9c1e7930606c"


def _digest(items: Sequence[tuple[str, str]]) -> str:
    return hashlib.sha256(json.dumps(items).encode()).hexdigest()


def _case(name: str, language: str = "de", kind: str = "action") -> Case:
    def build(rng: random.Random) -> Script:
        return Script((Say("x"),), lambda outcome: None)

    return Case(name, kind, language, build)  # type: ignore[arg-type]


def test_every_case_has_a_half_and_every_entry_a_case() -> None:
    """A case missing from the split file (or a stale name in it) fails."""
    split = load()
    assert set(split) == {c.name for c in CASES}


def test_the_first_draw_never_changes() -> None:
    """The entries drawn first are pinned: their names, halves and order."""
    items = list(load().items())
    assert len(items) >= FROZEN
    assert _digest(items[:FROZEN]) == FROZEN_SHA256


def test_the_fresh_draw_never_changes() -> None:
    """The forty fresh cases come right after the first draw, pinned the same way."""
    items = list(load().items())
    assert len(items) >= FRESH_END
    assert _digest(items[FROZEN:FRESH_END]) == FRESH_SHA256


def test_the_file_is_what_the_seeded_draw_gives() -> None:
    """Extending the committed split over the suite adds nothing and moves nothing."""
    split = load()
    assert extend(split, CASES) == split
    assert list(extend(split, CASES)) == list(split)


def test_new_cases_are_appended_and_old_entries_stay() -> None:
    """A new case gets a half at the end; every existing entry keeps its half."""
    split = load()
    grown = extend(split, [*CASES, _case("zz_new_one"), _case("zz_new_two")])
    assert list(grown)[: len(split)] == list(split)
    assert all(grown[name] == half for name, half in split.items())
    assert list(grown)[len(split) :] in (["zz_new_one", "zz_new_two"], ["zz_new_two", "zz_new_one"])
    # Two new cases of one language and kind go to different halves.
    assert {grown["zz_new_one"], grown["zz_new_two"]} == {"dev", "held-out"}


def test_the_halves_are_balanced_per_language_and_kind() -> None:
    """Each language differs by at most one case between the halves, each kind by two, and
    no language-and-kind group by more than one."""
    split = load()
    for group, limit in (
        (lambda c: c.language, 1),
        (lambda c: c.kind, 2),
        (lambda c: (c.language, c.kind), 1),
    ):
        count = Counter((group(c), split[c.name]) for c in CASES)
        for value in {group(c) for c in CASES}:
            assert abs(count[(value, "dev")] - count[(value, "held-out")]) <= limit, value


def test_select_gives_one_half_or_all() -> None:
    """--half dev plays only dev cases; all plays every case."""
    split = load()
    dev = select(CASES, split, "dev")
    held = select(CASES, split, "held-out")
    assert {c.name for c in dev} | {c.name for c in held} == {c.name for c in CASES}
    assert not {c.name for c in dev} & {c.name for c in held}
    assert select(CASES, split, "all") == list(CASES)


def test_save_and_load_keep_the_order(tmp_path: Path) -> None:
    """The file round-trips with its order, so appending is visible as appending."""
    path = tmp_path / "split.json"
    save({"b": "dev", "a": "held-out"}, path)
    assert list(load(path).items()) == [("b", "dev"), ("a", "held-out")]
    assert SPLIT_PATH.name == "agentic_split.json"
