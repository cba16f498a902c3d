"""The tables of a run (Markdown, one per model) and its per-item files (JSON lines, CSV)."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from bench.bfcl.runner import Result

CSV_FIELDS = (
    "model",
    "mode",
    "category",
    "id",
    "correct",
    "error_type",
    "calls",
    "invalid_calls",
    "left_as_text",
    "seconds",
    "failure",
    "content",
)


@dataclass(slots=True)
class Tally:
    """Counts of one (model, mode, category) cell."""

    items: int = 0
    correct: int = 0
    calls: int = 0
    invalid: int = 0
    left_as_text: int = 0
    failures: int = 0
    seconds: float = 0.0

    def add(self, result: Result) -> None:
        self.items += 1
        self.correct += result.correct
        self.calls += len(result.calls)
        self.invalid += sum(p is not None for p in result.problems)
        self.left_as_text += result.left_as_text
        self.failures += result.failure is not None
        self.seconds += result.seconds


def tally(results: Sequence[Result], **where: str) -> Tally:
    """The counts of the results whose fields equal ``where``."""
    out = Tally()
    for result in results:
        if all(getattr(result, key) == value for key, value in where.items()):
            out.add(result)
    return out


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.0%} ({part}/{whole})" if whole else "-"


def model_table(
    results: Sequence[Result], model: str, categories: Sequence[str], modes: Sequence[str]
) -> str:
    """Rows: categories and all of them; columns: accuracy, invalid calls (of all calls) and
    answers with a call left as text, per mode."""
    header = ["category", "items"]
    header += [f"{m} accuracy" for m in modes]
    header += [f"{m} invalid calls" for m in modes]
    header += [f"{m} calls left as text" for m in modes]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for category in [*categories, None]:
        where = {"model": model} if category is None else {"model": model, "category": category}
        cells = {m: tally(results, mode=m, **where) for m in modes}
        row = ["**all**" if category is None else category, str(cells[modes[0]].items)]
        row += [_share(cells[m].correct, cells[m].items) for m in modes]
        row += [_share(cells[m].invalid, cells[m].calls) for m in modes]
        row += [_share(cells[m].left_as_text, cells[m].items) for m in modes]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def timing_line(results: Sequence[Result], model: str, modes: Sequence[str]) -> str:
    """Mean seconds per item of each mode, and failed requests if any."""
    parts = []
    for mode in modes:
        t = tally(results, model=model, mode=mode)
        mean = t.seconds / t.items if t.items else 0.0
        failed = f", {t.failures} failed requests" if t.failures else ""
        parts.append(f"{mode} {mean:.1f} s/item{failed}")
    return "; ".join(parts)


def append_jsonl(path: Path, result: Result) -> None:
    """One result per line, written as it comes (an interrupted run keeps what it has)."""
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(asdict(result), ensure_ascii=False) + "\n")


def write_csv(path: Path, results: Sequence[Result]) -> None:
    """A flat row per result (the JSON lines have the question and the accepted answers)."""
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for r in results:
            writer.writerow(
                {
                    "model": r.model,
                    "mode": r.mode,
                    "category": r.category,
                    "id": r.id,
                    "correct": int(r.correct),
                    "error_type": r.error_type,
                    "calls": json.dumps(r.calls, ensure_ascii=False),
                    "invalid_calls": "; ".join(p for p in r.problems if p is not None),
                    "left_as_text": int(r.left_as_text),
                    "seconds": f"{r.seconds:.2f}",
                    "failure": r.failure or "",
                    "content": r.content,
                }
            )


def render(
    results: Sequence[Result],
    models: Sequence[str],
    categories: Sequence[str],
    modes: Sequence[str],
    loads: dict[str, float],
) -> str:
    """A heading, the table and the timing line per model that has results."""
    parts: list[str] = []
    for model in models:
        if not any(r.model == model for r in results):
            continue
        load = f"load {loads[model]:.1f} s; " if model in loads else ""
        parts += [
            f"### {model}",
            "",
            model_table(results, model, categories, modes),
            "",
            f"{load}{timing_line(results, model, modes)}",
            "",
        ]
    return "\n".join(parts)
