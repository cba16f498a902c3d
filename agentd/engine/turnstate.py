"""One turn's state, shared by the agent loop and its guards (:mod:`agentd.engine.guards`).

A :class:`TurnState` holds what a turn knows: its request, the messages it added, the step it
is at, what memory recalled, the model's decision whether the request asks for an action, the
call cache, the request budget and the guards that fired. A :class:`StepPlan` is what the next
model call offers and holds; the step planners shape it. A :class:`Next` is what a guard or an
after-tool policy asks of the next step (a note, an answer in words, a routed step, the turn
alone in view); the loop turns it into the next plan. Nothing else carries control between
steps: no flag lives outside these three.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from agentd.engine.callcache import CallCache
from agentd.messages import Conversation, Message
from agentd.model.choice import ANY, CallRule
from agentd.model.usage import Usage

#: The turn's request, cut to this many characters wherever a guard quotes it.
REQUEST_CHARS = 300


@dataclass(slots=True)
class Next:
    """What the next step must be, as a guard or a policy asks it.

    ``notes`` go after the conversation in that one call, never stored; ``bare``: no tools
    (an answer in words); ``route``: the step is routed (the model names its tool first);
    ``tools``: only these of the turn's tools are offered (None: all); ``alone``: the call
    sees the turn from this message on (the system prompt kept)."""

    notes: list[Message] = field(default_factory=list)
    bare: bool = False
    route: bool = False
    tools: frozenset[str] | None = None
    alone: Message | None = None


@dataclass(slots=True)
class StepPlan:
    """What one model call offers and holds: the tools (None: none), their names, the call
    rule, whether only words may come back, the notes sent after the conversation, and the
    route the step took (None: not routed).

    ``shown``: the tools the prompt shows whatever the step offers (None: those offered).
    Under a grammar every step of a turn shows all of the turn's tools and the grammar holds
    the calls to the offered ones: the prompt then starts the same way at every step and in
    every turn, and the model server reads only its new tokens. (Narrowed in the prompt
    itself, a step re-read everything after the system prompt: ~1,000 tokens, 18-20 s on 2
    cores, on most turns that act.) The one exception is an answer in words before any tool
    of the turn ran: it is shown none (:meth:`hide_tools`)."""

    tools: list[dict[str, Any]] | None
    names: frozenset[str]
    rule: CallRule = ANY
    answer_only: bool = False
    notes: list[Message] = field(default_factory=list)
    alone: Message | None = None
    routable: bool = False
    route: str | None = None
    shown: list[dict[str, Any]] | None = None

    @property
    def prompt_tools(self) -> list[dict[str, Any]] | None:
        """The tools the prompt shows: ``shown``, else those offered."""
        return self.shown if self.shown is not None else self.tools

    def request(self) -> tuple[list[dict[str, Any]] | None, CallRule, bool]:
        """What the model call is sent: the prompt's tools, the call rule (held to the
        offered tools when more are shown) and whether only words may come back."""
        if self.shown is None:
            return self.tools, self.rule, self.answer_only
        if not self.tools:
            return self.shown, self.rule, True
        return self.shown, replace(self.rule, among=self.names), self.answer_only

    def hide_tools(self) -> None:
        """Show no tools either: an answer in words before any tool ran. (Shown tools it
        could not call, the model wrote a call as text for its answer: a JSON memory_save
        for a translation, a current_time for a fact it was asked to recall.)"""
        self.without_tools()
        self.shown = None

    def without_tools(self) -> None:
        """Offer no tools: the step answers in words."""
        self.tools, self.names, self.rule = None, frozenset(), ANY
        self.answer_only = True

    def only(self, names: frozenset[str]) -> None:
        """Offer only the tools named ``names`` (no tool left: the step answers in words)."""
        kept = [t for t in self.tools or () if str(t["function"]["name"]) in names]
        if not kept:
            self.without_tools()
            return
        self.tools, self.names = kept, self.names & names


@dataclass(slots=True)
class TurnState:
    """Everything a turn knows while it runs (see the module docstring)."""

    conversation: Conversation
    #: All the tools the turn may offer: the registry's the policy allows, and the client's.
    schemas: list[dict[str, Any]] | None
    names: frozenset[str]
    client_names: frozenset[str]
    #: Tools that only look (their calls may be cached); every other tool acts.
    looking: frozenset[str]
    #: The caller's ``tool_choice`` / ``parallel_tool_calls``.
    rule: CallRule
    max_steps: int
    requests: RequestBudget
    usage: Usage
    #: Whether the turn answers a user's message (not tool results a client sent back).
    fresh: bool
    #: The request and the copy the model is sent with what memory recalled (or None).
    recalled: tuple[Message, Message] | None = None
    #: What the turn's own tools work on, by name (:mod:`agentd.tools.kinds`).
    kinds: Mapping[str, str] = field(default_factory=dict)
    step: int = 0
    added: list[Message] = field(default_factory=list)
    #: (guard, verdict) in the order they fired.
    fired: list[tuple[str, str]] = field(default_factory=list)
    cache: CallCache = field(default_factory=CallCache)
    #: The model's decision (intent guard): True, the request asks for an action; False, for
    #: words only; None, not asked.
    may_act: bool | None = None
    #: The tools that act on what the request changes, by the model's word for it (intent
    #: guard; :mod:`agentd.tools.kinds`); None: any tool that acts.
    doing: frozenset[str] | None = None
    #: The model found that the request needs no tool at all (intent guard): no step of the
    #: turn offers one.
    words_only: bool = False
    #: The workdir files the request names (read_first), read before a change of them.
    named: tuple[str, ...] = ()
    #: The tools the model planned for the request, in order (asked by the intent guard,
    #: followed by the plan guard), how many of them are done, and how often the next one
    #: was held.
    planned: tuple[str, ...] = ()
    plan_at: int = 0
    plan_holds: int = 0
    #: Guards that asked again already (each asks again at most once a turn).
    retried: set[str] = field(default_factory=set)
    #: Whether the step's reply has reached the client already: every guard that held it
    #: let it go before it ended (:class:`~agentd.engine.guards.base.Clears`).
    streamed: bool = False
    #: (tool, error) of the turn's failed calls.
    failures: set[tuple[str, str]] = field(default_factory=set)
    #: Whether a step was routed again after failed calls (once a turn).
    rerouted: bool = False
    #: The messages a step with this plan sends (fitted to the context; set by the loop), so
    #: a question about the step shares its cached prompt.
    view: Callable[[StepPlan], list[Message]] = lambda plan: []
    #: Every step shows all of ``schemas`` in its prompt, the grammar holding its calls to
    #: those it offers (:attr:`StepPlan.shown`): set when the model is held to a grammar and
    #: the caller brought no tools of its own (its request is shown as it sent it).
    shows_all: bool = False
    #: Told of each rule that fired: (guard, verdict); the daemon counts them.
    on_guard: Callable[[str, str], None] | None = None

    @property
    def request(self) -> str:
        """The turn's request: the last user message."""
        return self.conversation.request()

    @property
    def short_request(self) -> str:
        """The request on one line, cut to ``REQUEST_CHARS``."""
        text = " ".join(self.request.split())
        return text[:REQUEST_CHARS] + "..." if len(text) > REQUEST_CHARS else text

    @property
    def client_led(self) -> bool:
        """Whether the caller brought its own tools: it leads the tool loop, and the guards
        that steer a small model's choices stand aside."""
        return bool(self.client_names)

    @property
    def acting(self) -> frozenset[str]:
        """The turn's tools that act (write, run, save, schedule...)."""
        return self.names - self.looking

    def acted(self) -> bool:
        """Whether a tool that acts ran without an error in this turn."""
        return any(
            m.role == "tool" and not m.metadata.get("error") and m.name not in self.looking
            for m in self.added
        )

    def next_planned(self) -> str | None:
        """The plan's next tool (None: no plan, or it is done)."""
        return self.planned[self.plan_at] if self.plan_at < len(self.planned) else None

    def turn_start(self) -> int | None:
        """Where the request stands in the conversation when tools ran in this turn (None
        otherwise, or when the turn went on from tool results a client sent)."""
        messages = self.conversation.messages
        at = len(messages) - len(self.added) - 1
        if not self.added or at < 0 or messages[at].role != "user":
            return None
        return at

    def fire(self, guard: str, verdict: str) -> None:
        """Record that ``guard`` fired with ``verdict`` (and tell the daemon's counter)."""
        self.fired.append((guard, verdict))
        if self.on_guard is not None:
            self.on_guard(guard, verdict)


@dataclass(slots=True)
class RequestBudget:
    """The model requests a turn may still make (``default.max_model_requests``): steps,
    routing and yes/no questions, answers asked for again, retries after "context exceeded".
    One is always kept for the answer: a guard spends only a ``spare`` one."""

    limit: int
    used: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)

    @property
    def left(self) -> int:
        return max(0, self.limit - self.used)

    def spare(self) -> bool:
        """Whether a request beyond the answer's is left."""
        return self.left > 1

    def spend(self, kind: str) -> None:
        self.used += 1
        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1


def may_call_own(state: TurnState, plan: StepPlan, tool: str) -> bool:
    """Whether the step may call agentd's own ``tool``: offered, not the caller's, and
    neither another tool named nor ``among`` leaving it out."""
    if tool not in plan.names or tool in state.client_names:
        return False
    rule = plan.rule
    return rule.name in (None, tool) and (rule.among is None or tool in rule.among)


def argument(arguments: str, name: str) -> object:
    """Argument ``name`` of a call's JSON ``arguments`` (None when not a JSON object)."""
    try:
        args = json.loads(arguments or "{}")
    except json.JSONDecodeError:
        return None
    return args.get(name) if isinstance(args, dict) else None


def from_request(sent: Sequence[Message], request: Message) -> list[Message]:
    """``sent`` from ``request`` on, its system messages kept in front (all of it when the
    request is not in it)."""
    at = next((i for i, m in enumerate(sent) if m is request), None)
    if at is None:
        return list(sent)
    return [*(m for m in sent[:at] if m.role == "system"), *sent[at:]]
