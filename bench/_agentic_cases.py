"""The scripted conversations of the agentic benchmark, and how each one's effect is checked.

A :class:`Case` builds a :class:`Script` for one run from a random generator (names, numbers
and dates change between runs, so a memory saved in run 1 cannot answer run 2): files placed
in the workdir first, the user's turns (some sessions open with unrelated chat; a recall case
asks in a second, new session) and a check of the effect. A check gets the :class:`Outcome`
(the workdir afterwards and every turn: answer, tool calls, times) and returns None when the
effect is there, or a one-line reason. Checks are strict on the effect and lenient on wording:
a file's content, a fact the model could only know through a tool, a memory recalled in a new
session; for a question that needs no tool, the right content and no tool call.

Kinds: ``action`` (a file written, a reminder scheduled), ``recall`` (saved to memory, recalled
in a new session), ``info`` (a fact only a tool knows: the weekday somewhere, a file's content,
the files there), ``command`` (a shell command run with ``exec``, its output in the answer) and
``no-tool`` (answerable without tools).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo

from bench._agentic_checks import Call, mentions, normalized

Kind = Literal["action", "recall", "info", "command", "no-tool"]
KINDS: tuple[Kind, ...] = ("action", "recall", "info", "command", "no-tool")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August")


@dataclass(frozen=True, slots=True)
class Say:
    """One user turn; ``session`` names the conversation (a new name is a new session)."""

    text: str
    session: str = "a"
    stream: bool = False


@dataclass(slots=True)
class TurnTrace:
    """What one turn did, as the benchmark saw it."""

    say: Say
    answer: str
    calls: list[Call]
    started: dt.datetime
    ended: dt.datetime
    error: str = ""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a check looks at: the workdir after the last turn, the turns, and the daemon's
    state dir (its tick log holds the tasks the agent scheduled)."""

    workdir: Path
    turns: Sequence[TurnTrace]
    state_dir: Path | None = None

    @property
    def last(self) -> TurnTrace:
        return self.turns[-1]


Check = Callable[[Outcome], str | None]


@dataclass(frozen=True, slots=True)
class Script:
    """A case made concrete for one run."""

    turns: tuple[Say, ...]
    check: Check
    files: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Case:
    """A named conversation of one kind; ``build`` makes its script for a run."""

    name: str
    kind: Kind
    build: Callable[[random.Random], Script]

    def script(self, run: int) -> Script:
        """The script of run ``run`` (the same for the same name and run)."""
        return self.build(random.Random(f"{self.name}:{run}"))


def _short(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")


def _listing(workdir: Path) -> str:
    names = sorted(str(p.relative_to(workdir)) for p in workdir.rglob("*") if p.is_file())
    return ", ".join(names) or "none"


def _read(outcome: Outcome, path: str) -> str | None:
    target = outcome.workdir / path
    return target.read_text(errors="replace") if target.is_file() else None


def file_has(path: str, *needles: str, absent: Sequence[str] = ()) -> Check:
    """``path`` exists and mentions every needle (and none of ``absent``)."""

    def check(outcome: Outcome) -> str | None:
        text = _read(outcome, path)
        if text is None:
            return f"no {path} (files: {_listing(outcome.workdir)})"
        for needle in needles:
            if not mentions(text, needle):
                return f"{path} lacks {needle!r}: {_short(text)}"
        for needle in absent:
            if mentions(text, needle):
                return f"{path} still has {needle!r}: {_short(text)}"
        return None

    return check


def file_is(path: str, expected: str) -> Check:
    """``path`` holds ``expected`` (surrounding blanks and quotes aside)."""

    def check(outcome: Outcome) -> str | None:
        text = _read(outcome, path)
        if text is None:
            return f"no {path} (files: {_listing(outcome.workdir)})"
        if normalized(text.strip().strip("'\"`")) != normalized(expected):
            return f"{path} is {_short(text)}, not {expected!r}"
        return None

    return check


def file_matches(path: str, pattern: str, what: str) -> Check:
    """``path`` exists and matches ``pattern`` (on the normalized text)."""

    def check(outcome: Outcome) -> str | None:
        text = _read(outcome, path)
        if text is None:
            return f"no {path} (files: {_listing(outcome.workdir)})"
        if re.search(pattern, normalized(text)) is None:
            return f"{path} lacks {what}: {_short(text)}"
        return None

    return check


def file_lines_after(path: str, kept: Sequence[str], added: str) -> Check:
    """``path`` still has the ``kept`` lines, and ``added`` comes after them."""

    def check(outcome: Outcome) -> str | None:
        text = _read(outcome, path)
        if text is None:
            return f"no {path} (files: {_listing(outcome.workdir)})"
        flat = normalized(text)
        places = [flat.find(normalized(line)) for line in kept]
        lost = [line for line, at in zip(kept, places, strict=True) if at < 0]
        if lost:
            return f"{path} lost {lost[0]!r}: {_short(text)}"
        at = flat.rfind(normalized(added))
        if at < 0:
            return f"{path} lacks {added!r}: {_short(text)}"
        if at < max(places):
            return f"{added!r} is not after the old lines: {_short(text)}"
        return None

    return check


def answer_has(*needles: str, turn: int = -1) -> Check:
    """The answer of ``turn`` mentions every needle (an alternative: ``"a|b"``)."""

    def check(outcome: Outcome) -> str | None:
        answer = outcome.turns[turn].answer
        for needle in needles:
            if not any(mentions(answer, option) for option in needle.split("|")):
                return f"answer lacks {needle!r}: {_short(answer)}"
        return None

    return check


def answer_matches(pattern: str, what: str, turn: int = -1) -> Check:
    """The answer of ``turn`` matches ``pattern`` (on the normalized text)."""

    def check(outcome: Outcome) -> str | None:
        answer = outcome.turns[turn].answer
        if re.search(pattern, normalized(answer)) is None:
            return f"answer lacks {what}: {_short(answer)}"
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
            return f"{name} did not run (tools: {used}); answer {_short(outcome.last.answer)}"
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


def weekday_in(zone: str) -> Check:
    """The answer names the weekday it was in ``zone`` during the turn, after current_time."""

    def check(outcome: Outcome) -> str | None:
        days = {m.strftime("%A") for m in _moments(outcome, zone)}
        answer = normalized(outcome.last.answer)
        if not any(re.search(rf"\b{d.lower()}\b", answer) for d in days):
            return f"answer lacks {'/'.join(sorted(days))}: {_short(outcome.last.answer)}"
        return None

    return after_tool("current_time", check)


def date_in(zone: str, path: str | None = None) -> Check:
    """The answer (or ``path``) holds the date in ``zone`` during the turn, as YYYY-MM-DD or
    in words ("December 1, 2025")."""

    def check(outcome: Outcome) -> str | None:
        text = outcome.last.answer if path is None else _read(outcome, path)
        if text is None:
            return f"no {path} (files: {_listing(outcome.workdir)})"
        flat = normalized(text)
        for moment in _moments(outcome, zone):
            if moment.strftime("%Y-%m-%d") in flat:
                return None
            month = moment.strftime("%B").lower()
            years = set(re.findall(r"\b\d{4}\b", flat))
            if (
                month in flat
                and re.search(rf"\b0?{moment.day}(st|nd|rd|th)?\b", flat)
                and years <= {str(moment.year)}
            ):
                return None
        day = _moments(outcome, zone)[0].strftime("%Y-%m-%d")
        return f"{path or 'answer'} lacks the date {day}: {_short(text)}"

    return check


UNRELATED = (
    Say("What is the capital of France? One word."),
    Say("Give me one synonym for 'happy'."),
)
NAMES = ("Ana", "Bruno", "Chen", "Dana", "Emil", "Farah", "Goran", "Hana", "Ivo", "Jun")
CITIES = ("Lisbon", "Oslo", "Krakow", "Porto", "Lyon", "Ghent", "Turin", "Bergen")
ITEMS = ("rye bread", "green apples", "coffee beans", "basil", "lemons", "rice noodles")
TEAS = ("jasmine tea", "rooibos", "sencha", "earl grey", "oolong", "chamomile")
IDEAS = ("a bike repair class", "a shared tool library", "a street piano", "a seed swap")
WORDS = ("apple", "river", "copper", "violet", "falcon", "maple", "harbor", "pepper")


def _write_note(rng: random.Random) -> Script:
    item = rng.choice(ITEMS)
    return Script(
        (Say(f"Write a note to notes.txt that says: buy oat milk and {item}.", stream=True),),
        file_has("notes.txt", "oat milk", item),
    )


def _write_hello(rng: random.Random) -> Script:
    name = rng.choice(NAMES)
    return Script(
        (Say(f"Create a file hello.txt containing exactly this text: Hello, {name}!"),),
        file_is("hello.txt", f"Hello, {name}!"),
    )


def _append_todo(rng: random.Random) -> Script:
    task = f"- book the {rng.choice(CITIES)} train"
    old = ["- call the bank", "- water the plants"]
    return Script(
        (Say(f"Append the line '{task}' to todo.txt."),),
        file_lines_after("todo.txt", old, task),
        {"todo.txt": "\n".join(old) + "\n"},
    )


def _append_after_chat(rng: random.Random) -> Script:
    entry = f"Met {rng.choice(NAMES)} about the roof"
    old = ["Mon: rain all day", "Tue: fixed the gate"]
    return Script(
        (*UNRELATED, Say(f"Add '{entry}' as a new last line of journal.txt.")),
        file_lines_after("journal.txt", old, entry),
        {"journal.txt": "\n".join(old) + "\n"},
    )


def _write_json(rng: random.Random) -> Script:
    port = rng.randint(3000, 9999)

    def check(outcome: Outcome) -> str | None:
        text = _read(outcome, "config.json")
        if text is None:
            return f"no config.json (files: {_listing(outcome.workdir)})"
        try:
            data = json.loads(text)
        except ValueError:
            return f"config.json is not JSON: {_short(text)}"
        if not isinstance(data, dict) or str(data.get("port")) != str(port):
            return f"config.json has no port {port}: {_short(text)}"
        return None

    return Script(
        (Say(f'Create config.json holding a JSON object whose key "port" is {port}.'),), check
    )


def _write_subdir(rng: random.Random) -> Script:
    idea = rng.choice(IDEAS)
    return Script(
        (Say(f"Create drafts/ideas.md with the heading '# Ideas' and one bullet point: {idea}."),),
        file_has("drafts/ideas.md", "# ideas", idea),
    )


def _edit_setting(rng: random.Random) -> Script:
    lang = rng.choice(("en", "de", "pt", "fr"))

    def check(outcome: Outcome) -> str | None:
        text = _read(outcome, "settings.ini")
        if text is None:
            return f"no settings.ini (files: {_listing(outcome.workdir)})"
        flat = normalized(text)
        for pattern in (r"theme\s*=\s*dark", rf"language\s*=\s*{lang}\b", r"font_size\s*=\s*12"):
            if re.search(pattern, flat) is None:
                return f"settings.ini lacks {pattern!r}: {_short(text)}"
        if "light" in flat:
            return f"settings.ini still says light: {_short(text)}"
        return None

    return Script(
        (
            Say(
                "In settings.ini, change the theme to dark and keep the other settings as they are."
            ),
        ),
        check,
        {"settings.ini": f"theme = light\nlanguage = {lang}\nfont_size = 12\n"},
    )


def _shopping_file(rng: random.Random) -> Script:
    x, y = rng.sample(ITEMS, 2)
    return Script(
        (
            Say("I'm cooking dinner for friends tonight."),
            Say(f"Please put this shopping list in shopping.txt: eggs, {x}, {y}."),
        ),
        file_has("shopping.txt", "eggs", x, y),
    )


def _trip_two_turns(rng: random.Random) -> Script:
    city, day = rng.choice(CITIES), rng.randint(3, 27)
    month = rng.choice(MONTHS)
    return Script(
        (
            Say(f"I'm going to {city} on {month} {day} for a conference."),
            Say("Write that trip down in trip.txt, with the city and the date."),
        ),
        both(
            file_has("trip.txt", city),
            file_matches("trip.txt", rf"\b0?{day}\b", f"the day {day}"),
        ),
    )


def _copy_file(rng: random.Random) -> Script:
    code = f"{rng.choice(WORDS)}-{rng.randint(1000, 9999)}"
    return Script(
        (Say("Copy the contents of source.txt into a new file backup.txt."),),
        file_has("backup.txt", code),
        {"source.txt": f"release code: {code}\n"},
    )


def _date_to_file(rng: random.Random) -> Script:
    return Script(
        (Say("Write today's date (UTC) into today.txt."),),
        date_in("UTC", "today.txt"),
    )


def _remember_birthday(rng: random.Random) -> Script:
    name, month, day = rng.choice(NAMES), rng.choice(MONTHS), rng.randint(2, 28)
    return Script(
        (
            Say(f"Remember that my sister {name}'s birthday is on {month} {day}."),
            Say(f"When is my sister {name}'s birthday?", session="b"),
        ),
        both(
            answer_has(month),
            answer_matches(rf"\b0?{day}(st|nd|rd|th)?\b", f"the day {day}"),
        ),
    )


def _remember_tea(rng: random.Random) -> Script:
    tea = rng.choice(TEAS)
    return Script(
        (
            *UNRELATED,
            Say(f"Please remember for the future: my favourite tea is {tea}."),
            Say("What's my favourite tea?", session="b", stream=True),
        ),
        answer_has(tea),
    )


def _remember_code(rng: random.Random) -> Script:
    city, code = rng.choice(CITIES), str(rng.randint(1000, 9999))
    return Script(
        (
            Say(
                f"Save this in your long-term memory: the door code of the {city} office is {code}."
            ),
            Say(f"What is the door code of the {city} office?", session="b"),
        ),
        answer_has(code),
    )


def _weekday_tokyo(rng: random.Random) -> Script:
    return Script(
        (Say("What day of the week is it in Tokyo right now?", stream=True),),
        weekday_in("Asia/Tokyo"),
    )


def _weekday_after_chat(rng: random.Random) -> Script:
    return Script(
        (*UNRELATED, Say("And what weekday is it now in New York?")),
        weekday_in("America/New_York"),
    )


def _utc_date(rng: random.Random) -> Script:
    return Script((Say("What is today's date in UTC?"),), date_in("UTC"))


def _read_setting(rng: random.Random) -> Script:
    timeout = rng.randint(11, 97)
    return Script(
        (Say("What is the timeout set to in app.conf?"),),
        answer_has(str(timeout)),
        {"app.conf": f"[server]\nhost = 0.0.0.0\ntimeout = {timeout}\nretries = 3\n"},
    )


def _list_files(rng: random.Random) -> Script:
    names = [f"{w}.txt" for w in rng.sample(WORDS, 2)] + [f"{rng.choice(WORDS)}_plan.md"]
    return Script(
        (Say("What files are in your workdir?"),),
        answer_has(*names),
        {name: f"{name}\n" for name in names},
    )


def _first_line(rng: random.Random) -> Script:
    first = f"The {rng.choice(WORDS)} sings at dawn"
    return Script(
        (Say("What's the first line of poem.txt?", stream=True),),
        answer_has(first),
        {"poem.txt": f"{first}\nand the sea replies\nwith salt and light\n"},
    )


def _list_then_read(rng: random.Random) -> Script:
    word, locker = rng.choice(WORDS), rng.randint(10, 99)
    return Script(
        (
            Say("Which files do you have in your workdir?"),
            Say("What does the file in the notes folder say?"),
        ),
        answer_has(word, str(locker)),
        {
            "notes/reminder.txt": f"Pick up the {word} key from locker {locker}.\n",
            "readme.md": "# My files\n",
        },
    )


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


def _remind_later(rng: random.Random) -> Script:
    chore, hours = rng.choice(("call the dentist", "water the plants", "pay the rent")), 2

    def check(outcome: Outcome) -> str | None:
        tasks = _active_tasks(outcome)
        about = [t for t in tasks if mentions(t[0], chore.split()[-1])]
        if not about:
            return f"no task about {chore!r} (tasks: {tasks or 'none'})"
        due = outcome.last.started + dt.timedelta(hours=hours)
        for _prompt, kind, spec in about:
            if kind != "at":
                continue
            when = dt.datetime.fromisoformat(spec)
            when = when if when.tzinfo else when.replace(tzinfo=dt.UTC)
            if abs((when - due).total_seconds()) <= 15 * 60:
                return None
        return f"the task about {chore!r} is not due in {hours} hours: {about}"

    return Script((Say(f"Remind me in {hours} hours to {chore}."),), check)


def _count_lines(rng: random.Random) -> Script:
    count = rng.randint(5, 14)
    lines = "".join(f"{rng.choice(WORDS)} {i}\n" for i in range(count))
    return Script(
        (Say("Run a shell command that counts the lines of data.txt, and tell me the number."),),
        after_tool("exec", answer_matches(rf"\b{count}\b", f"{count} lines")),
        {"data.txt": lines},
    )


def _run_script(rng: random.Random) -> Script:
    token = f"{rng.choice(WORDS)}-{rng.randint(100, 999)}"
    return Script(
        (Say("Run the script greet.sh with sh and tell me what it prints."),),
        after_tool("exec", answer_has(token)),
        {"greet.sh": f'printf "%s-%s\\n" "{token.split("-")[0]}" "{token.split("-")[1]}"\n'},
    )


def _two_plus_two(rng: random.Random) -> Script:
    return Script((Say("What is 2+2?"),), without_tools(answer_matches(r"\b(4|four)\b", "4")))


def _good_morning(rng: random.Random) -> Script:
    return Script(
        (Say("Translate 'good morning' into Spanish.", stream=True),),
        without_tools(answer_has("buenos dias")),
    )


def _capital(rng: random.Random) -> Script:
    return Script((Say("What is the capital of Japan?"),), without_tools(answer_has("tokyo")))


def _python_len(rng: random.Random) -> Script:
    return Script(
        (Say("In Python, what does len([1, 2, 3]) return?"),),
        without_tools(answer_matches(r"\b(3|three)\b", "3")),
    )


def _thank_you(rng: random.Random) -> Script:
    return Script(
        (Say("How do you say 'thank you' in French?"),), without_tools(answer_has("merci"))
    )


def _chat_after_tools(rng: random.Random) -> Script:
    return Script(
        (
            Say("List the files in your workdir."),
            Say("Thanks! Unrelated question: what is 7 times 8?"),
        ),
        without_tools(answer_matches(r"\b(56|fifty-six|fifty six)\b", "56")),
        {"a.txt": "a\n", "b.txt": "b\n"},
    )


CASES: tuple[Case, ...] = (
    Case("write_note", "action", _write_note),
    Case("write_hello", "action", _write_hello),
    Case("append_todo", "action", _append_todo),
    Case("append_after_chat", "action", _append_after_chat),
    Case("write_json", "action", _write_json),
    Case("write_subdir", "action", _write_subdir),
    Case("edit_setting", "action", _edit_setting),
    Case("shopping_file", "action", _shopping_file),
    Case("trip_two_turns", "action", _trip_two_turns),
    Case("copy_file", "action", _copy_file),
    Case("date_to_file", "action", _date_to_file),
    Case("remind_later", "action", _remind_later),
    Case("remember_birthday", "recall", _remember_birthday),
    Case("remember_tea", "recall", _remember_tea),
    Case("remember_code", "recall", _remember_code),
    Case("weekday_tokyo", "info", _weekday_tokyo),
    Case("weekday_after_chat", "info", _weekday_after_chat),
    Case("utc_date", "info", _utc_date),
    Case("read_setting", "info", _read_setting),
    Case("list_files", "info", _list_files),
    Case("first_line", "info", _first_line),
    Case("list_then_read", "info", _list_then_read),
    Case("count_lines", "command", _count_lines),
    Case("run_script", "command", _run_script),
    Case("two_plus_two", "no-tool", _two_plus_two),
    Case("good_morning", "no-tool", _good_morning),
    Case("capital", "no-tool", _capital),
    Case("python_len", "no-tool", _python_len),
    Case("thank_you", "no-tool", _thank_you),
    Case("chat_after_tools", "no-tool", _chat_after_tools),
)
