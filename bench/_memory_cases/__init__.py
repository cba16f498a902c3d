"""The memory suite's data: facts told over sessions, and the questions that need them.

One JSON file per language (``en, de, es, fr, ja``): twelve sessions of five facts each, in the
order they were told. A fact may carry ``ask`` (a question in its own language, paraphrased so it
shares few words with the fact), ``x`` (``[language, question]``: the same asked in another
language) and ``replaces`` (the id of an older fact it updates: the question then wants the new
one). ``never`` lists questions whose answer was never told (the store should come back empty).
The files are hand-written test data; nothing here is generated.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
LANGUAGES = ("en", "de", "es", "fr", "ja")
#: Days between two sessions of one language (the languages' sessions interleave).
DAY_MS = 86_400_000


@dataclass(frozen=True, slots=True)
class Fact:
    id: str
    lang: str
    text: str
    #: Told at (unix ms): later sessions are newer.
    ts: int
    replaces: str | None = None


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    lang: str
    text: str
    #: The fact that answers it (None: never told).
    answer: str | None
    #: same, cross (asked in another language than the fact's), update, never.
    kind: str
    #: The older fact the answer replaced (updates only).
    stale: str | None = None
    #: The language of the answering fact.
    fact_lang: str | None = None


def load(folder: Path = HERE) -> tuple[list[Fact], list[Question]]:
    """Every fact and question, facts in the order they were told."""
    facts: list[Fact] = []
    questions: list[Question] = []
    start = 1_767_225_600_000  # 2026-01-01
    for offset, lang in enumerate(LANGUAGES):
        data = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
        for number, session in enumerate(data["sessions"]):
            ts = start + (number * len(LANGUAGES) + offset) * DAY_MS
            for item in session["facts"]:
                fact = Fact(item["id"], lang, item["text"], ts, item.get("replaces"))
                facts.append(fact)
                questions.extend(_questions(item, fact))
        for index, text in enumerate(data["never"]):
            questions.append(Question(f"never:{lang}:{index}", lang, text, None, "never"))
    facts.sort(key=lambda f: f.ts)
    return facts, questions


def _questions(item: dict[str, object], fact: Fact) -> list[Question]:
    out = []
    kind = "update" if fact.replaces else "same"
    if isinstance(item.get("ask"), str):
        out.append(
            Question(
                f"{fact.id}:ask",
                fact.lang,
                str(item["ask"]),
                fact.id,
                kind,
                fact.replaces,
                fact.lang,
            )
        )
    cross = item.get("x")
    if isinstance(cross, list) and len(cross) == 2:
        out.append(
            Question(
                f"{fact.id}:x",
                str(cross[0]),
                str(cross[1]),
                fact.id,
                "cross",
                fact.replaces,
                fact.lang,
            )
        )
    return out
