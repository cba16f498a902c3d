"""The client calls a session waits on: found at the end, answered exactly, or closed."""

from __future__ import annotations

import pytest

from agentd.engine.pending import NOT_RUN, answered, closed, pending_calls
from agentd.engine.policy import CLIENT_CALLS, well_formed
from agentd.errors import ToolResultMismatch
from agentd.messages import Message, ToolCall, assistant, tool_result, user

OURS = ToolCall("a", "current_time", "{}")
THEIRS = ToolCall("b", "mul", "{}")


def _handed() -> list[Message]:
    step = assistant("", [OURS, THEIRS])
    step.metadata[CLIENT_CALLS] = ["b"]
    return [user("q"), step, tool_result(OURS, "noon")]


def test_pending_calls_are_the_unanswered_calls_at_the_end() -> None:
    """The last exchange's calls without a result are pending; a later message ends that."""
    assert pending_calls(_handed()) == [THEIRS]
    assert pending_calls([*_handed(), tool_result(THEIRS, "1")]) == []
    assert pending_calls([*_handed(), user("again")]) == []


def test_answered_accepts_exactly_the_pending_results() -> None:
    """Results answering the pending calls are stored under the calls' ids and names."""
    out = answered(_handed(), [Message(role="tool", content="42", tool_call_id="b")])
    assert [(m.tool_call_id, m.name, m.content) for m in out] == [("b", "mul", "42")]


@pytest.mark.parametrize(
    "ids",
    [
        pytest.param(["x"], id="unknown-call"),
        pytest.param(["a"], id="agent-call-already-answered"),
        pytest.param(["b", "b"], id="twice"),
        pytest.param([], id="missing"),
    ],
)
def test_answered_refuses_results_that_do_not_match(ids: list[str]) -> None:
    """A result for a call that is not pending, twice, or a pending call left out is refused."""
    results = [Message(role="tool", content="r", tool_call_id=i) for i in ids]
    with pytest.raises(ToolResultMismatch):
        answered(_handed(), results)


def test_closed_answers_each_pending_call_as_not_run() -> None:
    """A new message closes each pending call with the "not run" result."""
    assert [(m.tool_call_id, m.content) for m in closed(_handed())] == [("b", NOT_RUN)]


def test_well_formed_keeps_a_handed_exchange_at_the_end_only() -> None:
    """A marked open exchange survives at the end; an unmarked or inner one is dropped."""
    assert [m.role for m in well_formed(_handed())] == ["user", "assistant", "tool"]
    unmarked = _handed()
    unmarked[1].metadata.clear()
    assert [m.role for m in well_formed(unmarked)] == ["user"]
    assert [m.role for m in well_formed([*_handed(), user("next")])] == ["user", "user"]
