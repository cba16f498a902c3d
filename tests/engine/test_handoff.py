"""The messages of stateless turns that handed calls to their client, kept for the next step."""

from __future__ import annotations

from agentd import scope as scopes
from agentd.engine.handoff import HandedTurns
from agentd.messages import Message, ToolCall, assistant, tool_result, user

A = scopes.Scope(tenant="a")
B = scopes.Scope(tenant="b")
OURS = ToolCall("call_0", "current_time", "{}")
THEIRS = ToolCall("call_1", "mul", '{"a": 6, "b": 7}')


def _turn() -> list[Message]:
    return [assistant("", (OURS, THEIRS)), tool_result(OURS, "noon")]


def _sent(call_id: str = "call_1") -> list[Message]:
    call = ToolCall(call_id, "mul", '{"a": 6, "b": 7}')
    return [user("6*7?"), assistant("", (call,)), tool_result(call, "42")]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_handed_step_is_restored_in_place() -> None:
    kept = HandedTurns()
    kept.keep(A, assistant("", (THEIRS,)), _turn())
    restored = kept.restore(A, _sent())
    assert [m.role for m in restored] == ["user", "assistant", "tool", "tool"]
    assert [c.id for c in restored[1].tool_calls] == ["call_0", "call_1"]
    assert [m.tool_call_id for m in restored[2:]] == ["call_0", "call_1"]


def test_another_tenant_or_other_ids_get_what_they_sent() -> None:
    kept = HandedTurns()
    kept.keep(A, assistant("", (THEIRS,)), _turn())
    for scope, sent in ((B, _sent()), (A, _sent("call_9"))):
        assert kept.restore(scope, sent) == sent


def test_entries_are_bounded_in_number_and_age() -> None:
    clock = Clock()
    kept = HandedTurns(max_entries=2, max_age=10, clock=clock)
    for n in range(3):
        kept.keep(A, assistant("", (ToolCall(f"c{n}", "mul", "{}"),)), _turn())
    assert len(kept) == 2
    oldest, newest = _sent("c0"), _sent("c2")
    assert kept.restore(A, oldest) == oldest  # the oldest went first
    assert len(kept.restore(A, newest)) == 4
    clock.now = 11
    assert kept.restore(A, newest) == newest
    assert len(kept) == 0


def test_answers_without_calls_are_not_kept() -> None:
    kept = HandedTurns()
    kept.keep(A, assistant("done"), _turn())
    assert len(kept) == 0
