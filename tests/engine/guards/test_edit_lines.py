"""The edit-lines planner: edit_file's ``old`` is held to one line under the grammar."""

from __future__ import annotations

import pytest

from agentd.engine.guards.edit_lines import EditLines
from agentd.model.choice import CallRule
from agentd.model.grammar import ONE_LINE
from tests.engine.guards.conftest import make_plan, make_state

pytestmark = pytest.mark.anyio

WITH_EDIT = ("read_file", "edit_file", "write_file")


@pytest.mark.parametrize(
    "rule",
    [
        pytest.param(CallRule(), id="unrouted"),
        pytest.param(CallRule(name="edit_file"), id="routed-to-edit"),
        pytest.param(CallRule(name="edit_file", values=(("path", ("a.conf",)),)), id="held"),
        pytest.param(CallRule(among=frozenset({"edit_file", "read_file"})), id="among"),
    ],
)
async def test_old_is_held_to_one_line_where_edit_file_may_be_called(rule: CallRule) -> None:
    """Offered (named, or among what may be called): its ``old`` is held to one line, the
    rest of the rule kept, and the planner counts it."""
    state = make_state("Passe heure_depart de 07:15 à 06:45 dans cafetiere.conf.", tools=WITH_EDIT)
    plan = make_plan(state)
    plan.rule = rule
    await EditLines().plan(state, plan)
    assert plan.rule.lines == {("edit_file", "old")}
    assert (plan.rule.name, plan.rule.values, plan.rule.among) == (
        rule.name,
        rule.values,
        rule.among,
    )
    assert state.fired == [("edit_lines", "held")]


@pytest.mark.parametrize(
    ("rule", "tools", "client"),
    [
        pytest.param(CallRule(), ("read_file", "write_file"), (), id="not-offered"),
        pytest.param(CallRule(name="read_file"), WITH_EDIT, (), id="held-to-another"),
        pytest.param(CallRule(among=frozenset({"read_file"})), WITH_EDIT, (), id="not-among"),
        pytest.param(CallRule(), ("read_file",), ("edit_file",), id="the-callers-own"),
    ],
)
async def test_nothing_is_held_otherwise(
    rule: CallRule, tools: tuple[str, ...], client: tuple[str, ...]
) -> None:
    """No edit_file that may be called, or the caller's own (its model, its tool): left
    alone."""
    state = make_state("Change x to 2 in a.conf", tools=tools, client=client)
    plan = make_plan(state)
    plan.rule = rule
    await EditLines().plan(state, plan)
    assert plan.rule == rule
    assert state.fired == []


async def test_the_hold_is_let_go_once_an_edit_failed() -> None:
    """The one line appeared twice: the tool asks for the lines around it, which the next
    step may then give."""
    state = make_state("Change x to 2 in a.conf", tools=WITH_EDIT)
    state.failures.add(("edit_file", "the text to replace appears 2 times in 'a.conf'"))
    plan = make_plan(state)
    await EditLines().plan(state, plan)
    assert plan.rule.lines == frozenset()


def _edit_schema() -> dict[str, object]:
    props = {k: {"type": "string"} for k in ("path", "old", "new")}
    params = {"type": "object", "properties": props, "required": list(props)}
    return {"type": "function", "function": {"name": "edit_file", "parameters": params}}


def test_the_rule_narrows_a_copy_of_the_schema() -> None:
    """The grammar's schema gets the pattern; the schema shown (and shared) is untouched, and
    a held argument keeps its values."""
    tool = _edit_schema()
    rule = CallRule(
        name="edit_file", values=(("path", ("a.conf",)),), lines=frozenset({("edit_file", "old")})
    )
    (narrowed,) = rule.narrow([tool])
    props = narrowed["function"]["parameters"]["properties"]
    assert props["old"] == {"type": "string", "pattern": ONE_LINE}
    assert props["new"] == {"type": "string"}
    assert props["path"]["enum"] == ["a.conf"]
    assert "pattern" not in tool["function"]["parameters"]["properties"]["old"]  # type: ignore[index]


def test_lines_naming_no_argument_of_a_tool_leave_it_as_it_is() -> None:
    tool = _edit_schema()
    rule = CallRule(lines=frozenset({("edit_file", "missing"), ("write_file", "content")}))
    assert rule.narrow([tool])[0] is tool
