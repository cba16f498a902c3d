"""The after-tool policies: repeats, reroute and overwrite."""

from __future__ import annotations

import anyio
import pytest

from agentd.engine.asking import Asker
from agentd.engine.guards.base import StepRun
from agentd.engine.guards.overwrite import KEEP, KEEP_HEAD, REPLACE, REPLACE_HEAD, Overwrite
from agentd.engine.guards.repeats import Repeats
from agentd.engine.guards.reroute import Reroute
from agentd.engine.notes import ANSWER_NOW, REMINDER_HEAD
from agentd.engine.turnstate import TurnState
from agentd.errors import ToolError
from agentd.messages import ToolCall
from agentd.tools.overwrite import HELD_BACK
from agentd.tools.registry import ToolOutcome, ToolRegistry
from tests.engine.guards.conftest import KINDS, make_plan, make_state
from tests.support.fake_model import FakeModel

pytestmark = pytest.mark.anyio

CALL = ("read_file", '{"path": "a.txt"}')


async def test_repeats_answers_after_a_step_of_cached_calls() -> None:
    state = make_state("x")
    run = StepRun(make_plan(state), (CALL,), (ToolOutcome("text"),), served=(True,))
    following = await Repeats().after(state, run)
    assert following is not None and following.bare
    assert following.notes[0].content.startswith(ANSWER_NOW)


async def test_repeats_answers_after_the_same_failure_again() -> None:
    state = make_state("x")
    failed = (ToolOutcome("no such file", error=True),)
    first = StepRun(make_plan(state), (CALL,), failed, (False,))
    assert await Repeats().after(state, first) is None
    again = StepRun(
        make_plan(state), (CALL,), failed, (False,), frozenset({("read_file", "no such file")})
    )
    following = await Repeats().after(state, again)
    assert following is not None and following.bare


async def test_repeats_answers_after_a_step_of_old_results_and_old_failures() -> None:
    """A step that lists the folder again (cached) beside the same failing call five times
    (one ran, four copies) brought nothing new; one new result or new failure is new."""
    state = make_state("x")
    listed = ("list_dir", '{"path": "."}')
    wrong = ("list_dir", '{"path": "notes.txt"}')
    error = "no folder 'notes.txt' in the workdir"
    calls = (listed, *[wrong] * 5)
    outcomes = (ToolOutcome("notes.txt"), *[ToolOutcome(error, error=True)] * 5)
    served = (True, False, True, True, True, True)
    before = frozenset({("list_dir", error)})
    again = StepRun(make_plan(state), calls, outcomes, served, before)
    following = await Repeats().after(state, again)
    assert following is not None and following.bare
    assert state.fired[-1] == ("repeats", "failed_again")
    first_time = StepRun(make_plan(state), calls, outcomes, served, frozenset())
    assert await Repeats().after(state, first_time) is None
    new_listing = StepRun(make_plan(state), calls, outcomes, (False, *served[1:]), before)
    assert await Repeats().after(state, new_listing) is None


async def test_reroute_routes_once_after_failed_calls() -> None:
    state = make_state("x")
    failed = StepRun(make_plan(state), (CALL,), (ToolOutcome("no", error=True),), (False,))
    following = await Reroute().after(state, failed)
    assert following is not None and following.route
    assert following.notes[0].content.startswith(REMINDER_HEAD)
    assert await Reroute().after(state, failed) is None  # once a turn
    ok = StepRun(make_plan(state), (CALL,), (ToolOutcome("fine"),), (False,))
    assert await Reroute().after(make_state("y"), ok) is None


WRITE = ("write_file", '{"path": "todo.txt", "content": "- call the bank\\n"}')


def held_back() -> ToolOutcome:
    """write_file's refusal as the registry reports it to the turn."""
    registry = ToolRegistry()

    async def write_file(path: str, content: str) -> str:
        """Write a file.

        Args:
            path: The file.
            content: Its text.
        """
        raise ToolError(f"{HELD_BACK} {path} and drop 2 of its 2 lines ('a'; 'b')")

    registry.add(write_file)
    outcome = anyio.run(registry.call, ToolCall("c1", *WRITE))
    assert outcome.error
    return outcome


HELD = held_back()


def overwrite_run(state: TurnState, outcome: ToolOutcome = HELD) -> StepRun:
    """A step whose write_file call came back with ``outcome``."""
    return StepRun(make_plan(state), (WRITE,), (outcome,), (False,))


async def test_overwrite_keep_routes_to_the_tools_that_add_or_change_a_piece() -> None:
    """After a write held back, the model's `keep` routes the next step among the file tools
    that keep the other lines (never write_file, never another kind's tool); asked apart, with
    the request and the new text, once a turn."""
    model = FakeModel()
    model.choices.append(KEEP)
    state = make_state("Add '- call the bank' to todo.txt.", kinds=KINDS)
    following = await Overwrite(Asker(model)).after(state, overwrite_run(state))
    assert following is not None and following.route
    assert following.tools == frozenset({"append_file"})
    assert following.notes[0].content.startswith(KEEP_HEAD)
    question = model.asked[0][1].content
    assert "Add '- call the bank' to todo.txt." in question and "- call the bank" in question
    assert model.options == [(KEEP, REPLACE)] and ("overwrite", KEEP) in state.fired
    assert await Overwrite(Asker(model)).after(state, overwrite_run(state)) is None


async def test_overwrite_replace_offers_the_write_again() -> None:
    """`replace`: the next step is offered write_file alone, to send the same call again."""
    model = FakeModel()
    model.choices.append(REPLACE)
    state = make_state("Replace todo.txt with just '- call the bank'.", kinds=KINDS)
    following = await Overwrite(Asker(model)).after(state, overwrite_run(state))
    assert following is not None and following.tools == frozenset({"write_file"})
    assert following.notes[0].content.startswith(REPLACE_HEAD) and not following.route


@pytest.mark.parametrize(
    ("outcome", "word"),
    [
        pytest.param(ToolOutcome("wrote 16 characters to todo.txt"), KEEP, id="written"),
        pytest.param(ToolOutcome("no such directory", error=True), KEEP, id="other-error"),
        pytest.param(HELD, None, id="no-answer"),
    ],
)
async def test_overwrite_says_nothing_otherwise(outcome: ToolOutcome, word: str | None) -> None:
    """A write that went through or failed for another reason asks nothing; no answer from
    the model leaves the turn as it was."""
    model = FakeModel()
    model.choices.append(word)
    state = make_state("Add a line to todo.txt.", kinds=KINDS)
    assert await Overwrite(Asker(model)).after(state, overwrite_run(state, outcome)) is None
    assert len(model.asked) == (1 if outcome is HELD else 0)


async def test_overwrite_needs_a_tool_that_keeps_the_lines() -> None:
    """With no other file tool that acts on offer, there is nothing to route to: no question."""
    model = FakeModel()
    model.choices.append(KEEP)
    state = make_state("Add a line to todo.txt.", tools=("read_file", "write_file"), kinds=KINDS)
    assert await Overwrite(Asker(model)).after(state, overwrite_run(state)) is None
    assert model.asked == []


async def test_reroute_names_the_request_s_files_the_failed_calls_missed() -> None:
    """After failed calls that used none of the request's workdir files, the routed step's
    note names them."""
    state = make_state("Count the lines of datos.txt with wc.")
    state.named = ("datos.txt",)
    call = ("exec", '{"command": "wc -l data.txt"}')
    failed = StepRun(
        make_plan(state), (call,), (ToolOutcome("no such file", error=True),), (False,)
    )
    following = await Reroute().after(state, failed)
    assert following is not None and "datos.txt" in following.notes[0].content
