"""Plan: the tools a request needs, in order, named once before the first step; the steps
then follow it.

After a change, a small model asked step by step what comes next mostly answered: "count the
lines with wc -l, add a line, count again" stopped after the line was added, and "how many
lines has data.txt? count them with wc" was answered from a read, the command never run. Asked
once, in a prompt of its own and about the request alone, for the tools the request needs in
order (``none``, or up to four of the turn's tools, under a grammar, in whatever language the
request came), the model names the command, the change and the command again.

Asked by the intent rule (:mod:`.intent`), as the turn's one question about the request: the
plan's tools say what the request asks for (none: words only; tools that look: a look-up; a
tool that acts: an action), so a request needs one question before its first step, not an
intent question, a routing question and a check. Each step is then held to the plan's next
tool, with no routing question; a change of a workdir file the request names still reads the
file first (:mod:`.read_first`). When the plan is done, the next step answers in words. A plan
the turn cannot follow is dropped and the turn goes on as without it: its first tool is not on
offer, a step called something else (a rule rerouted it), or a held tool failed twice.

Its prompt (rules, tools, worked examples) is the same for every session up to the request:
it goes to the model server's slot for such questions
(:func:`agentd.model.pinning.shared_question`), warmed after READY. For a small local model
only (``serves = "local"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import structlog

from agentd.engine.asking import Asker
from agentd.engine.guards.base import Serves, StepRun
from agentd.engine.guards.read_first import READ_FIRST, changes_files, hold_read
from agentd.engine.notes import after_change_read, next_step, reminder
from agentd.engine.turnstate import REQUEST_CHARS, Next, StepPlan, TurnState
from agentd.messages import Message, assistant, system, user
from agentd.model.choice import CallRule
from agentd.tools.kinds import COMMAND

log = structlog.get_logger("agentd.engine.guards.plan")

#: The word of a request that needs no tool.
NONE = "none"
#: The most tools a plan names.
MOST = 4
#: How often a planned tool is held when it fails (then the plan is dropped).
TRIES = 2
PLAN_HEAD = (
    "You plan the tool calls an assistant makes to carry out a request. Reply with the tools "
    "it must call, in order, separated by commas (a tool twice when it is needed twice), or "
    "none when it can reply in words without any tool. Plan only what the request asks for.\n"
    "Tools:\n"
)
#: Worked examples (request, plan), shown when all their tools are on offer. None is a case
#: of the agentic suite.
PLAN_EXAMPLES = (
    ("Delete the second line of todo.md.", "read_file, edit_file"),
    ("Run make test and tell me what fails.", "exec"),
    ("Please keep in mind for later that I am vegetarian.", "memory_save"),
    (
        "Add 'milk' at the end of shopping.txt, then show me the whole list.",
        "append_file, read_file",
    ),
    ("Create hello.py with a line that prints hello.", "write_file"),
    ("How many words are in essay.txt? Use wc -w.", "exec"),
    # Counted by a command, not by the model reading the file: it miscounts (16 lines for 10).
    ("How many lines does guests.csv have?", "exec"),
    ("Remind me tomorrow at nine to call the dentist.", "schedule_task"),
    ("Guarda en tu memoria que soy alérgico a las nueces.", "memory_save"),
    (
        "Count the lines of log.txt with wc -l, add the line 'done', then count them again.",
        "exec, append_file, exec",
    ),
    ("Écris « à demain » dans le fichier message.txt.", "write_file"),
    (
        "Ersetze in config.ini den Wert 8080 durch 9090 und zeig mir danach die Datei.",
        "read_file, edit_file, read_file",
    ),
    ("Erinnere mich jeden Montag an den Wochenbericht.", "schedule_task"),
    ("What would a command to zip a folder look like? Don't run it.", NONE),
    ("Don't forget that my passport expires in May.", "memory_save"),
    ("What does this error message mean: permission denied?", NONE),
    ("build.sh の中身を確認してから実行してください。", "read_file, exec"),
    ("Give me a short overview of report.txt.", "read_file"),
    ("Append the line 'eggs' to list.txt.", "append_file"),
)
PLAN_QUESTION = 'Request: "{request}"\nTools, in order?'


def _gloss(schema: dict[str, Any]) -> tuple[str, str]:
    """A tool's name and the first sentence of its description."""
    fn = schema.get("function", schema)
    text = " ".join(str(fn.get("description") or "").split())
    first = text.split(". ")[0].rstrip(".")
    return str(fn["name"]), first[:100]


@cache
def _opening(tools: tuple[tuple[str, str], ...]) -> tuple[Message, ...]:
    """The rules, the tools and the worked examples whose tools are all on offer."""
    names = {name for name, _ in tools}
    listed = "".join(f"- {name}: {what}\n" for name, what in tools)
    shots: list[Message] = []
    for example, planned in PLAN_EXAMPLES:
        if set(planned.split(", ")) <= names | {NONE}:
            shots += [user(PLAN_QUESTION.format(request=example)), assistant(planned)]
    return (system(PLAN_HEAD + listed), *shots)


def prompt(request: str, schemas: Sequence[dict[str, Any]]) -> list[Message]:
    """The plan question for ``request`` with the tools of ``schemas`` on offer."""
    tools = tuple(sorted(_gloss(s) for s in schemas))
    question = PLAN_QUESTION.format(request=request[:REQUEST_CHARS])
    return [*_opening(tools), user(question)]


def parse(answer: str | None) -> tuple[str, ...]:
    """The planned tools of the model's ``answer`` (none: an empty plan)."""
    items = tuple(item.strip() for item in (answer or "").split(",") if item.strip())
    return () if not items or NONE in items else items


async def ask(asker: Asker, state: TurnState) -> tuple[str, ...] | None:
    """The model's plan for the turn's request, asked once a turn (None: it could not say).
    Its prompt is the same for every session up to the request: it goes to the slot kept
    for such questions."""
    assert state.schemas is not None
    options = (NONE, *sorted(state.names))
    question = prompt(state.request, state.schemas)
    answer = await asker.ask(state, "plan", question, options, shared=True, most=MOST)
    if answer is None:
        return None
    planned = tuple(name for name in parse(answer) if name in state.names)
    state.fire("plan", "tools" if planned else "none")
    log.info("turn.plan", plan=list(planned))
    return planned


@dataclass(slots=True)
class Plan:
    """The step planner that holds each step to the plan's next tool, and the after-tool
    policy that moves along it (the plan is asked by the intent rule, :func:`ask`)."""

    name: str = "plan"
    serves: Serves = "local"

    async def plan(self, state: TurnState, plan: StepPlan) -> None:
        tool = state.next_planned()
        if tool is None or plan.route is not None or plan.rule.must_call or not plan.tools:
            return
        if tool not in plan.names or state.plan_holds >= TRIES:
            self._drop(state, "conflict" if tool not in plan.names else "failed")
            return
        state.plan_holds += 1
        if state.step == 1 and state.named and changes_files(plan, tool):
            hold_read(state, plan)  # the named files are read before they change
            return
        plan.route = tool
        plan.rule = CallRule(name=tool, single=plan.rule.single)
        state.fire(self.name, "held")

    async def after(self, state: TurnState, run: StepRun) -> Next | None:
        tool = state.next_planned()
        if tool is None or any(out.error for out in run.outcomes):
            return None
        planned = any(name == tool for name, _ in run.calls)
        if all(run.served) and not planned:
            return None  # nothing new ran: the repeats rule answers
        read_first = run.plan.route == READ_FIRST
        if planned:  # a planned look whose result is already above is done too
            state.plan_at += 1
        elif not read_first or (state.may_act is False and state.kinds.get(tool) != COMMAND):
            # A step called another tool; or read_first read the named files of a look-up
            # before the plan's first tool: read_first's answer follows. A look-up's planned
            # command still runs (read-only): "count its lines with a command" asked for it.
            self._drop(state, "left")
            return None
        state.plan_holds = 0  # the next tool (after read_first's read: the same) is held anew
        following = state.next_planned()
        if following is None:
            state.fire(self.name, "done")
            return Next(notes=[reminder(state, run.calls, bare=True)], bare=True)
        if read_first and state.may_act:
            pairs = zip(run.calls, run.outcomes, strict=True)
            read = [(args, out.content) for (_, args), out in pairs]
            return Next(notes=[after_change_read(state, read)])
        return Next(notes=[next_step(state)])

    def _drop(self, state: TurnState, why: str) -> None:
        state.planned = ()
        state.fire(self.name, why)
        log.info("turn.plan_dropped", why=why)


__all__ = ["NONE", "PLAN_HEAD", "Plan", "ask", "parse", "prompt"]
