"""The agentic benchmark's cases: their shape, and checks that only an effect satisfies."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bench._agentic_cases import (
    CASES,
    KINDS,
    Case,
    Outcome,
    Say,
    TurnTrace,
    date_in,
    file_lines_after,
    weekday_in,
)
from bench._agentic_checks import Call

NOW = dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.UTC)


def _trace(answer: str, calls: tuple[Call, ...] = (), start: dt.datetime = NOW) -> TurnTrace:
    return TurnTrace(Say("q"), answer, list(calls), start, start + dt.timedelta(seconds=5))


def _placed(workdir: Path, files: dict[str, str]) -> None:
    for name, content in files.items():
        (workdir / name).parent.mkdir(parents=True, exist_ok=True)
        (workdir / name).write_text(content)


def test_the_suite_has_enough_short_cases_of_every_kind() -> None:
    """20+ uniquely named cases of 1-5 turns, every kind, some multi-session and streamed."""
    assert len(CASES) >= 20
    assert len({c.name for c in CASES}) == len(CASES)
    assert {c.kind for c in CASES} == set(KINDS)
    scripts = [c.script(0) for c in CASES]
    assert all(1 <= len(s.turns) <= 5 for s in scripts)
    assert any(t.stream for s in scripts for t in s.turns)
    recalls = [s for c, s in zip(CASES, scripts, strict=True) if c.kind == "recall"]
    assert all(len({t.session for t in s.turns}) == 2 for s in recalls)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in CASES])
def test_doing_nothing_never_passes(case: Case, tmp_path: Path) -> None:
    """An agent that answers 'OK.' and calls no tool has the effect of no case."""
    script = case.script(0)
    _placed(tmp_path, dict(script.files))
    turns = [_trace("OK.") for _ in script.turns]
    assert script.check(Outcome(tmp_path, turns)) is not None


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in CASES])
def test_scripts_are_fixed_per_run(case: Case) -> None:
    """The same run gives the same script; the facts may differ between runs."""
    assert case.script(3).turns == case.script(3).turns
    assert case.script(3).files == case.script(3).files


def test_weekday_allows_a_turn_across_midnight(tmp_path: Path) -> None:
    """Either weekday of a turn that crosses midnight in the zone is right, after the tool."""
    tokyo = ZoneInfo("Asia/Tokyo")
    start = dt.datetime(2026, 12, 1, 23, 59, 58, tzinfo=tokyo).astimezone(dt.UTC)
    check = weekday_in("Asia/Tokyo")
    clock = (Call("current_time", '{"timezone": "Asia/Tokyo"}', "..."),)
    for day in ("Tuesday", "Wednesday"):
        assert check(Outcome(tmp_path, [_trace(f"It is {day}.", clock, start)])) is None
    assert check(Outcome(tmp_path, [_trace("It is Monday.", clock, start)])) is not None
    assert check(Outcome(tmp_path, [_trace("It is Tuesday.", (), start)])) is not None


@pytest.mark.parametrize(
    ("answer", "right"),
    [
        pytest.param("Today is 2026-12-01.", True, id="iso"),
        pytest.param("It's December 1st, 2026.", True, id="words"),
        pytest.param("It's November 30, 2026.", False, id="wrong-day"),
        pytest.param("It's 2025-12-01.", False, id="wrong-year"),
        pytest.param("It's December 1, 2025.", False, id="wrong-year-in-words"),
    ],
)
def test_date_in(answer: str, right: bool, tmp_path: Path) -> None:
    """The date is accepted as YYYY-MM-DD or in words, and only the right one."""
    result = date_in("UTC")(Outcome(tmp_path, [_trace(answer)]))
    assert (result is None) is right


@pytest.mark.parametrize(
    ("content", "right"),
    [
        pytest.param("- a\n- b\n- c\n", True, id="appended"),
        pytest.param("- a\n- b\n\n- C", True, id="blank-line-and-case"),
        pytest.param("- c\n", False, id="replaced"),
        pytest.param("- c\n- a\n- b\n", False, id="prepended"),
    ],
)
def test_file_lines_after(content: str, right: bool, tmp_path: Path) -> None:
    """An append keeps the old lines and puts the new one after them."""
    (tmp_path / "t.txt").write_text(content)
    result = file_lines_after("t.txt", ["- a", "- b"], "- c")(Outcome(tmp_path, [_trace("")]))
    assert (result is None) is right


def _tick_log(state_dir: Path, *tasks: tuple[str, str, str, str]) -> None:
    """A tick log holding agent tasks (prompt, kind, spec, status), as the daemon writes it."""
    import sqlite3

    state_dir.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(state_dir / "memory.db") as conn:
        conn.execute("CREATE TABLE agent_tasks (prompt TEXT, kind TEXT, spec TEXT, status TEXT)")
        conn.executemany("INSERT INTO agent_tasks VALUES (?, ?, ?, ?)", tasks)
    conn.close()


def test_a_reminder_counts_only_when_due_at_the_asked_time(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name == "remind_later")
    script = case.script(0)
    chore = script.turns[0].text.split(" to ", 1)[1].rstrip(".")
    turns = [_trace("Okay, I will remind you.")]
    due = (NOW + dt.timedelta(hours=2, minutes=1)).isoformat()
    cases = {
        "right": ((f"Remind the user to {chore}", "at", due, "active"), None),
        "wrong time": ((f"Remind the user to {chore}", "at", NOW.isoformat(), "active"), "due"),
        "cancelled": ((f"Remind the user to {chore}", "at", due, "cancelled"), "no task"),
        "other chore": (("Remind the user to sleep", "at", due, "active"), "no task"),
    }
    for name, (task, expected) in cases.items():
        state = tmp_path / name.replace(" ", "_")
        _tick_log(state, task)
        result = script.check(Outcome(tmp_path, turns, state))
        assert (result is None) if expected is None else (expected in (result or "")), name


@pytest.mark.parametrize("name", ["count_lines", "run_script"])
def test_a_command_counts_only_when_exec_ran_and_its_output_is_told(
    name: str, tmp_path: Path
) -> None:
    case = next(c for c in CASES if c.name == name)
    script = case.script(0)
    _placed(tmp_path, dict(script.files))
    if name == "count_lines":
        truth = str(script.files["data.txt"].count("\n"))
    else:
        word, number = (
            script.files["greet.sh"].split('"')[3],
            script.files["greet.sh"].split('"')[5],
        )
        truth = f"{word}-{number}"
    ran = (Call("exec", '{"command": "x"}', f"exit 0\n{truth}"),)
    assert script.check(Outcome(tmp_path, [_trace(f"It is {truth}.", ran)])) is None
    assert script.check(Outcome(tmp_path, [_trace(f"It is {truth}.")])) is not None  # a guess
    assert script.check(Outcome(tmp_path, [_trace("It is 0.", ran)])) is not None
