"""BFCL's test entries, read straight out of the pinned ``bfcl-eval`` wheel, and a seeded subset.

The wheel (Apache-2.0, the gorilla project) holds one JSON object per line in
``bfcl_eval/data/BFCL_v4_<category>.json`` and the accepted answers, by entry id, in
``bfcl_eval/data/possible_answer/BFCL_v4_<category>.json``. ``make bench-data`` downloads it
into ``.venv/bench-data``; nothing here touches the network.
"""

from __future__ import annotations

import json
import random
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The bfcl-eval release the data comes from (the Makefile's bench-data target pins the same).
BFCL_VERSION = "2026.3.23"
WHEEL_NAME = f"bfcl_eval-{BFCL_VERSION}-py3-none-any.whl"
DEFAULT_WHEEL = Path(__file__).resolve().parents[2] / ".venv" / "bench-data" / WHEEL_NAME
#: The single-turn categories this benchmark scores (Python function docs only).
CATEGORIES = (
    "simple_python",
    "multiple",
    "parallel",
    "parallel_multiple",
    "irrelevance",
    "live_simple",
)
_DATA = "bfcl_eval/data/BFCL_v4_{}.json"
_ANSWERS = "bfcl_eval/data/possible_answer/BFCL_v4_{}.json"


class WheelMissing(Exception):
    """The bfcl-eval wheel is not where the benchmark looks for it."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"the BFCL data is missing: no {path}; `make bench-data` downloads it "
            f"(bfcl-eval=={BFCL_VERSION} from PyPI, data only, never installed)"
        )
        self.path = path


@dataclass(frozen=True, slots=True)
class Item:
    """One BFCL entry: the first turn's messages, the function docs, the accepted answers."""

    id: str
    category: str
    messages: list[dict[str, str]]
    functions: list[dict[str, Any]]
    #: ``[{function name: {parameter: [accepted values]}}]``; empty for irrelevance.
    ground_truth: list[dict[str, Any]]


def _json_lines(text: str) -> Iterable[dict[str, Any]]:
    for line in text.splitlines():
        if line.strip():
            yield json.loads(line)


def load_category(wheel: Path, category: str) -> list[Item]:
    """Every entry of ``category``, in the file's order."""
    if category not in CATEGORIES:
        raise ValueError(f"unknown BFCL category {category!r}; known: {', '.join(CATEGORIES)}")
    if not wheel.is_file():
        raise WheelMissing(wheel)
    with zipfile.ZipFile(wheel) as archive:
        entries = list(_json_lines(archive.read(_DATA.format(category)).decode()))
        answers: dict[str, list[dict[str, Any]]] = {}
        if category != "irrelevance":  # correct there is no call at all: no answers shipped
            raw = archive.read(_ANSWERS.format(category)).decode()
            answers = {row["id"]: row["ground_truth"] for row in _json_lines(raw)}
    return [
        Item(
            id=entry["id"],
            category=category,
            messages=entry["question"][0],
            functions=entry["function"],
            ground_truth=answers.get(entry["id"], []),
        )
        for entry in entries
    ]


def seeded_subset(items: Sequence[Item], n: int, seed: int) -> list[Item]:
    """``n`` items drawn with a generator seeded by ``seed`` and the category, in file order;
    the same arguments always give the same items (``n`` <= 0: all of them)."""
    if n <= 0 or n >= len(items):
        return list(items)
    category = items[0].category if items else ""
    picked = random.Random(f"bfcl:{seed}:{category}").sample(range(len(items)), n)
    return [items[i] for i in sorted(picked)]


def load_items(wheel: Path, categories: Sequence[str], per_category: int, seed: int) -> list[Item]:
    """The seeded subset of each category, category by category."""
    return [
        item
        for category in categories
        for item in seeded_subset(load_category(wheel, category), per_category, seed)
    ]
