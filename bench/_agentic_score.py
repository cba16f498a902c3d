"""How one played case is scored: its effect, and each turn's faults judged by what it asks.

:func:`score` runs the case's check (the effect) and :func:`turn_flags` judges every turn by
its declaration (:class:`bench._agentic_cases.Say`): a call written as text, an empty answer,
a false claim on a turn that asks for an action, repeated calls, a tool on a turn that needs
none, acting calls the request did not ask for, an answer in another language than the case's
(:mod:`bench._agentic_language`). :class:`CaseResult` holds it all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench._agentic_cases import Case, Check, Outcome, TurnTrace
from bench._agentic_checks import (
    asked_action_ran,
    claimed_action,
    is_empty,
    leaked_call,
    repeated_calls,
    repeats_request,
    stopped_repeats,
    unasked_calls,
)
from bench._agentic_language import answer_language

TOOL_NAMES = (
    "current_time",
    "read_file",
    "write_file",
    "append_file",
    "edit_file",
    "list_dir",
    "memory_save",
    "memory_search",
    "exec",
    "web_fetch",
    "schedule_task",
    "list_tasks",
    "cancel_task",
)


@dataclass(slots=True)
class TurnFlags:
    """The faults found in one turn."""

    leaked: str | None = None
    empty: bool = False
    claim: str | None = None
    false_claim: bool = False
    repeated: list[str] = field(default_factory=list)
    stopped: int = 0  # repeats the model asked for and agentd did not run again
    tools_unneeded: bool = False  # a tool was called in a turn that needs none
    unasked: list[str] = field(default_factory=list)  # acting calls the request did not ask for
    said_in: str | None = None  # the answer's language, when it can be told
    other_language: bool = False  # told, and not the language of the case
    echoed: bool = False  # the answer is the request again


@dataclass(slots=True)
class CaseResult:
    """One case played once: its turns, their faults and whether the effect is there."""

    model: str
    case: Case
    run: int
    turns: list[TurnTrace]
    flags: list[TurnFlags]
    reason: str | None  # why the effect is missing; None: it is there

    @property
    def effect(self) -> bool:
        return self.reason is None

    def seconds(self) -> list[float]:
        return [(t.ended - t.started).total_seconds() for t in self.turns]

    def problems(self) -> list[str]:
        """One short line per fault: the missing effect first, then each flagged turn."""
        out = [] if self.reason is None else [self.reason]
        for i, (turn, flags) in enumerate(zip(self.turns, self.flags, strict=True), 1):
            if turn.error:
                out.append(f"turn {i} failed: {turn.error[:120]}")
            if flags.leaked:
                out.append(f"turn {i} leaked a call ({flags.leaked}): {turn.answer[:120]!r}")
            if flags.empty:
                out.append(f"turn {i} answered nothing")
            if flags.false_claim:
                out.append(f"turn {i} claims {flags.claim!r}")
            if flags.repeated:
                out.append(f"turn {i} repeated {', '.join(flags.repeated)}")
            if flags.tools_unneeded:
                out.append(
                    f"turn {i} needs no tool, called {', '.join(c.name for c in turn.calls)}"
                )
            if flags.unasked:
                out.append(f"turn {i} ran unasked {', '.join(flags.unasked)}")
            if flags.other_language:
                out.append(f"turn {i} answered in {flags.said_in}")
            if flags.echoed:
                out.append(f"turn {i} answered with the request")
        return out

    def rows(self) -> list[dict[str, Any]]:
        """A JSON-ready row per turn."""
        seconds = self.seconds()
        return [
            {
                "model": self.model,
                "run": self.run,
                "case": self.case.name,
                "kind": self.case.kind,
                "language": self.case.language,
                "turn": i,
                "session": turn.say.session,
                "stream": turn.say.stream,
                "user": turn.say.text,
                "answer": turn.answer,
                "calls": [c.as_json() for c in turn.calls],
                "seconds": round(seconds[i - 1], 2),
                "error": turn.error,
                "leaked": flags.leaked,
                "empty": flags.empty,
                "claim": flags.claim,
                "false_claim": flags.false_claim,
                "repeated": flags.repeated,
                "asks": sorted(turn.say.asks),
                "toolless": turn.say.toolless,
                "tools_unneeded": flags.tools_unneeded,
                "unasked": flags.unasked,
                "said_in": flags.said_in,
                "echoed": flags.echoed,
                "requests": turn.requests,
                "request_kinds": turn.request_kinds,
                "minimum": turn.say.minimum,
                "effect": self.effect,
                "reason": self.reason,
            }
            for i, (turn, flags) in enumerate(zip(self.turns, self.flags, strict=True), 1)
        ]


def score(
    check: Check,
    turns: list[TurnTrace],
    workdir: Path,
    state_dir: Path | None = None,
    language: str = "en",
) -> tuple[str | None, list[TurnFlags]]:
    """Why the case's effect is missing (None: it is there) and each turn's flags (the case is
    written in ``language``)."""
    reason: str | None
    if any(t.error for t in turns):
        reason = "a turn failed"
    else:
        try:
            reason = check(Outcome(workdir, turns, state_dir))
        except Exception as exc:  # a broken check is the bench's bug: report it, go on
            reason = f"check failed: {type(exc).__name__}: {exc}"
    missing = reason is not None
    return reason, [turn_flags(turn, missing=missing, language=language) for turn in turns]


def turn_flags(turn: TurnTrace, *, missing: bool, language: str = "en") -> TurnFlags:
    """The faults of one turn, judged by what its request declares (``missing``: the case's
    effect is not there; ``language``: the request's)."""
    say = turn.say
    f = TurnFlags(
        leaked=None if say.shows_call else leaked_call(turn.answer, TOOL_NAMES),
        empty=not turn.error and is_empty(turn.answer),
        claim=claimed_action(turn.answer) if say.asks else None,
        repeated=[f"{c.name}({c.arguments})" for c in repeated_calls(turn.calls)],
        stopped=len(stopped_repeats(turn.calls)),
        tools_unneeded=say.toolless and bool(turn.calls),
        unasked=[c.name for c in unasked_calls(turn.calls, say.asks)],
        said_in=None if turn.error else answer_language(turn.answer),
        echoed=not turn.error and repeats_request(turn.answer, say.text),
    )
    f.other_language = f.said_in is not None and f.said_in != language
    # A claim is judged on turns that ask for an action (a question's answer may well speak
    # in the past tense: a summary of last week's notes). Without the case's effect every
    # claim is false, even one backed by a tool that ran (hello.py "created" after writing
    # hello.txt).
    f.false_claim = f.claim is not None and (missing or not asked_action_ran(turn.calls, say.asks))
    return f
