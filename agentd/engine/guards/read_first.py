"""Read first: a request that names files of the workdir has them read before anything else.

"Copy source.txt into backup.txt", "What is the timeout in app.conf?", "Summarise notes.md":
asked to do these in one step a small model wrote the copy without reading the file, made up
the value, or explained ``sed``. When the request names files that exist in the workdir
(:mod:`agentd.tools.mentions`: a regular file reached as the file tools reach it, so a dotted
word that is no file, "e.g." or "example.com", names nothing), the turn's first step is one
``read_file`` call held to one of them, from the start. When the model finds that the request
asks for an action (:mod:`.intent`), the step is routed first instead: a command ("run
greet.sh", "count the lines of data.txt with wc") runs as asked, and the read comes first when
the route names a tool that reads or changes a file by path (:func:`changes_files`), or
``answer`` before the file was seen (:mod:`.route`). After the read,
the next step is routed among the tools that act (the model names the one that makes the
change, or ``answer``) for an action, and answers in words otherwise. No call is ever
demanded: the model may answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import structlog

from agentd.engine.guards.base import Serves, StepRun
from agentd.engine.notes import after_change_read, reminder
from agentd.engine.turnstate import Next, StepPlan, TurnState
from agentd.model.choice import CallRule

log = structlog.get_logger("agentd.engine.guards.read_first")

READ_TOOL = "read_file"
#: The route of a read-first step (no tool can have this name).
READ_FIRST = "(read first)"
#: Given the request, the workdir files it names.
Mentioned = Callable[[str], Awaitable[Sequence[str]]]


def hold_read(state: TurnState, plan: StepPlan) -> None:
    """Hold ``plan`` to one read of the request's named files, from the start: its other
    arguments are held to their defaults (what the model wrote there every time). With one
    file named, the call is then wholly given: the loop makes it with no model request
    (:meth:`agentd.model.choice.CallRule.given`)."""
    values = (("path", state.named), *held_defaults(plan, READ_TOOL, "path"))
    plan.rule = CallRule(name=READ_TOOL, single=True, values=values)
    plan.route = READ_FIRST
    log.info("turn.read_first", files=len(state.named))


def held_defaults(
    plan: StepPlan, tool: str, but: str
) -> tuple[tuple[str, tuple[str | int, ...]], ...]:
    """Each argument of ``tool`` but ``but`` held to the default its schema names (an
    argument with none is left to the model)."""
    for schema in plan.tools or ():
        fn = schema.get("function", schema)
        if fn.get("name") == tool:
            props = (fn.get("parameters") or {}).get("properties") or {}
            return tuple(
                (arg, (spec["default"],))
                for arg, spec in props.items()
                if arg != but and isinstance(spec, dict) and "default" in spec
            )
    return ()


def release_read(state: TurnState, plan: StepPlan) -> None:
    """Let go of a held read: the step is routed first (an action: a command may need no read)."""
    if plan.route == READ_FIRST:
        plan.rule, plan.route = state.rule, None


def changes_files(plan: StepPlan, tool: str) -> bool:
    """Whether ``tool`` reads or changes a file by path (read first, then change): read_file,
    or a tool that acts and takes a ``path`` (a command does not: it runs as asked)."""
    if tool == READ_TOOL:
        return True
    for schema in plan.tools or ():
        fn = schema.get("function", schema)
        if fn.get("name") == tool:
            props = (fn.get("parameters") or {}).get("properties") or {}
            return "path" in props
    return False


@dataclass(slots=True)
class ReadFirst:
    """The step planner that holds the first step to a read of the named files, and the
    after-tool policy that says what follows that read."""

    mentioned: Mentioned
    name: str = "read_first"
    serves: Serves = "local"

    async def plan(self, state: TurnState, plan: StepPlan) -> None:
        if not self._applies(state, plan):
            return
        try:
            named: tuple[str, ...] = tuple(await self.mentioned(state.request))
        except Exception as exc:  # a help: a failure must not cost the turn
            log.warning("turn.mentions_failed", error=str(exc), exc_type=type(exc).__name__)
            return
        if not named:
            return
        state.named = named
        state.fire(self.name, "read")
        hold_read(state, plan)

    async def after(self, state: TurnState, run: StepRun) -> Next | None:
        if run.plan.route != READ_FIRST or any(o.error for o in run.outcomes):
            return None
        if state.may_act:
            pairs = zip(run.calls, run.outcomes, strict=True)
            read = [(args, out.content) for (_, args), out in pairs]
            # The read is done: the options are the tools that act, or answer (routed once
            # more, the model read the same file again instead of running it).
            acting = state.acting if state.doing is None else state.doing
            return Next(notes=[after_change_read(state, read)], route=True, tools=acting)
        return Next(notes=[reminder(state, bare=True)], bare=True)

    @staticmethod
    def _applies(state: TurnState, plan: StepPlan) -> bool:
        return (
            state.step == 1
            and state.fresh
            and not state.client_led
            and not plan.rule.must_call
            and not plan.answer_only
            and READ_TOOL in plan.names
        )
