"""The route planner: the model names the step's tool, or ``answer``."""

from __future__ import annotations

import pytest

from agentd.engine.asking import Asker
from agentd.engine.guards.route import Route
from agentd.engine.notes import NOTHING_TO_READ
from agentd.engine.route import ANSWER, QUESTION_HEAD
from tests.engine.guards.conftest import make_plan, make_state
from tests.support.fake_model import FakeModel

pytestmark = pytest.mark.anyio


async def test_answer_offers_no_tools() -> None:
    """Routed to answer, the step answers in words without tools in its prompt."""
    model = FakeModel()
    model.choices.append(ANSWER)
    state = make_state("What is the capital of Italy?")
    plan = make_plan(state)
    await Route(Asker(model)).plan(state, plan)
    assert plan.tools is None and plan.answer_only and plan.route == ANSWER
    assert model.asked[0][-1].content.startswith(QUESTION_HEAD)
    assert model.shown[0] is not None  # the step's tools are in the question's template


async def test_a_tool_holds_the_step_to_it() -> None:
    """Routed to a tool, the step must call that tool."""
    model = FakeModel()
    model.choices.append("memory_save")
    state = make_state("Merke dir: mein Lieblingstee ist Sencha.")
    plan = make_plan(state)
    await Route(Asker(model)).plan(state, plan)
    assert plan.rule.name == "memory_save" and plan.route == "memory_save"
    assert state.fired == [("route", "tool")] and state.requests.used == 1


async def test_a_read_names_one_of_the_workdir_files() -> None:
    """A routed read_file is held to the workdir's files."""
    model = FakeModel()
    model.choices.append("read_file")

    async def listing() -> list[str]:
        return ["notes.md", "todo.txt"]

    state = make_state("What did I write down?")
    plan = make_plan(state)
    await Route(Asker(model), listing).plan(state, plan)
    assert plan.rule.name == "read_file"
    assert dict(plan.rule.values)["path"] == ("notes.md", "todo.txt")


async def test_a_read_of_the_one_workdir_file_is_given() -> None:
    """With one file in the workdir, a routed read has nothing left to write (its path the
    one file, the rest held to read_file's defaults): the loop makes it."""
    model = FakeModel()
    model.choices.append("read_file")

    async def listing() -> list[str]:
        return ["notes.md"]

    state = make_state("What did I write down?")
    plan = make_plan(state)
    props = {"path": {"type": "string"}, "offset": {"type": "integer", "default": 0}}
    read = {"name": "read_file", "parameters": {"type": "object", "properties": props}}
    plan.tools = [*(t for t in plan.tools or () if t["function"]["name"] != "read_file")]
    plan.tools.append({"type": "function", "function": read})
    await Route(Asker(model), listing).plan(state, plan)
    assert plan.rule.given(plan.tools) == {"path": "notes.md", "offset": 0}


async def test_a_read_in_an_empty_workdir_answers() -> None:
    """No file to read: the step answers, told there is nothing to read."""
    model = FakeModel()
    model.choices.append("read_file")

    async def listing() -> list[str]:
        return []

    state = make_state("Translate 'good morning' into Spanish.")
    plan = make_plan(state)
    await Route(Asker(model), listing).plan(state, plan)
    assert plan.tools is None and plan.route == ANSWER
    assert plan.notes[-1].content.startswith(NOTHING_TO_READ)


@pytest.mark.parametrize(
    ("routable", "client"),
    [pytest.param(False, (), id="unroutable"), pytest.param(True, ("f",), id="client")],
)
async def test_it_stays_out_of_unrouted_and_client_led_steps(
    routable: bool, client: tuple[str, ...]
) -> None:
    """A step not marked routable, or one a client leads, is not routed."""
    model = FakeModel()
    model.choices.append(ANSWER)
    state = make_state("hi", client=client)
    plan = make_plan(state, routable=routable)
    await Route(Asker(model)).plan(state, plan)
    assert model.asked == [] and plan.route is None and plan.tools


async def test_an_unknown_word_leaves_the_step_unrouted() -> None:
    """A word that is no offered tool (or no answer at all) changes nothing."""
    model = FakeModel()
    model.choices.append(None)
    state = make_state("hi")
    plan = make_plan(state)
    await Route(Asker(model)).plan(state, plan)
    assert plan.route is None and plan.tools and not plan.rule.must_call


def _with_command_exec(state, plan) -> None:  # type: ignore[no-untyped-def]
    """Give ``exec`` its real shape: a ``command``, no ``path``."""
    for schema in plan.tools:
        if schema["function"]["name"] == "exec":
            props = {"command": {"type": "string"}}
            schema["function"]["parameters"] = {"type": "object", "properties": props}


@pytest.mark.parametrize(
    ("choice", "reads"),
    [
        pytest.param("edit_file", True, id="change-by-path"),
        pytest.param("exec", False, id="command"),
        pytest.param(ANSWER, True, id="answer-before-seeing-the-file"),
    ],
)
async def test_a_named_file_is_read_before_a_change_but_not_before_a_command(
    choice: str, reads: bool
) -> None:
    """An action naming a workdir file: routed to a tool that changes files by path, or to an
    answer in words before the file was seen, the files are read first; routed to a command,
    the command runs as asked."""
    from agentd.engine.guards.read_first import READ_FIRST

    model = FakeModel()
    model.choices.append(choice)
    state = make_state("Run greet.sh with sh.", tools=("read_file", "edit_file", "exec"))
    state.may_act, state.named = True, ("greet.sh",)
    plan = make_plan(state)
    _with_command_exec(state, plan)
    await Route(Asker(model)).plan(state, plan)
    if reads:
        assert plan.route == READ_FIRST and plan.rule.name == "read_file"
        assert dict(plan.rule.values)["path"] == ("greet.sh",)
        assert ("read_first", "read") not in state.fired  # counted once, where it was planned
    else:
        assert plan.route == "exec" and plan.rule.name == "exec"
