"""The memory suite's dev and held-out halves, drawn once and kept in ``memory_split.json``.

Thresholds and settings are chosen on the dev half only; the held-out half says whether they
hold. Questions are split (every fact stays in the store: it is the haystack), in an order
shuffled with the committed :data:`SEED`, alternating within each language and kind so both
halves hold as many of each. Entries already in the file never move: new questions are appended.

    python -m bench._memory_split     # append the questions the file lacks, print the counts
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from bench._memory_cases import Question, load

SEED = 37_2026
SPLIT_PATH = Path(__file__).with_name("memory_split.json")
HALVES = ("dev", "held-out")


def extend(
    split: Mapping[str, str], questions: Sequence[Question], seed: int = SEED
) -> dict[str, str]:
    """``split`` with a half for each question it lacks, balanced per language and kind."""
    out = dict(split)
    count = Counter((f"{q.lang} {q.kind}", out[q.id]) for q in questions if q.id in out)
    new = sorted(q.id for q in questions if q.id not in out)
    by_id = {q.id: q for q in questions}
    rng = random.Random(seed)
    rng.shuffle(new)
    for qid in new:
        group = f"{by_id[qid].lang} {by_id[qid].kind}"
        preferred = HALVES[rng.random() < 0.5]
        half = min(HALVES, key=lambda h: (count[(group, h)], h != preferred))
        out[qid] = half
        count[(group, half)] += 1
    return out


def load_split(path: Path = SPLIT_PATH) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    questions = data["questions"]
    if any(h not in HALVES for h in questions.values()):
        raise ValueError(f"{path}: every question must be in one of {HALVES}")
    return dict(questions)


def main() -> None:
    _, questions = load()
    split = load_split() if SPLIT_PATH.exists() else {}
    grown = extend(split, questions)
    body = {"seed": SEED, "questions": grown}
    SPLIT_PATH.write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    counts = Counter((q.lang, q.kind, grown[q.id]) for q in questions)
    print(f"{SPLIT_PATH.name}: {len(grown)} questions ({len(grown) - len(split)} added)")
    for lang in sorted({q.lang for q in questions}):
        row = ", ".join(
            f"{kind} {counts[(lang, kind, 'dev')]}/{counts[(lang, kind, 'held-out')]}"
            for kind in ("same", "cross", "update", "never")
        )
        print(f"  {lang} (dev/held-out): {row}")


if __name__ == "__main__":
    main()
