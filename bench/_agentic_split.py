"""The agentic suite's halves, drawn once and kept in ``agentic_split.json``.

Rules and prompts are tuned on the dev half only; the held-out half says whether the gain is real,
and each judged half (held-out-2, held-out-3, held-out-4, held-out-5, held-out-6, held-out-7,
held-out-8, held-out-9, held-out-10, held-out-11, held-out-12, held-out-13, held-out-14,
held-out-15, held-out-16, held-out-17, held-out-18, held-out-19, held-out-20, held-out-21,
held-out-22, held-out-23, held-out-24, held-out-25, held-out-26, held-out-27, held-out-28,
held-out-29, held-out-30, held-out-31, held-out-32, held-out-33, held-out-34), written later from
the forms and kinds alone, says it again on cases no rule was ever tuned on. The split is data, not
code: :func:`extend` gives every case not yet in it a half, in an order shuffled with the committed
:data:`SEED`, putting each into the one of dev and held-out that has fewer cases of its language
and kind (then fewer cases overall, then a seeded coin), so those two stay balanced per language
and kind; with ``into`` every new case goes to that half instead.
Entries already in the file never move: new cases are appended.

    python -m bench._agentic_split                     # balanced over dev and held-out
    python -m bench._agentic_split --into held-out-34  # every new case into held-out-34
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Literal

from bench._agentic_cases import CASES, Case

Half = Literal[
    "dev",
    "held-out",
    "held-out-2",
    "held-out-3",
    "held-out-4",
    "held-out-5",
    "held-out-6",
    "held-out-7",
    "held-out-8",
    "held-out-9",
    "held-out-10",
    "held-out-11",
    "held-out-12",
    "held-out-13",
    "held-out-14",
    "held-out-15",
    "held-out-16",
    "held-out-17",
    "held-out-18",
    "held-out-19",
    "held-out-20",
    "held-out-21",
    "held-out-22",
    "held-out-23",
    "held-out-24",
    "held-out-25",
    "held-out-26",
    "held-out-27",
    "held-out-28",
    "held-out-29",
    "held-out-30",
    "held-out-31",
    "held-out-32",
    "held-out-33",
    "held-out-34",
]
#: The halves a new case is balanced over, unless it is put into one half by name.
BALANCED: tuple[Half, ...] = ("dev", "held-out")
#: The halves of cases written later for judging alone, each filled at once with ``--into``.
JUDGED: tuple[Half, ...] = (
    "held-out-2",
    "held-out-3",
    "held-out-4",
    "held-out-5",
    "held-out-6",
    "held-out-7",
    "held-out-8",
    "held-out-9",
    "held-out-10",
    "held-out-11",
    "held-out-12",
    "held-out-13",
    "held-out-14",
    "held-out-15",
    "held-out-16",
    "held-out-17",
    "held-out-18",
    "held-out-19",
    "held-out-20",
    "held-out-21",
    "held-out-22",
    "held-out-23",
    "held-out-24",
    "held-out-25",
    "held-out-26",
    "held-out-27",
    "held-out-28",
    "held-out-29",
    "held-out-30",
    "held-out-31",
    "held-out-32",
    "held-out-33",
    "held-out-34",
)
HALVES: tuple[Half, ...] = (*BALANCED, *JUDGED)
SEED = 34_2026
SPLIT_PATH = Path(__file__).with_name("agentic_split.json")


def extend(
    split: Mapping[str, Half], cases: Iterable[Case], seed: int = SEED, into: Half | None = None
) -> dict[str, Half]:
    """``split`` with a half for each of ``cases`` it lacks, appended: balanced over
    :data:`BALANCED` in seeded order, or (``into``) all in that half in the cases' order."""
    out: dict[str, Half] = dict(split)
    known = {c.name: c for c in cases}
    if into is not None:
        if into not in HALVES:
            raise ValueError(f"unknown half {into!r}; one of {HALVES}")
        out.update((name, into) for name in known if name not in out)
        return out
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
        preferred = BALANCED[rng.random() < 0.5]
        half = min(
            BALANCED,
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


def main(argv: Sequence[str] | None = None) -> None:
    """Append the cases the split file lacks (``--into``: all into that half), print counts."""
    parser = argparse.ArgumentParser(description="Give every case the split lacks a half.")
    parser.add_argument(
        "--into",
        choices=HALVES,
        help="put every new case into this half; default: balanced over dev and held-out",
    )
    args = parser.parse_args(argv)
    path = SPLIT_PATH
    split = load(path) if path.exists() else {}
    grown = extend(split, CASES, into=args.into)
    save(grown, path)
    language = {c.name: c.language for c in CASES}
    counts = Counter((language.get(name, "?"), half) for name, half in grown.items())
    added = len(grown) - len(split)
    print(f"{path.name}: {len(grown)} cases ({added} added)")
    for lang in sorted({lang for lang, _ in counts}):
        print(f"  {lang}: " + ", ".join(f"{h} {counts[(lang, h)]}" for h in HALVES))


if __name__ == "__main__":
    main()
