"""The three shapes of a turn's rules, and what they answer.

- A **step planner** shapes the next model call (:class:`~agentd.engine.turnstate.StepPlan`):
  which tools it offers, which call it holds to, which notes it sends.
- An **answer guard** judges the model's reply: :data:`ACCEPT`, :class:`Retry` (ask once more,
  with what the next step must be) or :class:`Replace` (keep this message instead).
- An **after-tool policy** looks at a step's calls and results and may say what the next
  step must be (:class:`~agentd.engine.turnstate.Next`).

Each is a small named unit in its own module. ``serves`` says which models it is for:
``any`` (structural rules every model needs) or ``local`` (rules for a small model held to a
grammar by a local llama-server: routing, yes/no checks, asking again). A guard's setting
(``default.guards.<name>``) is ``auto`` (its ``serves`` decides), ``on`` or ``off``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from agentd.engine.turnstate import Next, StepPlan, TurnState
from agentd.messages import Message
from agentd.tools.registry import ToolOutcome

#: Which models a rule is for (see the module docstring).
Serves = Literal["any", "local"]


@dataclass(frozen=True, slots=True)
class Accept:
    """The reply stands."""


@dataclass(frozen=True, slots=True)
class Retry:
    """Ask once more: the reply is dropped, the next step is ``next``."""

    next: Next


@dataclass(frozen=True, slots=True)
class Replace:
    """The reply is replaced by ``message``."""

    message: Message


ACCEPT = Accept()
Verdict = Accept | Retry | Replace


class StepPlanner(Protocol):
    """Shapes the next model call."""

    name: str
    serves: Serves

    async def plan(self, state: TurnState, plan: StepPlan) -> None: ...


class AnswerGuard(Protocol):
    """Judges a reply: ``calls`` guards see replies that call tools, the others answers."""

    name: str
    serves: Serves
    calls: bool

    def holds(self, state: TurnState, plan: StepPlan) -> bool:
        """Whether this guard may ask again or replace the step's reply: its text is then
        held back from the stream until the guards pass it."""
        ...

    async def judge(self, state: TurnState, plan: StepPlan, reply: Message) -> Verdict: ...


@runtime_checkable
class Clears(Protocol):
    """An answer guard that can let a held answer go before it ends: once its first words
    show that the guard will not object, the rest streams."""

    def clears(self, state: TurnState, text: str) -> bool:
        """Whether the held answer's first ``text`` may go on to the client."""
        ...


@dataclass(frozen=True, slots=True)
class StepRun:
    """A step's calls of the agent's own tools as (name, arguments), their outcomes, and which
    of them did not run: served from the call cache, or copies of another call of the step."""

    plan: StepPlan
    calls: tuple[tuple[str, str], ...]
    outcomes: tuple[ToolOutcome, ...]
    served: tuple[bool, ...]
    #: (tool, error) of the turn's calls that failed before this step.
    earlier_failures: frozenset[tuple[str, str]] = frozenset()

    def brought_nothing_new(self) -> bool:
        """Whether every call of the step was served, or failed just as a call failed
        before (the same tool, the same error): what the model needs is above."""
        return all(
            served or (out.error and (name, out.content) in self.earlier_failures)
            for (name, _), out, served in zip(self.calls, self.outcomes, self.served, strict=True)
        )


class AfterToolPolicy(Protocol):
    """After a step's tools ran: what the next step must be (None: no say)."""

    name: str
    serves: Serves

    async def after(self, state: TurnState, run: StepRun) -> Next | None: ...


def verdict_name(verdict: Verdict) -> str:
    """The counter label of ``verdict``: ``accept``, ``retry`` or ``replace``."""
    if isinstance(verdict, Retry):
        return "retry"
    return "replace" if isinstance(verdict, Replace) else "accept"
