"""The delays planner: schedule_task's ``in`` is held under the grammar to a number and its
unit, hours always with their minutes."""

from __future__ import annotations

import pytest

from agentd.engine.guards.delays import Delays
from agentd.model.choice import CallRule
from agentd.model.grammar import DELAY, held_call_start, tool_step_grammar
from tests.engine.guards.conftest import make_plan, make_state
from tests.support.gbnf import accepts

pytestmark = pytest.mark.anyio

WITH_TASKS = ("current_time", "schedule_task", "list_tasks")
HELD = frozenset({("schedule_task", "in", DELAY)})


@pytest.mark.parametrize(
    "rule",
    [
        pytest.param(CallRule(), id="unrouted"),
        pytest.param(CallRule(name="schedule_task"), id="planned"),
        pytest.param(CallRule(among=frozenset({"schedule_task", "list_tasks"})), id="among"),
        pytest.param(CallRule(lines=frozenset({("edit_file", "old")})), id="beside-a-line"),
    ],
)
async def test_in_is_held_to_a_delay_where_schedule_task_may_be_called(rule: CallRule) -> None:
    """Offered (named, or among what may be called): ``in`` is held to a delay, the rest of
    the rule kept, and the planner counts it."""
    state = make_state("Rappelle-moi dans deux heures et demie d'appeler Léa.", tools=WITH_TASKS)
    plan = make_plan(state)
    plan.rule = rule
    await Delays().plan(state, plan)
    assert plan.rule.shapes == HELD
    assert (plan.rule.name, plan.rule.among, plan.rule.lines) == (rule.name, rule.among, rule.lines)
    assert state.fired == [("delays", "held")]


@pytest.mark.parametrize(
    ("rule", "tools", "client"),
    [
        pytest.param(CallRule(), ("current_time",), (), id="not-offered"),
        pytest.param(CallRule(name="current_time"), WITH_TASKS, (), id="held-to-another"),
        pytest.param(CallRule(among=frozenset({"list_tasks"})), WITH_TASKS, (), id="not-among"),
        pytest.param(CallRule(), ("current_time",), ("schedule_task",), id="the-callers-own"),
    ],
)
async def test_nothing_is_held_otherwise(
    rule: CallRule, tools: tuple[str, ...], client: tuple[str, ...]
) -> None:
    """No schedule_task that may be called, or the caller's own: left alone."""
    state = make_state("Remind me in 2 hours to call Lea.", tools=tools, client=client)
    plan = make_plan(state)
    plan.rule = rule
    await Delays().plan(state, plan)
    assert plan.rule == rule
    assert state.fired == []


def _task_schema() -> dict[str, object]:
    props = {k: {"type": "string"} for k in ("prompt", "in", "at")}
    params = {"type": "object", "properties": props, "required": ["prompt"]}
    return {"type": "function", "function": {"name": "schedule_task", "parameters": params}}


def test_the_rule_narrows_a_copy_of_the_schema() -> None:
    """The grammar's schema gets the pattern; the schema shown (and shared) is untouched."""
    tool = _task_schema()
    (narrowed,) = CallRule(name="schedule_task", shapes=HELD).narrow([tool])
    props = narrowed["function"]["parameters"]["properties"]
    assert props["in"] == {"type": "string", "pattern": DELAY}
    assert props["at"] == {"type": "string"}
    assert "pattern" not in tool["function"]["parameters"]["properties"]["in"]  # type: ignore[index]


def test_a_line_and_a_delay_are_held_together() -> None:
    edit = {
        "type": "function",
        "function": {
            "name": "edit_file",
            "parameters": {"type": "object", "properties": {"old": {"type": "string"}}},
        },
    }
    rule = CallRule(shapes=HELD, lines=frozenset({("edit_file", "old")}))
    task, edited = rule.narrow([_task_schema(), edit])
    assert task["function"]["parameters"]["properties"]["in"]["pattern"] == DELAY
    assert edited["function"]["parameters"]["properties"]["old"]["pattern"] != DELAY


def _call(delay: str) -> str:
    args = f'{{"prompt": "call Lea", "in": "{delay}"}}'
    return f'```json\n{{"name": "schedule_task", "arguments": {args}}}\n```'


@pytest.mark.parametrize(
    ("delay", "ok"),
    [
        pytest.param("45m", True, id="minutes"),
        pytest.param("2h30m", True, id="hours-and-minutes"),
        pytest.param("2h0m", True, id="whole-hours"),
        pytest.param("3d", True, id="days"),
        pytest.param("2h", False, id="hours-alone"),
        pytest.param("2.5h", False, id="a-fraction"),
        pytest.param("1h 30m", False, id="a-space"),
        pytest.param("2 hours", False, id="words"),
        pytest.param("", False, id="empty"),
        pytest.param("10s", True, id="seconds"),
        pytest.param("2h30", False, id="minutes-without-their-unit"),
    ],
)
def test_the_grammar_holds_a_delay(delay: str, ok: bool) -> None:
    (narrowed,) = CallRule(shapes=HELD).narrow([_task_schema()])
    assert accepts(tool_step_grammar([narrowed]), _call(delay)) is ok


def test_a_held_call_start_keeps_the_delay_rule() -> None:
    """Started up to ``"prompt":``, the rest still holds ``in`` to a delay."""
    (narrowed,) = CallRule(name="schedule_task", shapes=HELD).narrow([_task_schema()])
    start, grammar = held_call_start(narrowed)
    assert start.endswith('"prompt":')
    assert accepts(grammar, ' "call Lea", "in": "2h30m"\n  }\n}\n```')
    assert not accepts(grammar, ' "call Lea", "in": "2h"\n  }\n}\n```')
