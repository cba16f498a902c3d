"""The shape of an agentic case: its turns, what each turn asks for, and what a check sees.

A :class:`Case` builds a :class:`Script` for one run from a random generator (names, numbers
and dates change between runs, so a memory saved in run 1 cannot answer run 2). Every turn
(:class:`Say`) declares what the request asks of the agent, so a turn is judged by its effect
*and* by which tools ran:

- ``asks``: the acting tools the request asks for (any one of them may do it); empty for a
  question. An acting tool that runs in a turn and is not in ``asks`` is an unasked side effect.
- ``toolless``: the turn needs no tool at all (a greeting, a translation, arithmetic).
- ``minimum``: the fewest model requests the turn needs: 1 for an answer in words, 2 for one
  tool step then the answer, and so on.
- ``shows_call``: the user asked to be shown a call, so a call written as text is the answer.

:func:`chat`, :func:`look`, :func:`act` and :func:`show` build the usual declarations.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from bench._agentic_checks import Call

Kind = Literal[
    "action",
    "recall",
    "info",
    "command",
    "no-tool",
    "edit",
    "order-question",
    "past-summary",
    "show-only",
    "redo",
    "dotted",
    "after-tool",
]
#: ``action`` a file written, a reminder scheduled; ``recall`` saved to memory, recalled in a
#: new session; ``info`` a fact only a tool knows; ``command`` a shell command's output;
#: ``no-tool`` answerable without tools. The near misses: ``edit`` a change worded like an
#: append; ``order-question`` a question opening like an order; ``past-summary`` a summary of
#: past-tense text; ``show-only`` "show me, do not do it"; ``redo`` a change, then the same
#: read or command again in the turn; ``dotted`` dotted words that are not files;
#: ``after-tool`` a question needing no tool after a tool turn.
KINDS: tuple[Kind, ...] = (
    "action",
    "recall",
    "info",
    "command",
    "no-tool",
    "edit",
    "order-question",
    "past-summary",
    "show-only",
    "redo",
    "dotted",
    "after-tool",
)
Language = Literal["en", "de", "es", "fr", "ja", "zh"]
LANGUAGES: tuple[Language, ...] = ("en", "de", "es", "fr", "ja", "zh")

#: The acting tools (anything else a daemon offers only looks), grouped as requests ask for them.
FILES = frozenset({"write_file", "append_file", "edit_file"})
EXEC = frozenset({"exec"})
SAVE = frozenset({"memory_save"})
SCHEDULE = frozenset({"schedule_task"})
CANCEL = frozenset({"cancel_task"})


@dataclass(frozen=True, slots=True)
class Say:
    """One user turn; ``session`` names the conversation (a new name is a new session)."""

    text: str
    session: str = "a"
    stream: bool = False
    asks: frozenset[str] = frozenset()
    toolless: bool = False
    minimum: int = 1
    shows_call: bool = False


def chat(text: str, *, session: str = "a", stream: bool = False) -> Say:
    """A turn that needs no tool: one model request, the answer."""
    return Say(text, session, stream, toolless=True, minimum=1)


def look(text: str, minimum: int = 2, *, session: str = "a", stream: bool = False) -> Say:
    """A question that may need tools that only look (a read, the clock); nothing may change."""
    return Say(text, session, stream, minimum=minimum)


def act(
    text: str, asks: frozenset[str], minimum: int = 2, *, session: str = "a", stream: bool = False
) -> Say:
    """A request for an action done by one of the ``asks`` tools."""
    return Say(text, session, stream, asks=asks, minimum=minimum)


def show(text: str, *, session: str = "a") -> Say:
    """A request to be shown how something is done, not to do it: no tool, and a call written
    as text is the answer, not a leak."""
    return Say(text, session, toolless=True, minimum=1, shows_call=True)


@dataclass(slots=True)
class TurnTrace:
    """What one turn did, as the benchmark saw it; ``requests``: the model requests the daemon
    counted during the turn (None: it does not count them), ``request_kinds`` those by kind."""

    say: Say
    answer: str
    calls: list[Call]
    started: dt.datetime
    ended: dt.datetime
    error: str = ""
    requests: int | None = None
    request_kinds: dict[str, int] = field(default_factory=dict)


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
    """A named conversation of one kind in one language; ``build`` makes its script for a run."""

    name: str
    kind: Kind
    language: Language
    build: Callable[[random.Random], Script]

    def script(self, run: int) -> Script:
        """The script of run ``run`` (the same for the same name and run)."""
        return self.build(random.Random(f"{self.name}:{run}"))
