"""Memory quality, end-to-end half: facts told through agent turns, asked from new sessions.

For the chosen half, the questions of ``_memory_cases/e2e.json`` (a few of each kind per
language: same-language, cross-language, knowledge updates, never told) pick the facts to tell:
each answering fact, and for an update its older fact first. Every fact is told in a session of
its own, in its language, as a user asks to keep something ("Please remember this: ..."), in
the order the facts were said; then every question is asked in a new session, so only long-term
memory can answer it. The daemon is a real ``agentd run`` through its HTTP API on the default
chat model, with the packaged embedding model (the user's fetched copy).

An answer is judged by its content: right when it holds one of the question's expected words
(a name, a number, a date; case-folded), "stale" when it holds only the old value of an update,
"abstained" when it says it does not know (a marker of any of the suite's languages), else
wrong. A never-told question is right when the answer abstains. The store holds only the told
facts (~17 a half), not the retrieval half's 300: this half measures saving, recall and
answering, the retrieval half measures finding a fact among many.
"""

from __future__ import annotations

import json
import time
import unicodedata
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench._memory_cases import HERE, Fact, Question

E2E_PATH = HERE / "e2e.json"
#: How a user asks the agent to keep a fact, per language.
REMEMBER = {
    "en": "Please remember this: ",
    "de": "Bitte merk dir Folgendes: ",
    "es": "Por favor, recuerda esto: ",
    "fr": "Retiens ceci, s'il te plaît : ",
    "ja": "これを覚えておいてください。",
}
#: What an answer that does not know says (case-folded), in the suite's languages.
ABSTAIN = (
    "don't know",
    "do not know",
    "don't have",
    "do not have",
    "no information",
    "not sure",
    "haven't told",
    "have not told",
    "didn't tell",
    "not mentioned",
    "no record",
    "i don't remember",
    "weiß ich nicht",
    "weiß nicht",
    "keine information",
    "keine angabe",
    "nicht bekannt",
    "nicht erwähnt",
    "habe ich keine",
    "no lo sé",
    "no sé",
    "no tengo",
    "no dispongo",
    "no me has dicho",
    "je ne sais pas",
    "je n'ai pas",
    "aucune information",
    "pas d'information",
    "ne m'avez pas",
    "ne m'as pas",
    "わかりません",
    "分かりません",
    "知りません",
    "情報がありません",
    "情報はありません",
    "記録がありません",
    "存じません",
)

#: The daemon's log events kept per session for the report (what each turn did).
WATCHED = (
    "turn.intent",
    "turn.route",
    "turn.tools",
    "turn.end",
    "memory.recalled",
    "memory.curated",
    "tool.failed",
    "tool.timeout",
)

#: Sends one user turn in a session and returns the answer: ``(session, text) -> answer``.
Ask = Callable[[str, str], Awaitable[str]]


@dataclass(frozen=True, slots=True)
class Probe:
    """A question of the end-to-end half and the words that judge its answer."""

    question: Question
    expect: tuple[str, ...] = ()
    stale: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """A question's answer and its verdict (right, stale, abstained, wrong)."""

    probe: Probe
    answer: str
    verdict: str
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        if self.probe.question.kind == "never":
            return self.verdict == "abstained"
        return self.verdict == "right"


@dataclass(frozen=True, slots=True)
class Told:
    """A fact told in its own session, and what the agent answered."""

    fact: Fact
    session: str
    answer: str


def probes(half: str, questions: Sequence[Question], path: Path = E2E_PATH) -> list[Probe]:
    """The end-to-end questions of ``half``, in the file's order."""
    chosen = json.loads(path.read_text(encoding="utf-8"))[half]
    by_id = {q.id: q for q in questions}
    return [
        Probe(by_id[qid], tuple(spec.get("expect", ())), tuple(spec.get("stale", ())))
        for qid, spec in chosen.items()
    ]


def to_tell(chosen: Sequence[Probe], facts: Sequence[Fact]) -> list[Fact]:
    """The facts the probes need (answers, and the older facts updates replaced), in the
    order they were said."""
    wanted = {p.question.answer for p in chosen} | {p.question.stale for p in chosen}
    return sorted((f for f in facts if f.id in wanted), key=lambda f: f.ts)


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")


def abstains(answer: str) -> bool:
    """Whether ``answer`` says it does not know (or is empty)."""
    folded = _folded(answer)
    return not folded.strip() or any(marker in folded for marker in ABSTAIN)


def judge(probe: Probe, answer: str) -> str:
    """right, stale, abstained or wrong (see the module's docstring)."""
    folded = _folded(answer)
    if any(_folded(word) in folded for word in probe.expect):
        return "right"
    if any(_folded(word) in folded for word in probe.stale):
        return "stale"
    return "abstained" if abstains(answer) else "wrong"


async def play(
    ask: Ask, facts: Sequence[Fact], chosen: Sequence[Probe]
) -> tuple[list[Told], list[Outcome]]:
    """Tell the facts, each in its own session, then ask every probe in a new session."""
    told = []
    for number, fact in enumerate(to_tell(chosen, facts)):
        session = f"memq-tell-{number}"
        told.append(Told(fact, session, await ask(session, REMEMBER[fact.lang] + fact.text)))
    outcomes = []
    for number, probe in enumerate(chosen):
        start = time.perf_counter()
        answer = await ask(ask_session(number), probe.question.text)
        seconds = time.perf_counter() - start
        outcomes.append(Outcome(probe, answer, judge(probe, answer), seconds))
    return told, outcomes


def ask_session(number: int) -> str:
    """The session the ``number``-th probe is asked in."""
    return f"memq-ask-{number}"


def scores(outcomes: Sequence[Outcome]) -> dict[str, dict[str, float]]:
    """Share passed per group: answered (same- and cross-language), update, abstention, and
    per language of the question (``lang:xx``)."""
    groups: dict[str, list[Outcome]] = {"answered": [], "update": [], "abstention": []}
    for o in outcomes:
        kind = o.probe.question.kind
        name = "update" if kind == "update" else "abstention" if kind == "never" else "answered"
        groups[name].append(o)
    for o in sorted(outcomes, key=lambda o: o.probe.question.lang):
        groups.setdefault(f"lang:{o.probe.question.lang}", []).append(o)
    out: dict[str, dict[str, float]] = {}
    for name, rows in groups.items():
        if rows:
            verdicts = Counter(o.verdict for o in rows)
            out[name] = {"n": len(rows), "passed": sum(o.passed for o in rows) / len(rows)}
            out[name].update({v: float(c) for v, c in sorted(verdicts.items())})
    every = list(outcomes)
    if every:
        out["all"] = {"n": len(every), "passed": sum(o.passed for o in every) / len(every)}
    return out


def session_events(
    lines: Iterable[str], watched: Iterable[str]
) -> dict[str, list[dict[str, object]]]:
    """The ``watched`` events of the daemon's JSON log, per session (its ``http:`` dropped),
    each without the fields every line has."""
    wanted = set(watched)
    out: dict[str, list[dict[str, object]]] = {}
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict) or record.get("event") not in wanted:
            continue
        session = str(record.get("session", "")).removeprefix("http:")
        kept = {k: v for k, v in record.items() if k not in _EVERY_LINE}
        out.setdefault(session, []).append(kept)
    return out


_EVERY_LINE = frozenset(
    {"session", "principal", "tenant", "run_id", "channel", "level", "timestamp"}
)
