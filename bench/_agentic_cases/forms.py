"""Case shapes shared by the languages: the request's words are a language's, the check is not.

Each form takes the request as a template and returns the ``build`` of a :class:`Case`. The
templates are filled from a run's random facts (:func:`facts`: ``{name}``, ``{code}`` a
four-digit number, ``{n}`` a number from 11 to 97, ``{hour}`` from 16 to 18), so the checks
look for what does not depend on the language: a number or a name in a file or an answer, a
line changed in place, a task due at the asked time, the workdir untouched, which tools ran.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence

from bench._agentic_cases.effects import (
    after_tool,
    answer_has,
    answer_matches,
    both,
    file_has,
    file_lines,
    file_lines_after,
    last_result,
    nothing_acted,
    task_due,
    unchanged,
    weekday_in,
    without_tools,
)
from bench._agentic_cases.script import (
    EXEC,
    FILES,
    SAVE,
    SCHEDULE,
    Script,
    act,
    chat,
    look,
    show,
)

Build = Callable[[random.Random], Script]
NAMES = ("Ana", "Bruno", "Chen", "Dana", "Emil", "Farah", "Goran", "Hana", "Ivo", "Jun")


def facts(rng: random.Random, names: Sequence[str] = NAMES) -> dict[str, str]:
    """The random facts of one run that a template may use."""
    return {
        "name": rng.choice(names),
        "code": str(rng.randint(1000, 9999)),
        "n": str(rng.randint(11, 97)),
        "hour": str(rng.randint(16, 18)),
    }


def _fill(template: str, f: Mapping[str, str]) -> str:
    return template.format_map(f)


def _files(files: Mapping[str, str], f: Mapping[str, str]) -> dict[str, str]:
    return {path: _fill(text, f) for path, text in files.items()}


def write_file(
    text: str, path: str, *, names: Sequence[str] = NAMES, stream: bool = False
) -> Build:
    """A file written whose content holds the ``{name}`` and ``{code}`` the request gives."""

    def build(rng: random.Random) -> Script:
        f = facts(rng, names)
        say = act(_fill(text, f), FILES, stream=stream)
        return Script((say,), file_has(path, f["name"], f["code"]))

    return build


def append_line(text: str, path: str, old: Sequence[str], line: str) -> Build:
    """``line`` (a template) appended to ``path`` after its ``old`` lines."""

    def build(rng: random.Random) -> Script:
        f = facts(rng)
        added = _fill(line, f)
        say = act(_fill(text, {**f, "line": added}), FILES)
        return Script((say,), file_lines_after(path, old, added), {path: "\n".join(old) + "\n"})

    return build


def remember(save: str, ask: str, values: Sequence[str] = (), *, stream: bool = False) -> Build:
    """A fact saved to memory, asked for in a new session: ``{value}`` is one of ``values``
    (else the run's ``{code}``), and the answer must hold it."""

    def build(rng: random.Random) -> Script:
        f = facts(rng)
        f["value"] = rng.choice(values) if values else f["code"]
        return Script(
            (
                act(_fill(save, f), SAVE),
                look(_fill(ask, f), 1, session="b", stream=stream),
            ),
            answer_has(f["value"]),
        )

    return build


def weekday(text: str, zone: str, *, stream: bool = False) -> Build:
    """The weekday now in ``zone``, from the clock tool."""

    def build(rng: random.Random) -> Script:
        return Script((look(text, stream=stream),), weekday_in(zone))

    return build


def remind(text: str, hours: float, *about: str) -> Build:
    """A one-off task due in ``hours``, about one of the words ``about``."""

    def build(rng: random.Random) -> Script:
        return Script((act(text, SCHEDULE),), task_due(hours, *about))

    return build


def read_value(text: str, path: str, content: str) -> Build:
    """A question whose answer is the ``{n}`` in ``path`` (``content``, a template)."""

    def build(rng: random.Random) -> Script:
        f = facts(rng)
        files = _files({path: content}, f)
        return Script((look(_fill(text, f)),), answer_has(f["n"]), files)

    return build


def count_lines(text: str, path: str) -> Build:
    """A shell command run with ``exec`` counting ``path``'s lines; the answer says how many."""

    def build(rng: random.Random) -> Script:
        count = rng.randint(5, 14)
        lines = "".join(f"{rng.choice(NAMES)} {i}\n" for i in range(count))
        return Script(
            (act(text, EXEC),),
            after_tool("exec", answer_matches(rf"(?<!\d){count}(?!\d)", f"{count} lines")),
            {path: lines},
        )

    return build


def words(text: str, *answers: str, stream: bool = False) -> Build:
    """A question answered without any tool; the answer holds each of ``answers`` ("a|b": one
    of them)."""

    def build(rng: random.Random) -> Script:
        return Script((chat(text, stream=stream),), without_tools(answer_has(*answers)))

    return build


def words_matching(text: str, pattern: str, what: str, *, stream: bool = False) -> Build:
    """A question answered without any tool; the answer matches ``pattern`` (for an answer a
    plain needle cannot tell: 京都 is also in 東京都)."""

    def build(rng: random.Random) -> Script:
        return Script((chat(text, stream=stream),), without_tools(answer_matches(pattern, what)))

    return build


def number_pattern(value: int) -> str:
    """``value`` as a whole number, its thousands grouped or not ("1440", "1.440", "1 440")."""
    digits = str(value)
    head, rest = digits[: len(digits) % 3 or 3], digits[len(digits) % 3 or 3 :]
    groups = [rest[i : i + 3] for i in range(0, len(rest), 3)]
    grouped = r"[,.' \u202f\u00a0]?".join([head, *groups])
    return rf"(?<![\d.,]){grouped}(?!\d|[.,]\d)"


def number(text: str, value: int, *spelled: str, stream: bool = False) -> Build:
    """A question answered without any tool with the number ``value``: in digits (not part of
    a longer number) or spelled as one of ``spelled`` (the words in a suite language)."""
    words = [re.escape(w) if not w.isascii() else rf"\b{re.escape(w)}\b" for w in spelled]
    pattern = "|".join([number_pattern(value), *words])

    def build(rng: random.Random) -> Script:
        return Script(
            (chat(text, stream=stream),), without_tools(answer_matches(pattern, str(value)))
        )

    return build


def grep_count(text: str, path: str, word: str, others: Sequence[str]) -> Build:
    """A shell command run with ``exec`` counting the lines of ``path`` that hold ``word``
    (the others hold one of ``others``); the answer says how many."""

    def build(rng: random.Random) -> Script:
        lines = [word] * rng.randint(3, 9) + [rng.choice(others) for _ in range(rng.randint(4, 8))]
        rng.shuffle(lines)
        count = lines.count(word)
        body = "".join(f"{i + 1};{where};{rng.randint(5, 95)}\n" for i, where in enumerate(lines))
        return Script(
            (act(text, EXEC),),
            after_tool("exec", answer_matches(number_pattern(count), f"{count} lines")),
            {path: body},
        )

    return build


def edit_line(text: str, path: str, before: Sequence[str], after: Sequence[str]) -> Build:
    """``path``'s lines go from ``before`` to ``after`` (templates): a line changed in place,
    nothing appended."""

    def build(rng: random.Random) -> Script:
        f = facts(rng)
        old = [_fill(line, f) for line in before]
        return Script(
            (act(_fill(text, f), FILES),),
            file_lines(path, [_fill(line, f) for line in after]),
            {path: "\n".join(old) + "\n"},
        )

    return build


def ask_about(
    text: str, files: Mapping[str, str], answer: str, *, names: Sequence[str] = NAMES
) -> Build:
    """A question about the files (worded like an order, or asking for a summary): the answer
    holds ``answer`` (a template), nothing in the workdir changes and no acting tool runs."""

    def build(rng: random.Random) -> Script:
        f = facts(rng, names)
        placed = _files(files, f)
        return Script(
            (look(_fill(text, f)),),
            both(answer_has(_fill(answer, f)), unchanged(placed), nothing_acted()),
            placed,
        )

    return build


def show_only(text: str, files: Mapping[str, str], pattern: str, what: str) -> Build:
    """ "Show me, do not do it": the answer matches ``pattern``, nothing changes, nothing acts."""

    def build(rng: random.Random) -> Script:
        f = facts(rng)
        placed = _files(files, f)
        return Script(
            (show(_fill(text, f)),),
            both(answer_matches(pattern, what), unchanged(placed), nothing_acted()),
            placed,
        )

    return build


def append_then_count(text: str, path: str, line: str) -> Build:
    """Count ``path``'s lines, append ``line``, count again in the same turn: the second count
    runs and shows one more line."""

    def build(rng: random.Random) -> Script:
        count = rng.randint(4, 9)
        old = [f"{rng.choice(NAMES)} {i}" for i in range(count)]
        more = str(count + 1)
        return Script(
            (act(text, FILES | EXEC, 4),),
            both(
                file_lines_after(path, old, line),
                last_result(("exec",), more, f"{more} lines"),
                answer_has(more),
            ),
            {path: "\n".join(old) + "\n"},
        )

    return build


def edit_then_read(
    text: str, path: str, before: Sequence[str], after: Sequence[str], needle: str
) -> Build:
    """Read ``path``, change it, read it again in the same turn: the second read runs and
    shows ``needle``, the new content."""

    def build(rng: random.Random) -> Script:
        f = facts(rng)
        return Script(
            (act(_fill(text, f), FILES | EXEC, 4),),
            both(
                file_lines(path, [_fill(line, f) for line in after]),
                last_result(("read_file", "exec"), needle, needle),
            ),
            {path: "\n".join(_fill(line, f) for line in before) + "\n"},
        )

    return build


def after_tools(first: str, files: Mapping[str, str], second: str, *answers: str) -> Build:
    """A question for a tool, then one needing none: the second turn runs no tool."""

    def build(rng: random.Random) -> Script:
        f = facts(rng)
        return Script(
            (look(_fill(first, f)), chat(second)),
            without_tools(answer_has(*answers)),
            _files(files, f),
        )

    return build
