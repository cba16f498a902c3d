"""The agentic suite's dev and held-out halves, drawn once and kept in ``agentic_split.json``.

Rules and prompts are tuned on the dev half only; the held-out half says whether the gain is
real. The split is data, not code: :func:`extend` gives every case not yet in it a half, in an
order shuffled with the committed :data:`SEED`, putting each into the half that has fewer cases
of its language and kind (then fewer cases overall, then a seeded coin), so the halves stay
balanced per language and kind. Entries already in the file never move: new cases are appended.

    python -m bench._agentic_split     # append the cases the file lacks, print the counts
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Literal

from bench._agentic_cases import CASES, Case

Half = Literal["dev", "held-out"]
HALVES: tuple[Half, ...] = ("dev", "held-out")
SEED = 34_2026
SPLIT_PATH = Path(__file__).with_name("agentic_split.json")


def extend(split: Mapping[str, Half], cases: Iterable[Case], seed: int = SEED) -> dict[str, Half]:
    """``split`` with a half for each of ``cases`` it lacks, appended in seeded order."""
    out: dict[str, Half] = dict(split)
    known = {c.name: c for c in cases}
    count = Counter[tuple[str, Half]]()  # per "language kind", "language", "kind" and ""

    def add(case: Case | None, half: Half) -> None:
        keys = ("",) if case is None else _groups(case)
        for key in keys:
            count[(key, half)] += 1

    for name, half in out.items():
        add(known.get(name), half)
    new = sorted(name for name in known if name not in out)
    rng = random.Random(seed)
    rng.shuffle(new)
    for name in new:
        case = known[name]
        both, language, kind, _ = _groups(case)
        preferred = HALVES[rng.random() < 0.5]
        half = min(
            HALVES,
            key=lambda h: (
                count[(both, h)],
                count[(language, h)] + count[(kind, h)],
                count[("", h)],
                h != preferred,
            ),
        )
        out[name] = half
        add(case, half)
    return out


def _groups(case: Case) -> tuple[str, str, str, str]:
    """The groups a case is balanced in: its language and kind, each alone, and all cases."""
    return (f"{case.language} {case.kind}", case.language, case.kind, "")


def load(path: Path = SPLIT_PATH) -> dict[str, Half]:
    """The committed split, name to half, in the order the names were added."""
    data = json.loads(path.read_text(encoding="utf-8"))
    cases = data["cases"]
    if not isinstance(cases, dict) or any(h not in HALVES for h in cases.values()):
        raise ValueError(f"{path}: 'cases' must map each case name to one of {HALVES}")
    return dict(cases)


def save(split: Mapping[str, Half], path: Path = SPLIT_PATH) -> None:
    """Write ``split`` as the committed data file (order kept)."""
    body = {"seed": SEED, "cases": dict(split)}
    path.write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def select(cases: Sequence[Case], split: Mapping[str, Half], half: str) -> list[Case]:
    """The ``cases`` of ``half`` (``all``: every one)."""
    if half == "all":
        return list(cases)
    return [c for c in cases if split.get(c.name) == half]


def main() -> None:
    split = load() if SPLIT_PATH.exists() else {}
    grown = extend(split, CASES)
    save(grown)
    language = {c.name: c.language for c in CASES}
    counts = Counter((language.get(name, "?"), half) for name, half in grown.items())
    added = len(grown) - len(split)
    print(f"{SPLIT_PATH.name}: {len(grown)} cases ({added} added)")
    for lang in sorted({lang for lang, _ in counts}):
        print(f"  {lang}: dev {counts[(lang, 'dev')]}, held-out {counts[(lang, 'held-out')]}")


if __name__ == "__main__":
    main()
