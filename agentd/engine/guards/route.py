"""Routing: before a routed step, the model names the tool it calls, or ``answer``.

A small local model asked to choose a tool and write its call in one go often calls one for
"What's 2+2?" or takes the wrong one (``memory_save`` for "create config.json"). Asked first
for one word under a grammar (``answer`` or an offered tool's name), it decides better; the
step is then held to that word: calls of the named tool, or an answer in words without tools.
Routed: a turn's first step, and a step another rule asks to be routed (after a change's read,
after failed calls). A routed ``read_file`` may only name the workdir's files; in an empty
workdir it answers instead. The question itself lives in :mod:`agentd.engine.route`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import structlog

from agentd.engine.asking import Asker
from agentd.engine.guards.base import Serves
from agentd.engine.guards.read_first import READ_TOOL, changes_files, held_defaults, hold_read
from agentd.engine.notes import nothing_to_read
from agentd.engine.route import ANSWER, ordered, question, tool_names
from agentd.engine.turnstate import StepPlan, TurnState
from agentd.messages import user
from agentd.model.choice import CallRule

log = structlog.get_logger("agentd.engine.guards.route")

#: The workdir's files, or None when there are too many to list.
Listing = Callable[[], Awaitable[Sequence[str] | None]]


@dataclass(slots=True)
class Route:
    """The step planner that routes a step (see the module docstring)."""

    asker: Asker
    listing: Listing | None = None
    name: str = "route"
    serves: Serves = "local"

    async def plan(self, state: TurnState, plan: StepPlan) -> None:
        if not self._applies(state, plan):
            return
        assert plan.tools is not None
        names = ordered(tool_names(plan.tools))
        if ANSWER in names:
            return  # a tool called "answer" would make the word ambiguous
        asked = [*state.view(plan), user(question(names))]
        options = (ANSWER, *names)
        choice = await self.asker.ask(state, "route", asked, options, tools=plan.prompt_tools)
        if choice is None or (choice != ANSWER and choice not in plan.names):
            return
        state.fire(self.name, "answer" if choice == ANSWER else "tool")
        log.info("turn.route", choice=choice)
        plan.route = choice
        if (
            state.named
            and state.step == 1
            and (changes_files(plan, choice) or (choice == ANSWER and state.may_act))
        ):
            # The named files are read before they are changed, and before an action is
            # answered in words: the model named `answer` for an edit of a file it had not
            # seen, and the tool that acts once it had read it.
            hold_read(state, plan)
            return
        if choice == READ_TOOL:
            await self._hold_read(state, plan)
        elif choice != ANSWER:
            plan.rule = CallRule(name=choice, single=plan.rule.single)
        if plan.route == ANSWER:
            # Shown tools it may not call, the model wrote calls as text in its answer.
            plan.without_tools()

    async def _hold_read(self, state: TurnState, plan: StepPlan) -> None:
        """A routed read names one of the workdir's files; with none, the step answers."""
        paths = await self._files()
        if paths:
            # Its other arguments held to their defaults, as read_first holds them: with
            # one file in the workdir the call is given (the loop makes it).
            held = (("path", tuple(paths)), *held_defaults(plan, READ_TOOL, "path"))
            plan.rule = CallRule(name=READ_TOOL, single=plan.rule.single, values=held)
        elif paths is not None:
            plan.route = ANSWER
            plan.notes.append(nothing_to_read(state))
        else:
            plan.rule = CallRule(name=READ_TOOL, single=plan.rule.single)

    async def _files(self) -> Sequence[str] | None:
        if self.listing is None:
            return None
        try:
            return await self.listing()
        except Exception as exc:  # a help: a failure must not cost the turn
            log.warning("turn.listing_failed", error=str(exc), exc_type=type(exc).__name__)
            return None

    @staticmethod
    def _applies(state: TurnState, plan: StepPlan) -> bool:
        return (
            plan.routable
            and plan.route is None
            and bool(plan.tools)
            and not plan.rule.must_call
            and not plan.answer_only
            and not state.client_led
        )
