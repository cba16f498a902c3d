"""The agentic benchmark's cases: their shape, and checks that only an effect satisfies."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agentd.engine.loop import REPEATED
from agentd.tools.exec import READ_ONLY_NOTE
from bench._agentic_cases import (
    CASES,
    KINDS,
    LANGUAGES,
    Case,
    Outcome,
    Say,
    TurnTrace,
    date_in,
    file_lines,
    file_lines_after,
    weekday_in,
)
from bench._agentic_cases.effects import nothing_acted
from bench._agentic_cases.script import CANCEL, EXEC, FILES, SAVE, SCHEDULE
from bench._agentic_checks import Call

ACTING = FILES | EXEC | SAVE | SCHEDULE | CANCEL

NOW = dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.UTC)


def _trace(answer: str, calls: tuple[Call, ...] = (), start: dt.datetime = NOW) -> TurnTrace:
    return TurnTrace(Say("q"), answer, list(calls), start, start + dt.timedelta(seconds=5))


def _placed(workdir: Path, files: dict[str, str]) -> None:
    for name, content in files.items():
        (workdir / name).parent.mkdir(parents=True, exist_ok=True)
        (workdir / name).write_text(content)


def test_the_suite_has_enough_short_cases_of_every_kind() -> None:
    """80+ uniquely named cases of 1-5 turns, every kind, some multi-session and streamed."""
    assert len(CASES) >= 80
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


NEAR_MISSES = ("edit", "order-question", "past-summary", "show-only", "redo", "dotted")


def test_every_language_has_its_share_and_the_near_misses_are_in_several() -> None:
    """12+ cases in German, Spanish, French and Japanese or Chinese; each near-miss kind and
    the questions after a tool turn in English and in another language."""
    count = Counter(c.language for c in CASES)
    assert all(c.language in LANGUAGES for c in CASES)
    assert min(count["de"], count["es"], count["fr"], max(count["ja"], count["zh"])) >= 12
    for kind in (*NEAR_MISSES, "after-tool"):
        languages = {c.language for c in CASES if c.kind == kind}
        assert "en" in languages and len(languages) >= 2, kind


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in CASES])
def test_every_turn_declares_what_it_asks_for(case: Case) -> None:
    """A turn needing no tool asks for no action and needs one request; an action needs a
    tool step and the answer; asked tools are acting tools."""
    for say in case.script(0).turns:
        assert say.minimum >= 1
        assert say.asks <= ACTING, say.asks
        if say.toolless:
            assert not say.asks and say.minimum == 1, say.text
        if say.asks:
            assert say.minimum >= 2, say.text
        if say.shows_call:
            assert say.toolless, say.text


def _case(name: str) -> Case:
    return next(c for c in CASES if c.name == name)


def _with(say: Say, answer: str, *calls: Call) -> TurnTrace:
    return TurnTrace(say, answer, list(calls), NOW, NOW + dt.timedelta(seconds=5))


@pytest.mark.parametrize("name", ["edit_last_line", "de_letzte_zeile", "ja_henshu"])
def test_an_edit_worded_like_an_append_counts_only_in_place(name: str, tmp_path: Path) -> None:
    """The last line changed passes; the same change appended (a copy of the lines after the
    old ones) does not."""
    script = _case(name).script(0)
    (path, old), *_ = script.files.items()
    lines = old.splitlines()
    edit = (Call("edit_file", "{}", "ok"),)
    turn = [_with(script.turns[0], "Done.", *edit)]
    (tmp_path / path).write_text("\n".join([*lines[:-1], "debug = false"]) + "\n")
    assert script.check(Outcome(tmp_path, turn)) is None
    (tmp_path / path).write_text(old + "\n".join([*lines[:-1], "debug=false"]) + "\n")
    assert script.check(Outcome(tmp_path, turn)) is not None


@pytest.mark.parametrize("name", ["summary_past", "es_resumen", "ja_youyaku", "note_question"])
def test_a_question_about_a_file_passes_only_untouched(name: str, tmp_path: Path) -> None:
    """The right answer after a read passes; with a save or a written file it does not."""
    script = _case(name).script(0)
    _placed(tmp_path, dict(script.files))
    text = next(iter(script.files.values()))
    read = Call("read_file", "{}", text)
    right = [_with(script.turns[0], f"It says: {text}", read)]
    assert script.check(Outcome(tmp_path, right)) is None
    saved = [_with(script.turns[0], f"It says: {text}", read, Call("memory_save", "{}", "ok"))]
    assert "acting tool" in (script.check(Outcome(tmp_path, saved)) or "")
    (tmp_path / "summary.txt").write_text(text)
    assert "workdir changed" in (script.check(Outcome(tmp_path, right)) or "")


@pytest.mark.parametrize("name", ["show_command_only", "de_nur_zeigen", "fr_montrer"])
def test_show_dont_do_passes_only_when_nothing_ran(name: str, tmp_path: Path) -> None:
    """The command shown passes; running it (files gone, exec ran) does not."""
    script = _case(name).script(0)
    _placed(tmp_path, dict(script.files))
    turn = [_with(script.turns[0], "Use: rm *.log")]
    assert script.check(Outcome(tmp_path, turn)) is None
    ran = [_with(script.turns[0], "Use: rm *.log", Call("exec", "{}", "exit 0"))]
    assert script.check(Outcome(tmp_path, ran)) is not None
    for log in tmp_path.glob("*.log"):
        log.unlink()
    assert script.check(Outcome(tmp_path, turn)) is not None


@pytest.mark.parametrize("name", ["append_then_count", "de_anhaengen_zaehlen", "ja_tsuika_kazoeru"])
def test_a_count_after_an_append_must_run_again(name: str, tmp_path: Path) -> None:
    """The second wc -l after the append shows one more line; the earlier result handed back
    as a repeat does not count."""
    script = _case(name).script(0)
    (path, old), *_ = script.files.items()
    count = old.count("\n")
    added = {"append_then_count": "pears", "de_anhaengen_zaehlen": "Birnen"}.get(name, "りんご")
    (tmp_path / path).write_text(old + added + "\n")
    first = Call("exec", "{}", f"exit 0\n{count} {path}")
    append = Call("append_file", "{}", "ok")
    again = Call("exec", "{}", f"exit 0\n{count + 1} {path}")
    answer = f"{count}, then {count + 1}"
    right = [_with(script.turns[0], answer, first, append, again)]
    assert script.check(Outcome(tmp_path, right)) is None
    stale = Call("exec", "{}", f"{REPEATED}\nexit 0\n{count} {path}")
    repeated = [_with(script.turns[0], answer, first, append, stale)]
    assert script.check(Outcome(tmp_path, repeated)) is not None


def test_a_read_after_an_edit_must_show_the_new_text(tmp_path: Path) -> None:
    """fr_relire: the second read shows mode=rapide; a read from before the edit does not."""
    script = _case("fr_relire").script(0)
    old = script.files["mode.conf"]
    (tmp_path / "mode.conf").write_text(old.replace("lent", "rapide"))
    before = Call("read_file", "{}", old)
    edit = Call("edit_file", "{}", "ok")
    after = Call("read_file", "{}", old.replace("lent", "rapide"))
    assert (
        script.check(Outcome(tmp_path, [_with(script.turns[0], "ok", before, edit, after)])) is None
    )
    assert script.check(Outcome(tmp_path, [_with(script.turns[0], "ok", before, edit)])) is not None


@pytest.mark.parametrize(
    ("answer", "right"),
    [
        pytest.param("Heute ist Dienstag.", True, id="de"),
        pytest.param("Hoy es martes.", True, id="es"),
        pytest.param("Nous sommes mardi.", True, id="fr"),
        pytest.param("今日は火曜日です。", True, id="ja"),
        pytest.param("今天是星期二。", True, id="zh"),
        pytest.param("Heute ist Mittwoch.", False, id="de-wrong"),
        pytest.param("今日は水曜日です。", False, id="ja-wrong"),
    ],
)
def test_the_weekday_is_read_in_every_language(answer: str, right: bool, tmp_path: Path) -> None:
    """2026-12-01 10:00 UTC is a Tuesday in London, in any of the suite's languages."""
    clock = (Call("current_time", "{}", "..."),)
    result = weekday_in("Europe/London")(Outcome(tmp_path, [_trace(answer, clock)]))
    assert (result is None) is right


@pytest.mark.parametrize(
    ("answer", "right"),
    [
        pytest.param("Heute ist der 1. Dezember 2026.", True, id="de"),
        pytest.param("Hoy es 1 de diciembre de 2026.", True, id="es"),
        pytest.param("Nous sommes le 1er décembre 2026.", True, id="fr"),
        pytest.param("今日は2026年12月1日です。", True, id="ja"),
        pytest.param("今天是12月1日。", True, id="zh-no-year"),
        pytest.param("Heute ist der 01.12.2026.", True, id="dotted"),
        pytest.param("今日は2026年12月2日です。", False, id="ja-wrong-day"),
        pytest.param("Hoy es 1 de noviembre de 2026.", False, id="es-wrong-month"),
    ],
)
def test_the_date_is_read_in_every_language(answer: str, right: bool, tmp_path: Path) -> None:
    """The day is accepted in each language's usual forms, and only the right one."""
    assert (date_in("UTC")(Outcome(tmp_path, [_trace(answer)])) is None) is right


def test_file_lines_wants_the_line_changed_in_place(tmp_path: Path) -> None:
    """Spaces around = and case aside, the lines must be exactly the expected ones."""
    check = file_lines("c.ini", ["a = 1", "debug=false"])
    (tmp_path / "c.ini").write_text("a=1\nDEBUG = false\n")
    assert check(Outcome(tmp_path, [_trace("")])) is None
    (tmp_path / "c.ini").write_text("a=1\ndebug=true\ndebug=false\n")
    assert check(Outcome(tmp_path, [_trace("")])) is not None


@pytest.mark.parametrize("answer", ['"etc." significa "etcetera".', '"etc." es "et cetera".'])
def test_es_etc_takes_et_cetera_in_one_word_or_two(answer: str, tmp_path: Path) -> None:
    """es_etc's check passes "etcetera" and "et cetera" (its needles are words, not patterns)."""
    script = next(c for c in CASES if c.name == "es_etc").script(0)
    assert script.check(Outcome(tmp_path, [_trace(answer)])) is None


def test_a_command_held_read_only_is_no_action(tmp_path: Path) -> None:
    """A summary's turn may read and run a command held read-only (it changed nothing); a
    command with the workdir writable, or a write, is an action."""
    check = nothing_acted()
    read = Call("read_file", "{}", "text")
    held = Call("exec", "{}", f"{READ_ONLY_NOTE}\nexit status: 0")
    assert check(Outcome(tmp_path, [_trace("It says...", (read, held))])) is None
    loose = Call("exec", "{}", "exit status: 0")
    assert check(Outcome(tmp_path, [_trace("It says...", (loose,))])) is not None
    write = Call("write_file", "{}", "wrote 3 characters")
    assert check(Outcome(tmp_path, [_trace("It says...", (write,))])) is not None
