"""English near misses: requests that look like another kind of request.

An edit worded like an append, a question that opens like an order, a summary of text written
in the past tense, "show me, do not do it", a change followed by the same read or command in
the same turn, dotted words that are not files, and questions needing no tool after a tool
turn. Each is judged by its effect (the file changed in place, the workdir untouched, the new
content seen) and by which tools ran.
"""

from __future__ import annotations

import random

from bench._agentic_cases.effects import (
    answer_has,
    answer_matches,
    both,
    file_lines,
    file_lines_after,
    last_result,
    nothing_acted,
    unchanged,
    without_tools,
)
from bench._agentic_cases.script import EXEC, FILES, Case, Script, act, chat, look, show

NAMES = ("Ana", "Bruno", "Chen", "Dana", "Emil", "Farah", "Goran", "Hana", "Ivo", "Jun")
CITIES = ("Lisbon", "Oslo", "Krakow", "Porto", "Lyon", "Ghent", "Turin", "Bergen")
DAYS = ("Wednesday", "Thursday", "Friday")
FRUITS = ("apples", "plums", "figs", "kiwis", "cherries")


def _edit_last_line(rng: random.Random) -> Script:
    port = rng.randint(3000, 9999)
    lines = ["[app]", "name = shop", f"port = {port}", "debug=true"]
    return Script(
        (act("In the last line of config.ini change debug=true to debug=false.", FILES),),
        file_lines("config.ini", [*lines[:-1], "debug=false"]),
        {"config.ini": "\n".join(lines) + "\n"},
    )


def _add_to_first_line(rng: random.Random) -> Script:
    name = rng.choice(NAMES)
    lines = [f"- call {name}", "- water the plants"]
    return Script(
        (act("Add ' (done)' to the end of the first line of todo.txt.", FILES),),
        file_lines("todo.txt", [f"{lines[0]} (done)", lines[1]]),
        {"todo.txt": "\n".join(lines) + "\n"},
    )


def _note_question(rng: random.Random) -> Script:
    day, room = rng.choice(DAYS), rng.randint(2, 9)
    files = {"meeting.txt": f"The team meeting moved from Tuesday to {day}. Room {room}.\n"}
    return Script(
        (look("Note: the meeting notes are in meeting.txt. Which day is the meeting now?"),),
        both(answer_has(day), unchanged(files), nothing_acted()),
        files,
    )


def _keep_in_mind_question(rng: random.Random) -> Script:
    name, hour = rng.choice(NAMES), rng.randint(16, 18)
    files = {"agenda.txt": f"09:30 stand-up\n14:00 design review\n{hour}:15 1:1 with {name}\n"}
    return Script(
        (
            look(
                "Keep in mind that the times in agenda.txt are in 24-hour format"
                " — which meeting starts last?"
            ),
        ),
        both(answer_has(name), unchanged(files), nothing_acted()),
        files,
    )


def _summary_past(rng: random.Random) -> Script:
    city, name, saved = rng.choice(CITIES), rng.choice(NAMES), rng.randint(200, 900)
    files = {
        "notes.md": (
            f"# Last week\nWe moved the backup server to {city}. {name} updated the firewall"
            f" rules and wrote the release notes. We saved {saved} euros on hosting.\n"
        )
    }
    return Script(
        (look("Summarise notes.md in two sentences."),),
        both(answer_has(city), unchanged(files), nothing_acted()),
        files,
    )


def _show_example_call(rng: random.Random) -> Script:
    name = rng.choice(NAMES)
    text = (
        f"Show me an example call that would create draft.txt with the text 'hello {name}'"
        " — do not actually do it."
    )
    return Script(
        (show(text),),
        both(answer_has("draft.txt"), unchanged({}), nothing_acted()),
    )


def _show_command_only(rng: random.Random) -> Script:
    logs = rng.sample(("app", "error", "access", "debug", "cron"), 2)
    files = {f"{name}.log": f"{name} line\n" for name in logs} | {"keep.txt": "keep\n"}
    return Script(
        (chat("What command would delete all the .log files here? Just show it, don't run it."),),
        both(
            answer_matches(r"\brm\b|-delete\b", "an rm or find -delete command"),
            unchanged(files),
            nothing_acted(),
        ),
        files,
    )


def _append_then_count(rng: random.Random) -> Script:
    count = rng.randint(4, 9)
    old = [f"{rng.choice(FRUITS)} {i}" for i in range(count)]
    return Script(
        (
            act(
                "Run wc -l list.txt, then append the line 'pears' to list.txt, then run"
                " wc -l list.txt again and tell me both numbers.",
                FILES | EXEC,
                4,
            ),
        ),
        both(
            file_lines_after("list.txt", old, "pears"),
            last_result(("exec",), str(count + 1), f"{count + 1} lines"),
            answer_has(str(count + 1)),
        ),
        {"list.txt": "\n".join(old) + "\n"},
    )


def _edit_then_reread(rng: random.Random) -> Script:
    level = rng.randint(2, 9)
    return Script(
        (
            act(
                "Read mode.conf, change mode=slow to mode=fast, then read the file again"
                " and show me what it says now.",
                FILES | EXEC,
                4,
            ),
        ),
        both(
            file_lines("mode.conf", ["mode=fast", f"level={level}"]),
            last_result(("read_file", "exec"), "mode=fast", "mode=fast"),
            answer_has("mode=fast|mode = fast"),
        ),
        {"mode.conf": f"mode=slow\nlevel={level}\n"},
    )


def _what_is_eg(rng: random.Random) -> Script:
    return Script(
        (chat("What does e.g. mean?"),),
        without_tools(answer_has("for example|exempli gratia|for instance")),
    )


def _version_compare(rng: random.Random) -> Script:
    return Script(
        (chat("Is version 2.5.1 newer than version 2.10.0?"),),
        without_tools(
            answer_matches(
                r"^\W*no\b|2\.10\.0 is (the )?(newer|later|more recent|higher)",
                "that 2.10.0 is newer",
            )
        ),
    )


def _example_domain(rng: random.Random) -> Script:
    return Script(
        (chat("What is the domain example.com used for?"),),
        without_tools(answer_has("documentation|reserved|iana|rfc")),
    )


def _translate_after_read(rng: random.Random) -> Script:
    city = rng.choice(CITIES)
    return Script(
        (
            look("What's in greeting.txt?"),
            chat("Translate 'see you tomorrow' into German."),
        ),
        without_tools(answer_has("bis morgen")),
        {"greeting.txt": f"Hello from {city}!\n"},
    )


def _capital_after_time(rng: random.Random) -> Script:
    return Script(
        (
            look("What time is it in UTC right now?"),
            chat("What is the capital of Italy?"),
        ),
        without_tools(answer_has("rome|roma")),
    )


CASES: tuple[Case, ...] = (
    Case("edit_last_line", "edit", "en", _edit_last_line),
    Case("add_to_first_line", "edit", "en", _add_to_first_line),
    Case("note_question", "order-question", "en", _note_question),
    Case("keep_in_mind_question", "order-question", "en", _keep_in_mind_question),
    Case("summary_past", "past-summary", "en", _summary_past),
    Case("show_example_call", "show-only", "en", _show_example_call),
    Case("show_command_only", "show-only", "en", _show_command_only),
    Case("append_then_count", "redo", "en", _append_then_count),
    Case("edit_then_reread", "redo", "en", _edit_then_reread),
    Case("what_is_eg", "dotted", "en", _what_is_eg),
    Case("version_compare", "dotted", "en", _version_compare),
    Case("example_domain", "dotted", "en", _example_domain),
    Case("translate_after_read", "after-tool", "en", _translate_after_read),
    Case("capital_after_time", "after-tool", "en", _capital_after_time),
)
