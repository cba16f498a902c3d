"""The turn's named rules, in their declared order (DESIGN.md section 16).

Step planners shape each model call, in :data:`PLANNERS` order; answer guards judge each reply
in :data:`ANSWER_GUARDS` order (the first that does not accept decides); after-tool policies
speak in :data:`AFTER_TOOL` order (the first that says something decides). :func:`build`
makes the set a daemon runs from ``default.guards`` and what the model server is: ``auto``
runs a rule that serves any model, and a rule for small local models only when the model is
held to a grammar by a local llama-server.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from agentd.config.settings import Switch
from agentd.engine.asking import Asker
from agentd.engine.guards.answer_language import AnswerLanguage
from agentd.engine.guards.answered_earlier import AnsweredEarlier
from agentd.engine.guards.base import AfterToolPolicy, AnswerGuard, StepPlanner
from agentd.engine.guards.calls_in_answer import CallsInAnswer
from agentd.engine.guards.check_calls import CheckCalls
from agentd.engine.guards.claims import Claims
from agentd.engine.guards.client_tools import ClientTools
from agentd.engine.guards.delays import Delays
from agentd.engine.guards.echo import Echo
from agentd.engine.guards.edit_lines import EditLines
from agentd.engine.guards.empty import Empty
from agentd.engine.guards.intent import Intent
from agentd.engine.guards.overwrite import Overwrite
from agentd.engine.guards.plan import Plan
from agentd.engine.guards.read_first import Mentioned, ReadFirst
from agentd.engine.guards.repeats import Repeats
from agentd.engine.guards.reroute import Reroute
from agentd.engine.guards.route import Listing, Route
from agentd.engine.guards.shown import Shown
from agentd.engine.guards.write_paths import WritePaths

#: Every rule's name, in the order each kind runs.
PLANNERS = (
    "client_tools",
    "read_first",
    "intent",
    "plan",
    "route",
    "write_paths",
    "edit_lines",
    "delays",
)
ANSWER_GUARDS = (
    "check_calls",
    "empty",
    "calls_in_answer",
    "answered_earlier",
    "claims",
    "echo",
    "answer_language",
)
AFTER_TOOL = ("plan", "read_first", "overwrite", "repeats", "reroute")
#: Questions the intent rule asks as part of its own decision (switched like the others).
BY_INTENT = ("shown",)
NAMES = tuple(dict.fromkeys((*PLANNERS, *BY_INTENT, *ANSWER_GUARDS, *AFTER_TOOL)))


@dataclass(frozen=True, slots=True)
class Guards:
    """The rules a turn runs, each kind in its declared order."""

    planners: tuple[StepPlanner, ...] = ()
    answer: tuple[AnswerGuard, ...] = ()
    after_tool: tuple[AfterToolPolicy, ...] = ()
    names: frozenset[str] = field(default_factory=frozenset)


def build(
    asker: Asker,
    switches: dict[str, Switch],
    *,
    local: bool,
    mentioned: Mentioned | None = None,
    listing: Listing | None = None,
) -> Guards:
    """The rules that run: ``switches`` by name (missing: ``auto``), ``local`` whether the
    model is a small one held to a grammar by a local llama-server. A rule that needs what
    is not given (the model's ``choose``, the workdir's files) does not run."""
    asks = asker.can_ask
    shown = Shown(asker) if asks else None
    units: dict[str, object] = {
        "client_tools": ClientTools(),
        "intent": Intent(asker) if asks else None,
        "read_first": ReadFirst(mentioned) if mentioned is not None else None,
        "plan": Plan() if asks else None,
        "shown": shown,
        "route": Route(asker, listing) if asks else None,
        "write_paths": WritePaths(),
        "edit_lines": EditLines(),
        "delays": Delays(),
        "check_calls": CheckCalls(asker) if asks else None,
        "empty": Empty(),
        "calls_in_answer": CallsInAnswer(),
        "answered_earlier": AnsweredEarlier(),
        "claims": Claims(),
        "echo": Echo(),
        "answer_language": AnswerLanguage(asker) if asks else None,
        "overwrite": Overwrite(asker) if asks else None,
        "repeats": Repeats(),
        "reroute": Reroute(),
    }

    def runs(name: str) -> bool:
        unit = units.get(name)
        if unit is None:
            return False
        switch = switches.get(name, "auto")
        if switch != "auto":
            return switch == "on"
        return getattr(unit, "serves", "any") == "any" or local

    if runs("intent") and runs("plan"):
        # One question a turn: the plan's tools say what the request asks for.
        units["intent"] = Intent(asker, by_plan=True, shown=shown if runs("shown") else None)
    else:
        units["plan"] = units["shown"] = None  # only the intent rule asks them, with a plan

    def pick(order: Sequence[str]) -> list[object]:
        return [units[n] for n in order if runs(n)]

    return Guards(
        planners=tuple(pick(PLANNERS)),  # type: ignore[arg-type]
        answer=tuple(pick(ANSWER_GUARDS)),  # type: ignore[arg-type]
        after_tool=tuple(pick(AFTER_TOOL)),  # type: ignore[arg-type]
        names=frozenset(n for n in NAMES if runs(n)),
    )


__all__ = [
    "AFTER_TOOL",
    "ANSWER_GUARDS",
    "BY_INTENT",
    "NAMES",
    "PLANNERS",
    "Guards",
    "Switch",
    "build",
]
