"""A TurnState and StepPlan to judge each turn rule on, without a loop or a model server."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agentd.engine.turnstate import RequestBudget, StepPlan, TurnState
from agentd.messages import Conversation, Message, system, user
from agentd.model import pinning
from agentd.model.choice import ANY, CallRule
from agentd.model.usage import Usage
from tests.support.fake_model import FakeModel

LOOKING = ("read_file", "list_dir", "current_time")
ACTING = ("write_file", "append_file", "exec", "memory_save")
#: What the tools above work on, as the daemon registers them (current_time: nothing).
KINDS = {
    "read_file": "file",
    "list_dir": "file",
    "write_file": "file",
    "append_file": "file",
    "exec": "command",
    "memory_save": "memory",
}


class SlotRecording(FakeModel):
    """A fake model that records the server slot each question went to."""

    def __init__(self) -> None:
        super().__init__()
        self.slots: list[int | None] = []

    async def choose(self, *args: Any, **kwargs: Any) -> str | None:
        self.slots.append(pinning.current())
        return await super().choose(*args, **kwargs)


def schema(name: str) -> dict[str, Any]:
    """An OpenAI ``tools`` entry named ``name`` with one string argument, ``path``."""
    params = {"type": "object", "properties": {"path": {"type": "string"}}}
    return {"type": "function", "function": {"name": name, "parameters": params}}


def make_state(
    request: str = "hi",
    *,
    tools: Sequence[str] = (*LOOKING, *ACTING),
    client: Sequence[str] = (),
    history: Sequence[Message] = (),
    step: int = 1,
    requests: int = 16,
    rule: CallRule = ANY,
    kinds: Mapping[str, str] | None = None,
) -> TurnState:
    """A turn at ``step`` answering ``request``, offering ``tools`` (those in LOOKING look; of
    the ``kinds`` given, none by default)."""
    conversation = Conversation([system("be brief"), *history, user(request)])
    names = frozenset((*tools, *client))
    state = TurnState(
        conversation=conversation,
        schemas=[schema(n) for n in (*tools, *client)] or None,
        names=names,
        client_names=frozenset(client),
        looking=frozenset(LOOKING) & names,
        rule=rule,
        max_steps=8,
        requests=RequestBudget(requests),
        usage=Usage(),
        fresh=True,
        kinds=dict(kinds or {}),
    )
    state.step = step
    state.view = lambda plan: [*conversation.messages, *plan.notes]
    return state


def make_plan(state: TurnState, *, routable: bool = True) -> StepPlan:
    """The plan a step of ``state`` starts from: every tool of the turn offered."""
    return StepPlan(
        tools=list(state.schemas or ()),
        names=state.names,
        rule=state.rule,
        routable=routable,
    )


def request_of(messages: Sequence[Message]) -> str:
    return "\n".join(m.content for m in messages)


__all__ = ["KINDS", "SlotRecording", "make_plan", "make_state", "request_of", "user"]
