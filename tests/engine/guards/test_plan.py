"""The plan rule: the model names a request's tools in order once, and the steps follow it."""

from __future__ import annotations

import pytest

from agentd.engine.asking import Asker
from agentd.engine.guards.base import StepRun
from agentd.engine.guards.intent import Intent
from agentd.engine.guards.plan import MOST, NONE, PLAN_HEAD, Plan, ask, parse, prompt
from agentd.engine.guards.read_first import READ_FIRST, hold_read
from agentd.engine.notes import CHANGE_HEAD, REMINDER_HEAD
from agentd.engine.turnstate import StepPlan, TurnState
from agentd.tools.kinds import COMMAND
from agentd.tools.registry import ToolOutcome
from tests.engine.guards.conftest import make_plan, make_state, schema
from tests.support.fake_model import FakeModel

pytestmark = pytest.mark.anyio

COUNT = ("exec", '{"command": "wc -l log.txt"}')
APPEND = ("append_file", '{"path": "log.txt", "content": "done"}')
READ = ("read_file", '{"path": "log.txt"}')


def acting_state(request: str = "Count log.txt's lines, add 'done', count again.") -> TurnState:
    """A first step the intent question found to ask for an action."""
    state = make_state(request)
    state.may_act = True
    return state


async def planned(model: FakeModel, state: TurnState, answer: str) -> None:
    """The plan question asked, as the intent rule asks it, and answered ``answer``."""
    model.choices.append(answer)
    state.planned = await ask(Asker(model), state) or ()


def ran(plan: StepPlan, *calls: tuple[str, str], error: bool = False) -> StepRun:
    outcomes = tuple(ToolOutcome("failed" if error else "ok", error=error) for _ in calls)
    return StepRun(plan, calls, outcomes, served=(False,) * len(calls))


async def step(guard: Plan, state: TurnState) -> StepPlan:
    """The next step's plan, as the loop makes it: every tool offered, then the planner."""
    state.step += 1
    plan = make_plan(state)
    await guard.plan(state, plan)
    return plan


async def test_the_steps_follow_the_plan_then_the_turn_answers() -> None:
    """Each step is held to the plan's next tool, without a routing question; the step after
    the last answers in words."""
    model = FakeModel()
    state = acting_state()
    await planned(model, state, "exec, append_file, exec")
    state.step = 0
    guard = Plan()
    first = await step(guard, state)
    assert first.rule.name == "exec" and first.route == "exec"
    assert model.options[0][0] == NONE and "append_file" in model.options[0]
    assert model.most == [MOST] and model.asked[0][0].content.startswith(PLAN_HEAD)
    following = await guard.after(state, ran(first, COUNT))
    assert following is not None and not following.bare
    assert following.notes[0].content.startswith(REMINDER_HEAD)
    second = await step(guard, state)
    assert second.rule.name == "append_file"
    await guard.after(state, ran(second, APPEND))
    third = await step(guard, state)
    assert third.rule.name == "exec"  # the command again, after the change
    done = await guard.after(state, ran(third, COUNT))
    assert done is not None and done.bare
    # The answer step can call no tool: its note offers none (the step before it did).
    assert "call another tool" not in done.notes[0].content
    assert len(model.asked) == 1 and state.requests.used == 1
    assert ("plan", "done") in state.fired


async def test_a_named_file_is_read_before_the_planned_change() -> None:
    """A planned change of a file the request names reads it first; then the change."""
    model = FakeModel()
    state = acting_state("Add 'done' to log.txt.")
    await planned(model, state, "append_file")
    state.named = ("log.txt",)
    state.step = 0
    guard = Plan()
    first = await step(guard, state)
    assert first.route == READ_FIRST and first.rule.name == "read_file"
    following = await guard.after(state, ran(first, READ))
    assert following is not None and following.notes[0].content.startswith(CHANGE_HEAD)
    second = await step(guard, state)
    assert second.rule.name == "append_file"


async def test_a_planned_look_served_from_the_call_cache_moves_the_plan_on() -> None:
    """A planned read of a file already read this turn is served from the call cache: it is
    done, and the plan's change is held next (not an answer in words)."""
    state = acting_state("Read log.txt, add 'done', then read it again.")
    state.planned = ("read_file", "append_file", "read_file")
    guard = Plan()
    first = await step(guard, state)
    assert first.rule.name == "read_file"
    served = StepRun(first, (READ,), (ToolOutcome("(the same call ...) ok"),), (True,))
    following = await guard.after(state, served)
    assert following is not None and not following.bare
    assert (await step(guard, state)).rule.name == "append_file"
    other = StepRun(first, (COUNT,), (ToolOutcome("(the same call ...) 3"),), (True,))
    assert await guard.after(state, other) is None  # not the plan's tool: repeats answers


async def test_a_planned_look_up_is_held_then_answered() -> None:
    """A plan of tools that look (the turn acts on nothing) holds its read, then answers."""
    model = FakeModel()
    state = make_state("Was steht in log.txt?")
    await planned(model, state, "read_file")
    state.may_act = False
    guard = Plan()
    held = make_plan(state)
    await guard.plan(state, held)
    assert held.route == "read_file" and held.rule.name == "read_file"
    done = await guard.after(state, ran(held, READ))
    assert done is not None and done.bare and ("plan", "done") in state.fired


async def test_a_client_led_turn_is_not_planned() -> None:
    """A caller that brings its own tools leads the tool loop: no question, no hold."""
    model = FakeModel()
    model.choices.append("exec")
    state = make_state("Count the lines of a.txt.", client=("mul",))
    plan = make_plan(state)
    await Intent(Asker(model), by_plan=True).plan(state, plan)
    await Plan().plan(state, plan)
    assert model.asked == [] and plan.route is None and not plan.rule.must_call


async def test_no_tool_planned_leaves_the_step_alone() -> None:
    model = FakeModel()
    state = acting_state()
    await planned(model, state, NONE)
    plan = make_plan(state)
    await Plan().plan(state, plan)
    assert state.planned == () and plan.route is None and ("plan", "none") in state.fired


async def test_a_plan_names_only_the_turn_s_tools() -> None:
    """Without a grammar holding its words, a name the turn does not offer is left out."""
    model = FakeModel()
    state = acting_state()
    await planned(model, state, "rm_rf, exec")
    assert state.planned == ("exec",)


async def test_a_first_tool_not_on_offer_drops_the_plan() -> None:
    """The intent question named another kind (memory): its tools stay on offer, unheld."""
    state = acting_state("Remember that my locker is 1900.")
    state.planned = ("write_file",)
    plan = make_plan(state)
    plan.only(frozenset({"memory_save"}))
    await Plan().plan(state, plan)
    assert state.planned == () and plan.route is None and ("plan", "conflict") in state.fired


async def test_a_failing_tool_is_held_twice_then_the_plan_is_dropped() -> None:
    state = acting_state()
    state.planned = ("exec",)
    state.step = 0
    guard = Plan()
    for _ in range(2):
        held = await step(guard, state)
        assert held.rule.name == "exec"
        assert await guard.after(state, ran(held, COUNT, error=True)) is None
    last = await step(guard, state)
    assert last.route is None and state.planned == () and ("plan", "failed") in state.fired


async def test_a_step_that_called_another_tool_drops_the_plan() -> None:
    """Another rule routed the step elsewhere: the turn goes on as without a plan."""
    state = acting_state()
    state.planned = ("exec", "exec")
    plan = make_plan(state)
    await Plan().plan(state, plan)
    assert await Plan().after(state, ran(plan, READ)) is None
    assert state.planned == () and ("plan", "left") in state.fired


async def test_a_held_read_first_keeps_its_place() -> None:
    """read_first's own read (the intent question kept it) does not move the plan along."""
    state = acting_state()
    state.named = ("log.txt",)
    state.planned = ("exec",)
    plan = make_plan(state)
    hold_read(state, plan)
    following = await Plan().after(state, ran(plan, READ))
    assert following is not None and state.next_planned() == "exec"


def test_parse_reads_a_plan() -> None:
    assert parse("exec, append_file, exec") == ("exec", "append_file", "exec")
    assert parse(NONE) == () and parse(None) == () and parse("") == ()


def test_the_prompt_shows_the_tools_and_examples_of_tools_on_offer() -> None:
    """Worked examples whose tools are not all on offer are left out; the request comes last."""
    schemas = [schema("exec"), schema("read_file")]
    schemas[0]["function"]["description"] = "Run a shell command. Output comes back."
    asked = prompt("Zähle die Zeilen von a.txt mit wc -l.", schemas)
    rules = asked[0].content
    assert rules.startswith(PLAN_HEAD) and "- exec: Run a shell command\n" in rules
    shown = " ".join(m.content for m in asked[1:-1])
    assert "make test" in shown and "memory" not in shown and "edit_file" not in shown
    assert "Zähle die Zeilen" in asked[-1].content


def test_a_count_the_request_names_no_command_for_is_shown_planned_as_a_command() -> None:
    """The 1.5B counted lines it had read (16 for 10) when no example showed a count without
    `wc` planned as a command."""
    asked = prompt("x", [schema("exec"), schema("read_file")])
    pairs = zip(asked[1:-1:2], asked[2:-1:2], strict=True)
    counts = [a.content for q, a in pairs if "lines" in q.content and "wc" not in q.content]
    assert counts == ["exec"]


async def test_a_look_up_s_named_file_read_first_ends_a_plan_it_did_not_start() -> None:
    """read_first read the file a look-up names before the plan's first tool: the plan goes
    and read_first's answer follows (no change note, no second read)."""
    state = make_state("Fasse notes.md zusammen.")
    state.may_act = False
    state.named = ("notes.md",)
    state.planned = ("list_dir", "read_file")
    plan = make_plan(state)
    hold_read(state, plan)
    assert await Plan().after(state, ran(plan, READ)) is None
    assert state.planned == () and ("plan", "left") in state.fired


async def test_a_look_up_s_planned_command_runs_after_read_first_s_read() -> None:
    """A look-up that names a file and plans a command ("count its lines with a command"):
    after read_first's read the command is held next (it runs read-only), not dropped."""
    state = make_state("Zähl mit einem Befehl die Zeilen von log.txt.", kinds={"exec": COMMAND})
    state.may_act = False
    state.named = ("log.txt",)
    state.planned = ("exec",)
    plan = make_plan(state)
    hold_read(state, plan)
    guard = Plan()
    following = await guard.after(state, ran(plan, READ))
    assert following is not None and state.planned == ("exec",)
    assert (await step(guard, state)).rule.name == "exec"


async def test_a_look_up_s_planned_read_moves_on_without_a_change_note() -> None:
    state = make_state("Lies notes.md und dann log.txt.")
    state.may_act = False
    state.named = ("notes.md",)
    state.planned = ("read_file", "read_file")
    plan = make_plan(state)
    hold_read(state, plan)
    following = await Plan().after(state, ran(plan, READ))
    assert following is not None and not following.notes[0].content.startswith(CHANGE_HEAD)
