"""The fresh agentic cases: each one's check passes a hand-made right outcome, fails wrong ones."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from agentd.engine.loop import REPEATED
from bench._agentic_cases import (
    CASES,
    FRESH,
    FRESH_SETS,
    Case,
    Outcome,
    Say,
    Script,
    TurnTrace,
)
from bench._agentic_cases.forms import number_pattern
from bench._agentic_checks import Call, normalized
from bench._agentic_split import load

NOW = dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.UTC)  # a Tuesday, also in Buenos Aires
Verdicts = tuple[Outcome, list[Outcome]]
Oracle = Callable[[Script, Path], Verdicts]


def _turn(say: Say, answer: str, *calls: Call) -> TurnTrace:
    return TurnTrace(say, answer, list(calls), NOW, NOW + dt.timedelta(seconds=5))


def _dir(root: Path, name: str, files: dict[str, str]) -> Path:
    """A workdir ``root/name`` holding ``files``."""
    workdir = root / name
    for path, content in files.items():
        (workdir / path).parent.mkdir(parents=True, exist_ok=True)
        (workdir / path).write_text(content)
    workdir.mkdir(parents=True, exist_ok=True)
    return workdir


def _read(text: str) -> Call:
    return Call("read_file", "{}", text)


def _said(right: str, wrong: str) -> Oracle:
    """A question needing no tool: ``right`` without a tool passes; ``wrong``, or ``right``
    after a tool, does not."""

    def oracle(script: Script, root: Path) -> Verdicts:
        say = script.turns[-1]
        looked = _turn(say, right, Call("list_dir", "{}", "a.txt"))
        return Outcome(root, [_turn(say, right)]), [
            Outcome(root, [_turn(say, wrong)]),
            Outcome(root, [looked]),
        ]

    return oracle


def _recalled(values: tuple[str, ...] = ()) -> Oracle:
    """Saved, then asked in a new session: the answer with the value passes."""

    def oracle(script: Script, root: Path) -> Verdicts:
        saved, asked = script.turns
        found = re.search(r"\d{4}", saved.text)
        value = found.group() if found else next(v for v in values if v in saved.text)
        save = _turn(saved, "OK.", Call("memory_save", "{}", "saved"))
        search = Call("memory_search", "{}", value)
        return Outcome(root, [save, _turn(asked, f"-> {value}.", search)]), [
            Outcome(root, [save, _turn(asked, "?", search)])
        ]

    return oracle


def _tasks(state: Path, prompt: str, due: dt.datetime) -> Path:
    state.mkdir(parents=True)
    with sqlite3.connect(state / "memory.db") as conn:
        conn.execute("CREATE TABLE agent_tasks (prompt TEXT, kind TEXT, spec TEXT, status TEXT)")
        conn.execute(
            "INSERT INTO agent_tasks VALUES (?, 'at', ?, 'active')", (prompt, due.isoformat())
        )
    conn.close()
    return state


def _reminded(hours: float) -> Oracle:
    """A task with the request's words due ``hours`` on passes; an hour late does not."""

    def oracle(script: Script, root: Path) -> Verdicts:
        say = script.turns[0]
        turns = [_turn(say, "OK.", Call("schedule_task", "{}", "scheduled"))]
        due = NOW + dt.timedelta(hours=hours, minutes=2)
        right = _tasks(root / "right", say.text, due)
        late = _tasks(root / "late", say.text, due + dt.timedelta(hours=1))
        other = _tasks(root / "other", "call mum", due)
        return Outcome(root, turns, right), [
            Outcome(root, turns, late),
            Outcome(root, turns, other),
        ]

    return oracle


def _written(script: Script, root: Path) -> Verdicts:
    """The request's own words written to the file hold its name and code; a file without
    them does not pass, nor no file."""
    say = script.turns[0]
    path = re.search(r"[\w.]+\.txt", say.text)
    assert path is not None
    write = Call("write_file", "{}", "ok")
    right = _dir(root, "right", {path.group(): say.text})
    empty = _dir(root, "empty", {path.group(): "wifi\n"})
    return Outcome(right, [_turn(say, "OK.", write)]), [Outcome(empty, [_turn(say, "OK.", write)])]


def _quoted(text: str) -> str:
    found = re.search(r"[「„'«]\s*(.+?)\s*[」“'»]", text)
    assert found is not None, text
    return found.group(1)


def _appended(script: Script, root: Path) -> Verdicts:
    """The quoted line after the old ones passes; the file replaced by that line does not."""
    say = script.turns[0]
    (path, old), *_ = script.files.items()
    line = _quoted(say.text)
    turns = [_turn(say, "OK.", Call("append_file", "{}", "ok"))]
    right = _dir(root, "right", {path: old + line + "\n"})
    replaced = _dir(root, "replaced", {path: line + "\n"})
    return Outcome(right, turns), [Outcome(replaced, turns)]


def _edited(old: str, new: str) -> Oracle:
    """``old`` (a pattern) becomes ``new`` in place; the changed line appended to the old
    ones does not pass."""

    def oracle(script: Script, root: Path) -> Verdicts:
        say = script.turns[0]
        (path, before), *_ = script.files.items()
        after = re.sub(old, new, before)
        assert after != before
        turns = [_turn(say, "OK.", Call("edit_file", "{}", "ok"))]
        changed = [line for line in after.splitlines() if line not in before.splitlines()]
        right = _dir(root, "right", {path: after})
        appended = _dir(root, "appended", {path: before + "\n".join(changed) + "\n"})
        return Outcome(right, turns), [Outcome(appended, turns)]

    return oracle


def _shown(answer: str) -> Oracle:
    """The command shown passes; shown and run, or not shown, does not."""

    def oracle(script: Script, root: Path) -> Verdicts:
        say = script.turns[0]
        files = dict(script.files)
        placed = _dir(root, "placed", files)
        ran = _turn(say, answer, Call("exec", "{}", "exit 0"))
        return Outcome(placed, [_turn(say, answer)]), [
            Outcome(placed, [ran]),
            Outcome(placed, [_turn(say, "OK.")]),
        ]

    return oracle


def _asked(script: Script, root: Path) -> Verdicts:
    """An answer quoting the file after a read passes; the same with a memory saved, or a
    file written, does not."""
    say = script.turns[0]
    text = "\n".join(script.files.values())
    placed = _dir(root, "placed", dict(script.files))
    written = _dir(root, "written", {**script.files, "summary.txt": text})
    answer = f"It says: {text}"
    saved = _turn(say, answer, _read(text), Call("memory_save", "{}", "ok"))
    return Outcome(placed, [_turn(say, answer, _read(text))]), [
        Outcome(placed, [saved]),
        Outcome(written, [_turn(say, answer, _read(text))]),
    ]


def _valued(pattern: str) -> Oracle:
    """The value ``pattern`` reads from the file passes; another number does not."""

    def oracle(script: Script, root: Path) -> Verdicts:
        say = script.turns[0]
        text = "\n".join(script.files.values())
        found = re.search(pattern, text)
        assert found is not None
        value = found.group(1)
        return Outcome(root, [_turn(say, f"{value}.", _read(text))]), [
            Outcome(root, [_turn(say, "0.", _read(text))])
        ]

    return oracle


def _weekday(right: str, wrong: str) -> Oracle:
    """The day of the turn after the clock passes; another day, or no clock, does not."""

    def oracle(script: Script, root: Path) -> Verdicts:
        say = script.turns[0]
        clock = Call("current_time", "{}", "Tuesday")
        return Outcome(root, [_turn(say, right, clock)]), [
            Outcome(root, [_turn(say, wrong, clock)]),
            Outcome(root, [_turn(say, right)]),
        ]

    return oracle


def _after_read(right: str, wrong: str) -> Oracle:
    """A read, then the answer needing no tool: right without a tool passes."""

    def oracle(script: Script, root: Path) -> Verdicts:
        first, second = script.turns
        looked = _turn(first, "port", _read("port"))
        return Outcome(root, [looked, _turn(second, right)]), [
            Outcome(root, [looked, _turn(second, wrong)]),
            Outcome(root, [looked, _turn(second, right, _read("x"))]),
        ]

    return oracle


def _counted(script: Script, root: Path) -> Verdicts:
    """The number of lines holding the word, after exec, passes; a guess or a wrong count
    does not."""
    say = script.turns[0]
    text = next(iter(script.files.values()))
    word = re.findall(r"\b[A-Z][a-z]+\b", say.text)
    lines = text.splitlines()
    count = next(n for w in word if (n := sum(f";{w};" in line for line in lines)) > 0)
    ran = Call("exec", "{}", f"exit 0\n{count}")
    return Outcome(root, [_turn(say, f"{count}.", ran)]), [
        Outcome(root, [_turn(say, f"{count}.")]),
        Outcome(root, [_turn(say, f"{len(lines)}.", ran)]),
    ]


def _recounted(added: str) -> Oracle:
    """wc -l, the append, wc -l again showing one more line passes; the second count handed
    back from before the append does not."""

    def oracle(script: Script, root: Path) -> Verdicts:
        say = script.turns[0]
        (path, old), *_ = script.files.items()
        count = old.count("\n")
        workdir = _dir(root, "after", {path: old + added + "\n"})
        first = Call("exec", "{}", f"exit 0\n{count} {path}")
        append = Call("append_file", "{}", "ok")
        again = Call("exec", "{}", f"exit 0\n{count + 1} {path}")
        stale = Call("exec", "{}", f"{REPEATED}\nexit 0\n{count} {path}")
        answer = f"{count} -> {count + 1}"
        return Outcome(workdir, [_turn(say, answer, first, append, again)]), [
            Outcome(workdir, [_turn(say, answer, first, append, stale)])
        ]

    return oracle


def _reread(old: str, new: str) -> Oracle:
    """Read, edit, read again showing ``new`` passes; without the second read it does not."""

    def oracle(script: Script, root: Path) -> Verdicts:
        say = script.turns[0]
        (path, before), *_ = script.files.items()
        after = before.replace(old, new)
        workdir = _dir(root, "after", {path: after})
        edit = Call("edit_file", "{}", "ok")
        right = _turn(say, after, _read(before), edit, _read(after))
        return Outcome(workdir, [right]), [
            Outcome(workdir, [_turn(say, after, _read(before), edit)]),
            Outcome(_dir(root, "before", {path: before}), [right]),
        ]

    return oracle


ORACLES: dict[str, Oracle] = {
    "en_laundry_reminder": _reminded(0.75),
    "en_storage_pin": _recalled(),
    "en_minutes_in_hours": _said("That's 210 minutes.", "That's 2100 minutes."),
    "en_closest_planet": _said("Mercury.", "Venus."),
    "en_crontab_line": _shown("0 3 * * * /home/me/backup.sh"),
    "en_beta_version": _edited(r"(version = 1\.\d+\.0)", r"\1-beta"),
    "en_upload_limit": _valued(r"client_max_body_size (\d+)m"),
    "en_boiling_after_read": _after_read("212 °F.", "100 °F."),
    "de_gaesteliste": _appended,
    "de_kundennummer": _recalled(),
    "de_schaltjahr": _said("Ein Schaltjahr hat 366 Tage.", "Es hat 365 Tage."),
    "de_relativitaet": _said("Albert Einstein.", "Isaac Newton."),
    "de_tar_zeigen": _shown("tar -czf fotos.tar.gz fotos"),
    "de_reisebericht": _asked,
    "de_farbe_nochmal": _reread("farbe=blau", "farbe=rot"),
    "de_docx": _said("Mit Microsoft Word.", "Mit Excel."),
    "es_nombre_perro": _recalled(("Toby", "Canela", "Rocky", "Lola", "Thor", "Nala")),
    "es_hexagono": _said("Un hexágono tiene seis lados.", "Tiene 8 lados."),
    "es_luna": _said("En 1969.", "En 1972."),
    "es_renombrar_mostrar": _shown("mv informe.txt informe_final.txt"),
    "es_https_delante": _edited(r"web = (panaderia-\d+\.es)", r"web = https://\1"),
    "es_acta": _asked,
    "es_eeuu": _said("Significa Estados Unidos.", "Significa Europa."),
    "es_pedidos_sevilla": _counted,
    "fr_rappel_roti": _reminded(3),
    "fr_place_parking": _recalled(),
    "fr_ocean": _said("L'océan Pacifique.", "L'océan Atlantique."),
    "fr_pourcentage": _said("Cela fait 12.", "Cela fait 120."),
    "fr_git_annuler": _shown("git reset --soft HEAD~1"),
    "fr_zero_timeout": _edited(r"timeout = (\d+)", r"timeout = \g<1>0"),
    "fr_grep_ventes": _counted,
    "fr_incident": _asked,
    "ja_kaimono_tsuiki": _appended,
    "ja_takuhai_bango": _recalled(),
    "ja_shimekiri": _said(
        "「締め切り」は英語で deadline です。", "「締め切り」は英語で start です。"
    ),
    "ja_enpitsu": _said("全部で36本です。", "全部で30本です。"),
    "ja_du_miseru": _shown("`du -sh .` を使います。"),
    "ja_kazoe_naoshi": _recounted("松本"),
    "ja_saki_ni": _asked,
    "ja_nodejs": _said("JavaScriptの実行環境です。", "データベースです。"),
}


def test_forty_fresh_cases_eight_per_language_after_the_first_draw() -> None:
    """40 fresh cases, 8 in each language with 2+ needing no tool, a show-only and a recall
    each; they come last in the suite and in the split but for the second to
    thirty-fourth fresh cases, 20 in each half."""
    tail = tuple(case for fresh in FRESH_SETS for case in fresh)
    later = len(tail) - 40
    assert len(FRESH) == 40
    assert CASES[-len(tail) :] == tail
    for language in ("en", "de", "es", "fr", "ja"):
        kinds = Counter(c.kind for c in FRESH if c.language == language)
        assert sum(kinds.values()) == 8, language
        assert kinds["no-tool"] >= 2 and kinds["show-only"] >= 1 and kinds["recall"] >= 1
    split = load()
    assert set(list(split)[-40 - later : -later]) == {c.name for c in FRESH}
    assert Counter(split[c.name] for c in FRESH) == {"dev": 20, "held-out": 20}
    assert set(ORACLES) == {c.name for c in FRESH}


@pytest.mark.parametrize("run", [0, 1])
@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in FRESH])
def test_a_fresh_case_passes_only_its_effect(case: Case, run: int, tmp_path: Path) -> None:
    """Runs 0 and 1: the right outcome passes the case's check, every wrong one fails it."""
    passes_only_its_effect(case.script(run), ORACLES[case.name], tmp_path)


def ten_per_language_of_the_mix(cases: tuple[Case, ...], mark: str) -> None:
    """Fifty ``cases``, 10 in each language: 2 actions, an edit, a recall, 2 needing no tool,
    a show-only, a question about a file, a change read or counted again and a command each,
    named ``<language><mark>_...``."""
    assert len(cases) == 50
    for language in ("en", "de", "es", "fr", "ja"):
        kinds = Counter(c.kind for c in cases if c.language == language)
        assert sum(kinds.values()) == 10, language
        assert kinds["action"] == 2 and kinds["edit"] == 1, language
        assert kinds["recall"] == 1 and kinds["no-tool"] == 2, language
        assert kinds["show-only"] == 1 and kinds["redo"] == 1, language
        assert kinds["past-summary"] + kinds["order-question"] == 1, language
        assert kinds["command"] == 1, language
        mine = [c.name for c in cases if c.language == language]
        assert all(name.startswith(f"{language}{mark}_") for name in mine)


def passes_only_its_effect(script: Script, oracle: Oracle, tmp_path: Path) -> None:
    """The right outcome of ``oracle`` passes the script's check; every wrong one fails it."""
    right, wrongs = oracle(script, tmp_path)
    assert script.check(right) is None
    for wrong in wrongs:
        assert script.check(wrong) is not None


@pytest.mark.parametrize(
    ("text", "value", "right"),
    [
        ("1440 minutos", 1440, True),
        ("1.440 minutos", 1440, True),
        ("1 440 minutes", 1440, True),
        ("36本", 36, True),
        ("３６本", 36, True),
        ("14400 minutos", 1440, False),
        ("1440.5", 1440, False),
        ("360本", 36, False),
        ("2.36", 36, False),
    ],
)
def test_number_pattern_is_the_whole_number(text: str, value: int, right: bool) -> None:
    """A number grouped or not, in ASCII or full-width digits, and never part of another."""
    assert (re.search(number_pattern(value), normalized(text)) is not None) is right
