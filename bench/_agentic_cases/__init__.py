"""The scripted conversations of the agentic benchmark, and how each one's effect is checked.

Cases in English (:mod:`.en`, the first thirty; :mod:`.near`, near misses) and in German,
Spanish, French and Japanese (:mod:`.de`, :mod:`.es`, :mod:`.fr`, :mod:`.ja`, built from the
shapes of :mod:`.forms`). :mod:`.script` is the shape of a case and of what each turn asks for;
:mod:`.effects` the checks of an effect. Every case has a kind and a language; the suite's
dev and held-out halves are drawn once over them (``bench/agentic_split.json``).
"""

from __future__ import annotations

from bench._agentic_cases import de, en, es, fr, ja, near
from bench._agentic_cases.effects import date_in, file_lines, file_lines_after, weekday_in
from bench._agentic_cases.script import (
    KINDS,
    LANGUAGES,
    Case,
    Check,
    Kind,
    Language,
    Outcome,
    Say,
    Script,
    TurnTrace,
)

CASES: tuple[Case, ...] = (*en.CASES, *near.CASES, *de.CASES, *es.CASES, *fr.CASES, *ja.CASES)

__all__ = [
    "CASES",
    "KINDS",
    "LANGUAGES",
    "Case",
    "Check",
    "Kind",
    "Language",
    "Outcome",
    "Say",
    "Script",
    "TurnTrace",
    "date_in",
    "file_lines",
    "file_lines_after",
    "weekday_in",
]
