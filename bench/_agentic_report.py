"""The agentic suite's report: Markdown tables of the played cases, and the failures.

:func:`summary` has a row per model (effects and each fault over all turns);
:func:`by_half_and_language` a row per half and language: the share of cases with their
effect, of turns needing no tool where a tool ran, the count of acting calls no request asked
for, the share of action turns with a false claim, the share of answers whose language could
be told that are not in the case's language, and the mean model requests per turn next
to the mean minimum the turns declare; :func:`by_kind` the effect per kind of case;
:func:`requests_by_kind` what the requests were (steps, the plan question, re-asks...) and how
many turns made at most one more than their minimum.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bench._agentic_cases import KINDS, LANGUAGES
from bench._agentic_score import CaseResult


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "-"


def markdown(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table, the first column left-aligned and the others right-aligned."""
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join([":---", *["---:"] * (len(header) - 1)]) + "|")
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def summary(results: dict[str, list[CaseResult]]) -> str:
    """The table of the report: one row per model (false claims: of the turns asking for an
    action; the other flags: of all turns)."""
    header = (
        "model",
        "cases",
        "effect",
        "false claims",
        "leaked calls",
        "empty answers",
        "repeated calls",
        "repeats stopped",
        "failed turns",
        "s/turn",
    )
    rows = []
    for model, done in results.items():
        flags = [f for r in done for f in r.flags]
        turns = [t for r in done for t in r.turns]
        seconds = [s for r in done for s in r.seconds()]
        acting = [f for t, f in zip(turns, flags, strict=True) if t.say.asks]
        rows.append(
            (
                model,
                len(done),
                _pct(sum(r.effect for r in done), len(done)),
                _pct(sum(f.false_claim for f in acting), len(acting)),
                _pct(sum(f.leaked is not None for f in flags), len(flags)),
                _pct(sum(f.empty for f in flags), len(flags)),
                sum(len(f.repeated) for f in flags),
                sum(f.stopped for f in flags),
                sum(bool(t.error) for t in turns),
                f"{sum(seconds) / len(seconds):.1f}" if seconds else "-",
            )
        )
    return markdown(header, rows)


def by_kind(results: dict[str, list[CaseResult]]) -> str:
    """The effect rate per kind of case and model."""
    rows = []
    for model, done in results.items():
        cells: list[object] = [model]
        for kind in KINDS:
            of_kind = [r for r in done if r.case.kind == kind]
            cells.append(_pct(sum(r.effect for r in of_kind), len(of_kind)))
        rows.append(cells)
    return markdown(("model", *KINDS), rows)


def requests_by_kind(results: dict[str, list[CaseResult]]) -> str:
    """One row per model: the mean requests per counted turn of each kind the daemon
    counts, and the turns whose requests were at most their minimum + 1."""
    turns = {
        model: [t for r in done for t in r.turns if t.requests is not None]
        for model, done in results.items()
    }
    kinds = sorted({k for counted in turns.values() for t in counted for k in t.request_kinds})
    rows = []
    for model, counted in turns.items():
        means = [_mean([float(t.request_kinds.get(k, 0)) for t in counted]) for k in kinds]
        within = sum((t.requests or 0) <= t.say.minimum + 1 for t in counted)
        rows.append((model, *means, _pct(within, len(counted))))
    return markdown(("model", *kinds, "turns <= minimum + 1"), rows)


def failures(results: dict[str, list[CaseResult]]) -> list[str]:
    """One line per case with a missing effect or a flagged turn."""
    lines = []
    for model, done in results.items():
        for r in done:
            problems = r.problems()
            if problems:
                run = f" (run {r.run + 1})" if any(x.run for x in done) else ""
                lines.append(f"- {model} {r.case.name}{run}: {'; '.join(problems)}")
    return lines


def _mean(values: Sequence[float]) -> str:
    return f"{sum(values) / len(values):.2f}" if values else "n/a"


def half_row(half: str, language: str, done: Sequence[CaseResult]) -> tuple[object, ...]:
    """One row of :func:`by_half_and_language` for the results ``done``."""
    pairs = [(t, f) for r in done for t, f in zip(r.turns, r.flags, strict=True)]
    toolless = [f for t, f in pairs if t.say.toolless]
    acting = [f for t, f in pairs if t.say.asks]
    told = [f for _, f in pairs if f.said_in is not None]
    counted = [t for t, _ in pairs if t.requests is not None]
    minimum = [t.say.minimum for t in counted] if counted else [t.say.minimum for t, _ in pairs]
    return (
        half,
        language,
        len(done),
        _pct(sum(r.effect for r in done), len(done)),
        _pct(sum(f.tools_unneeded for f in toolless), len(toolless)),
        sum(len(f.unasked) for _, f in pairs),
        _pct(sum(f.false_claim for f in acting), len(acting)),
        _pct(sum(f.other_language for f in told), len(told)),
        _pct(sum(f.echoed for _, f in pairs), len(pairs)),
        _mean([float(t.requests or 0) for t in counted]),
        _mean([float(m) for m in minimum]),
    )


def by_half_and_language(
    done: Sequence[CaseResult], split: Mapping[str, str], halves: Sequence[str]
) -> str:
    """A row per half (``all``: every case played) and language, then the half's total."""
    header = (
        "half",
        "language",
        "cases",
        "effects",
        "tools on no-tool turns",
        "unasked acting calls",
        "false claims",
        "answers in another language",
        "answers repeating the request",
        "requests/turn",
        "minimum/turn",
    )
    rows = []
    for half in halves:
        in_half = [r for r in done if half == "all" or split.get(r.case.name) == half]
        for language in LANGUAGES:
            of_language = [r for r in in_half if r.case.language == language]
            if of_language:
                rows.append(half_row(half, language, of_language))
        if in_half:
            rows.append(half_row(half, "all", in_half))
    return markdown(header, rows)
