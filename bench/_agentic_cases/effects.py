"""How a case's effect is checked: the workdir's files, the answer, the tools that ran.

A check gets the :class:`Outcome` (the workdir afterwards and every turn: answer, tool calls,
times) and returns None when the effect is there, or a one-line reason. Checks are strict on
the effect and lenient on wording, and where they read words they accept every language of
the suite (a weekday or a month in English, German, Spanish, French, Japanese or Chinese):
the answer's language is the model's choice.
"""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections.abc import Mapping, Sequence
from contextlib import closing
from pathlib import Path
from zoneinfo import ZoneInfo

from bench._agentic_cases.script import Check, Outcome
from bench._agentic_checks import acting, mentions, normalized, ran

#: Monday first; Latin-script names are compared normalized (no accents, lower case).
WEEKDAY_NAMES: tuple[tuple[str, ...], ...] = (
    ("monday", "montag", "lunes", "lundi", "月曜", "星期一", "周一", "礼拜一"),
    ("tuesday", "dienstag", "martes", "mardi", "火曜", "星期二", "周二", "礼拜二"),
    ("wednesday", "mittwoch", "miercoles", "mercredi", "水曜", "星期三", "周三", "礼拜三"),
    ("thursday", "donnerstag", "jueves", "jeudi", "木曜", "星期四", "周四", "礼拜四"),
    ("friday", "freitag", "viernes", "vendredi", "金曜", "星期五", "周五", "礼拜五"),
    ("saturday", "samstag", "sonnabend", "sabado", "samedi", "土曜", "星期六", "周六", "礼拜六"),
    ("sunday", "sonntag", "domingo", "dimanche", "日曜", "星期日", "星期天", "周日", "礼拜天"),
)
#: January first, Latin-script month names, normalized.
MONTH_NAMES: tuple[tuple[str, ...], ...] = (
    ("january", "januar", "janner", "enero", "janvier"),
    ("february", "februar", "febrero", "fevrier"),
    ("march", "marz", "marzo", "mars"),
    ("april", "abril", "avril"),
    ("may", "mai", "mayo"),
    ("june", "juni", "junio", "juin"),
    ("july", "juli", "julio", "juillet"),
    ("august", "agosto", "aout"),
    ("september", "septiembre", "setiembre", "septembre"),
    ("october", "oktober", "octubre", "octobre"),
    ("november", "noviembre", "novembre"),
    ("december", "dezember", "diciembre", "decembre"),
)


def short(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")


def listing(workdir: Path) -> str:
    names = sorted(str(p.relative_to(workdir)) for p in workdir.rglob("*") if p.is_file())
    return ", ".join(names) or "none"


def read_text(outcome: Outcome, path: str) -> str | None:
    target = outcome.workdir / path
    return target.read_text(errors="replace") if target.is_file() else None


def file_has(path: str, *needles: str, absent: Sequence[str] = ()) -> Check:
    """``path`` exists and mentions every needle (and none of ``absent``)."""

    def check(outcome: Outcome) -> str | None:
        text = read_text(outcome, path)
        if text is None:
            return f"no {path} (files: {listing(outcome.workdir)})"
        for needle in needles:
            if not mentions(text, needle):
                return f"{path} lacks {needle!r}: {short(text)}"
        for needle in absent:
            if mentions(text, needle):
                return f"{path} still has {needle!r}: {short(text)}"
        return None

    return check


def file_is(path: str, expected: str) -> Check:
    """``path`` holds ``expected`` (surrounding blanks and quotes aside)."""

    def check(outcome: Outcome) -> str | None:
        text = read_text(outcome, path)
        if text is None:
            return f"no {path} (files: {listing(outcome.workdir)})"
        if normalized(text.strip().strip("'\"`")) != normalized(expected):
            return f"{path} is {short(text)}, not {expected!r}"
        return None

    return check


def file_matches(path: str, pattern: str, what: str) -> Check:
    """``path`` exists and matches ``pattern`` (on the normalized text)."""

    def check(outcome: Outcome) -> str | None:
        text = read_text(outcome, path)
        if text is None:
            return f"no {path} (files: {listing(outcome.workdir)})"
        if re.search(pattern, normalized(text)) is None:
            return f"{path} lacks {what}: {short(text)}"
        return None

    return check


def file_lines_after(path: str, kept: Sequence[str], added: str) -> Check:
    """``path`` still has the ``kept`` lines, and ``added`` comes after them."""

    def check(outcome: Outcome) -> str | None:
        text = read_text(outcome, path)
        if text is None:
            return f"no {path} (files: {listing(outcome.workdir)})"
        flat = normalized(text)
        places = [flat.find(normalized(line)) for line in kept]
        lost = [line for line, at in zip(kept, places, strict=True) if at < 0]
        if lost:
            return f"{path} lost {lost[0]!r}: {short(text)}"
        at = flat.rfind(normalized(added))
        if at < 0:
            return f"{path} lacks {added!r}: {short(text)}"
        if at < max(places):
            return f"{added!r} is not after the old lines: {short(text)}"
        return None

    return check


def answer_has(*needles: str, turn: int = -1) -> Check:
    """The answer of ``turn`` mentions every needle (an alternative: ``"a|b"``)."""

    def check(outcome: Outcome) -> str | None:
        answer = outcome.turns[turn].answer
        for needle in needles:
            if not any(mentions(answer, option) for option in needle.split("|")):
                return f"answer lacks {needle!r}: {short(answer)}"
        return None

    return check


def answer_matches(pattern: str, what: str, turn: int = -1) -> Check:
    """The answer of ``turn`` matches ``pattern`` (on the normalized text)."""

    def check(outcome: Outcome) -> str | None:
        answer = outcome.turns[turn].answer
        if re.search(pattern, normalized(answer)) is None:
            return f"answer lacks {what}: {short(answer)}"
        return None

    return check


def without_tools(inner: Check) -> Check:
    """``inner``, and the last turn called no tool."""

    def check(outcome: Outcome) -> str | None:
        if outcome.last.calls:
            return "a tool was called: " + ", ".join(c.name for c in outcome.last.calls)
        return inner(outcome)

    return check


def after_tool(name: str, inner: Check) -> Check:
    """``inner``, and ``name`` ran without failing in the last turn (a guess is no effect)."""

    def check(outcome: Outcome) -> str | None:
        if not any(c.name == name and not c.failed for c in outcome.last.calls):
            used = ", ".join(c.name for c in outcome.last.calls) or "none"
            return f"{name} did not run (tools: {used}); answer {short(outcome.last.answer)}"
        return inner(outcome)

    return check


def both(*checks: Check) -> Check:
    def check(outcome: Outcome) -> str | None:
        return next((r for c in checks if (r := c(outcome)) is not None), None)

    return check


def _moments(outcome: Outcome, zone: str) -> list[dt.datetime]:
    """The last turn's start and end in ``zone``: a turn may cross midnight."""
    tz = ZoneInfo(zone)
    return [outcome.last.started.astimezone(tz), outcome.last.ended.astimezone(tz)]


def _names_day(text: str, names: Sequence[str]) -> bool:
    """``text`` (normalized) names one of ``names``: a whole word, or anywhere for CJK."""
    for name in names:
        if name.isascii():
            if re.search(rf"\b{name}\b", text):
                return True
        elif name in text:
            return True
    return False


def weekday_in(zone: str) -> Check:
    """The answer names the weekday it was in ``zone`` during the turn (in any language of the
    suite), after current_time."""

    def check(outcome: Outcome) -> str | None:
        days = {m.weekday() for m in _moments(outcome, zone)}
        answer = normalized(outcome.last.answer)
        if not any(_names_day(answer, WEEKDAY_NAMES[d]) for d in days):
            names = "/".join(sorted(WEEKDAY_NAMES[d][0] for d in days))
            return f"answer lacks {names}: {short(outcome.last.answer)}"
        return None

    return after_tool("current_time", check)


def _has_date(flat: str, moment: dt.datetime) -> bool:
    """``flat`` (normalized) holds the day of ``moment``: ISO, 2026年12月1日, 1.12.2026,
    1/12/2026, or in words in a suite language ("December 1, 2026", "1. Dezember 2026")."""
    y, m, d = moment.year, moment.month, moment.day
    numeric = (  # digits next to CJK text have no word boundary: look at digits only
        rf"(?<!\d){y}-{m:02d}-{d:02d}(?!\d)",
        rf"(?<!\d)0?{d}\s*[./]\s*0?{m}\s*[./]\s*{y}(?!\d)",
        rf"(?<!\d){y}/0?{m}/0?{d}(?!\d)",
    )
    if any(re.search(p, flat) for p in numeric):
        return True
    years = set(re.findall(r"(?<!\d)\d{4}(?!\d)", flat))
    if re.search(rf"(?<!\d)0?{m}\s*月\s*0?{d}\s*[日号]", flat):
        return years <= {str(y)}
    named = any(re.search(rf"\b{name}\b", flat) for name in MONTH_NAMES[m - 1])
    day = re.search(rf"\b0?{d}(st|nd|rd|th|er|\.)?(?!\d)", flat)
    return named and day is not None and years <= {str(y)}


def date_in(zone: str, path: str | None = None) -> Check:
    """The answer (or ``path``) holds the date in ``zone`` during the turn (:func:`_has_date`)."""

    def check(outcome: Outcome) -> str | None:
        text = outcome.last.answer if path is None else read_text(outcome, path)
        if text is None:
            return f"no {path} (files: {listing(outcome.workdir)})"
        flat = normalized(text)
        if any(_has_date(flat, moment) for moment in _moments(outcome, zone)):
            return None
        day = _moments(outcome, zone)[0].strftime("%Y-%m-%d")
        return f"{path or 'answer'} lacks the date {day}: {short(text)}"

    return check


def unchanged(files: Mapping[str, str]) -> Check:
    """The workdir holds exactly ``files`` as they were placed: nothing written or removed."""

    def check(outcome: Outcome) -> str | None:
        now = sorted(str(p.relative_to(outcome.workdir)) for p in outcome.workdir.rglob("*"))
        now = [name for name in now if (outcome.workdir / name).is_file()]
        if now != sorted(files):
            return f"the workdir changed (files: {listing(outcome.workdir)})"
        for name, content in files.items():
            if read_text(outcome, name) != content:
                return f"{name} changed: {short(read_text(outcome, name) or '')}"
        return None

    return check


def nothing_acted(turn: int = -1) -> Check:
    """No acting tool (anything but a tool that only looks, or a command held read-only)
    was called in ``turn``."""

    def check(outcome: Outcome) -> str | None:
        acted = [c.name for c in outcome.turns[turn].calls if acting(c)]
        return f"an acting tool ran: {', '.join(acted)}" if acted else None

    return check


def file_lines(path: str, expected: Sequence[str]) -> Check:
    """``path``'s non-blank lines are ``expected`` (spaces around ``=`` and case aside): a
    line changed in place, nothing appended or lost."""

    def flat(line: str) -> str:
        return re.sub(r"\s*=\s*", "=", normalized(line))

    def check(outcome: Outcome) -> str | None:
        text = read_text(outcome, path)
        if text is None:
            return f"no {path} (files: {listing(outcome.workdir)})"
        lines = [flat(line) for line in text.splitlines() if line.strip()]
        if lines != [flat(line) for line in expected]:
            return f"{path} is {short(text)}, not {short(chr(10).join(expected))}"
        return None

    return check


def last_result(names: Sequence[str], needle: str, what: str) -> Check:
    """The last call of one of ``names`` in the last turn ran (not answered with an earlier
    result) and shows ``needle``: a read or command after a change sees the new content."""

    def check(outcome: Outcome) -> str | None:
        done = [c for c in outcome.last.calls if c.name in names and ran(c)]
        if not done:
            return f"{'/'.join(names)} did not run after the change"
        if not mentions(done[-1].result, needle):
            return f"the last {done[-1].name} does not show {what}: {short(done[-1].result)}"
        return None

    return check


def task_due(hours: float, *about: str) -> Check:
    """An active one-off task due ``hours`` after the turn began (15 minutes either way) whose
    prompt mentions one of ``about`` (the words of the request in any language)."""

    def check(outcome: Outcome) -> str | None:
        tasks = _active_tasks(outcome)
        near = [t for t in tasks if any(mentions(t[0], word) for word in about)]
        if not near:
            return f"no task about {'/'.join(about)!r} (tasks: {tasks or 'none'})"
        due = outcome.last.started + dt.timedelta(hours=hours)
        for _prompt, kind, spec in near:
            if kind != "at":
                continue
            when = dt.datetime.fromisoformat(spec)
            when = when if when.tzinfo else when.replace(tzinfo=dt.UTC)
            if abs((when - due).total_seconds()) <= 15 * 60:
                return None
        return f"the task about {about[0]!r} is not due in {hours} hours: {near}"

    return check


def _active_tasks(outcome: Outcome) -> list[tuple[str, str, str]]:
    """(prompt, kind, spec) of the agent's active tasks in the daemon's tick log."""
    db = None if outcome.state_dir is None else outcome.state_dir / "memory.db"
    if db is None or not db.is_file():
        return []
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as conn:
        rows = conn.execute(
            "SELECT prompt, kind, spec FROM agent_tasks WHERE status = 'active'"
        ).fetchall()
    return [(str(p), str(k), str(v)) for p, k, v in rows]
