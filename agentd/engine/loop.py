"""The agent loop: one turn = model -> tools -> model ... -> final answer.

A turn is a short loop over one :class:`~agentd.engine.turnstate.TurnState`. Before each model
call the step planners shape what it offers (:mod:`agentd.engine.guards`); after it the answer
guards judge the reply in their declared order (accept, ask once more, replace); after tools
ran the after-tool policies say what the next step must be. Every model request of the turn
(steps, questions, answers asked for again, retries after "context exceeded") counts against
one budget, ``max_requests``.

The conversation only ever grows by whole units: an assistant message that asks for tools is
appended together with all of its tool results, after they are all in. A turn cancelled or failed
midway therefore never leaves an assistant ``tool_calls`` message without its results.

The one exception is on purpose: a step that calls a *client* tool (offered with
``client_tools``, run by the caller, not here) ends the turn. The agent's own calls of that step
are run and appended with the step; the client's calls stay open, and the result's message
carries them (only them) for the caller to run and answer with ``tool`` messages.

What streams is what is stored: a step's text is held back while a guard may still ask again
or replace it (after tools ran, mostly), and sent once the guards pass it; otherwise it streams
as the model writes it.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import aclosing, nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

import anyio
import structlog

from agentd.engine import guards as ruleset
from agentd.engine.asking import Asker, OnRequest
from agentd.engine.budget import ContextBudget
from agentd.engine.callcache import CallKey, call_key
from agentd.engine.guards.base import (
    ACCEPT,
    Clears,
    Replace,
    Retry,
    StepRun,
    Verdict,
    verdict_name,
)
from agentd.engine.guards.read_first import Mentioned
from agentd.engine.guards.route import Listing
from agentd.engine.notes import reminder
from agentd.engine.policy import CLIENT_CALLS
from agentd.engine.turnstate import Next, RequestBudget, StepPlan, TurnState, from_request
from agentd.errors import ContextExceeded, ContextOverflow
from agentd.memory.recall import NOTHING
from agentd.messages import Conversation, Message, ToolCall, assistant, tool_result, user
from agentd.model.choice import ANY, CallRule
from agentd.model.client import ChatModel, ChatResult, Completed, TextDelta, Usage
from agentd.tools.fit import cut_to_fit
from agentd.tools.policy import read_only as read_only_tools
from agentd.tools.registry import ToolOutcome, ToolRegistry

log = structlog.get_logger("agentd.engine.loop")

#: The answer's metadata key that records the prompt tokens of its model call and the context.
CONTEXT_KEY = "context"
STEPS_EXHAUSTED = "(I stopped: this turn used all its tool steps without reaching an answer.)"
REQUESTS_EXHAUSTED = (
    "(I stopped: this turn used all of its {limit} model requests without reaching an answer. "
    "Please ask again, perhaps in smaller steps.)"
)
#: How much of a held answer is shown first to the guards that may let it go early, and past
#: how much it stays held to its end (checked each time it doubles in between).
CLEAR_FIRST = 48
CLEAR_LAST = 1600
REPEATED = "(the same call was made before in this turn; it was not run again. Its result:)"

OnAppend = Callable[[Sequence[Message]], Awaitable[None]]
OnDelta = Callable[[str], Awaitable[None]]
#: Given the user's message, a note of what long-term memory holds about it (or None).
Recall = Callable[[str], Awaitable[str | None]]
ToolObserver = Callable[[str, bool, float], None]
#: Told of each rule that fired: (guard, verdict).
GuardObserver = Callable[[str, str], None]

__all__ = [
    "CONTEXT_KEY",
    "REPEATED",
    "AgentLoop",
    "TurnDone",
    "TurnEvent",
    "TurnResult",
]


@dataclass(slots=True)
class TurnResult:
    """The final assistant message, the tokens the turn used, and what it added.

    When the message has ``tool_calls``, the turn stopped at calls of client tools: the caller
    runs them (the step, with the agent's own calls answered, is the last of ``added``).
    ``requests`` is how many model requests the turn made; ``fired`` the rules that fired.
    """

    message: Message
    usage: Usage = field(default_factory=Usage)
    steps: int = 0
    added: list[Message] = field(default_factory=list)
    requests: int = 0
    fired: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TurnDone:
    """The last event of a turn: its result."""

    result: TurnResult


TurnEvent = TextDelta | TurnDone


@dataclass(slots=True)
class _Out:
    """Where a step's text goes: straight to ``on_delta``, or held until the guards pass it.

    ``clear``, when given, is shown the held text as it grows (at :data:`CLEAR_FIRST`
    characters, then each time it doubles, up to :data:`CLEAR_LAST`): once it says the text
    may go, what was held is sent and the rest streams (``cleared``)."""

    on_delta: OnDelta | None
    held: bool
    clear: Callable[[str], bool] | None = None
    text: list[str] = field(default_factory=list)
    sent: bool = False
    cleared: bool = False
    size: int = 0
    check_at: int = CLEAR_FIRST

    async def delta(self, piece: str) -> None:
        if self.held:
            self.text.append(piece)
            self.size += len(piece)
            if self.clear is not None and self.size >= self.check_at:
                await self._try_clear(self.clear)
        elif self.on_delta is not None and piece:
            self.sent = True
            await self.on_delta(piece)

    async def _try_clear(self, clear: Callable[[str], bool]) -> None:
        self.check_at = self.size * 2
        if self.check_at > CLEAR_LAST:
            self.clear = None  # held to the end
        if clear("".join(self.text)):
            self.held, self.cleared = False, True
            await self.release()

    async def release(self, text: str | None = None) -> None:
        """Send what was held (or ``text`` in its place)."""
        words = "".join(self.text) if text is None else text
        self.text.clear()
        if self.on_delta is not None and words and (self.held or not self.sent):
            self.sent = True
            await self.on_delta(words)


class AgentLoop:
    """Runs turns against a model with the tools of a registry."""

    def __init__(
        self,
        model: ChatModel,
        tools: ToolRegistry | None = None,
        *,
        max_steps: int = 8,
        max_requests: int = 16,
        on_tool: ToolObserver | None = None,
        budget: ContextBudget | None = None,
        recall: Recall | None = None,
        guards: Mapping[str, ruleset.Switch] | None = None,
        mentioned: Mentioned | None = None,
        listing: Listing | None = None,
        on_guard: GuardObserver | None = None,
        on_request: OnRequest | None = None,
    ) -> None:
        self.model = model
        self.recall = recall
        self.mentioned = mentioned
        self.listing = listing
        self.tools = tools if tools is not None else ToolRegistry()
        self.max_steps = max_steps
        self.max_requests = max(1, max_requests)
        self.budget = budget
        self._on_tool = on_tool
        self._on_guard = on_guard
        self.asker = Asker(model, on_request)
        switches = dict(guards or {})
        self._sets = {
            local: ruleset.build(
                self.asker, switches, local=local, mentioned=mentioned, listing=listing
            )
            for local in (False, True)
        }

    def rules(self, *, local: bool) -> ruleset.Guards:
        """The rules turns run for a small local model (``local``) or any other."""
        return self._sets[local]

    async def guards(self) -> ruleset.Guards:
        """The rules turns run now: those for a small local model when the model is held to
        a grammar by a local llama-server, else the structural ones (see ``guards.build``)."""
        return self.rules(local=await self._grammar())

    async def _grammar(self) -> bool:
        """Whether the model is held to a grammar (a local llama-server)."""
        enabled = getattr(self.model, "grammar_enabled", None)
        return enabled is not None and bool(await enabled())

    async def run(
        self,
        conversation: Conversation,
        *,
        stream: bool = False,
        use_tools: bool = True,
        on_append: OnAppend | None = None,
        on_delta: OnDelta | None = None,
        usage: Usage | None = None,
        client_tools: Sequence[dict[str, Any]] = (),
        rule: CallRule = ANY,
        allowed: frozenset[str] | None = None,
    ) -> TurnResult:
        """Run one turn to its final answer; with ``stream`` text deltas go to ``on_delta``.

        Each model call's tokens are added to ``usage`` as soon as it returns (when given; the
        result's ``usage`` is that object), so a caller also counts what a failed turn used.

        ``client_tools`` (OpenAI ``tools`` entries) are offered beside the registry's; a step
        that calls one ends the turn there (see the module docstring). ``allowed`` names the
        registry's tools the turn's policy offers (None: all); no other is shown or run.
        ``rule`` (the caller's ``tool_choice`` and ``parallel_tool_calls``): a required or named
        call holds for the first step (later steps may answer); one call per step holds for
        all of them, and a step that calls more keeps its first call.

        Nothing here outlives the call: the model's stream is closed (``aclosing``) before
        this returns or raises, in the caller's task.
        """
        state = self._start(conversation, usage, use_tools, client_tools, rule, allowed)
        local = bool(state.schemas) and await self._grammar()
        state.shows_all = local and not state.client_led
        guards = self.rules(local=local) if state.schemas else ruleset.Guards()
        if state.schemas:
            state.recalled = await self._recalled(conversation, state.client_led)
        following = Next(route=state.fresh)
        while True:
            state.step += 1
            if state.requests.left == 0:
                exhausted = self._exhausted()
                return await self._finish(
                    state, exhausted, None, on_append, on_delta if stream else None
                )
            plan = await self._plan(state, guards, following)
            given = self._given(state, plan)
            if given is not None:
                reply = given  # nothing was left for the model to write: no request
            else:
                out = self._out(guards, state, plan, on_delta if stream else None)
                result = await self._call(state, plan, out if stream else None)
                state.streamed = out.cleared
                reply = self._one_call(state, plan, result.message)
                verdict = await self._judge(guards, state, plan, reply)
                if isinstance(verdict, Retry):
                    following = verdict.next  # what was held is dropped: it is not stored
                    continue
                if isinstance(verdict, Replace):
                    reply = verdict.message
                    await out.release(reply.content)
                else:
                    await out.release()
                if not reply.tool_calls:
                    return await self._finish(state, reply, result, on_append, None)
            done = await self._tools_step(state, guards, plan, reply, on_append)
            if isinstance(done, TurnResult):
                return done
            following = done

    async def first_step(
        self,
        conversation: Conversation,
        *,
        schemas: Sequence[dict[str, Any]] | None = None,
    ) -> ChatResult:
        """The model's first step of a turn, run no further: what the agent would do first.

        ``schemas`` replaces the registry's tools (OpenAI ``tools`` entries) for this call, as
        a client's tools would (benchmarks offer functions that have no implementation here).
        """
        client = list(schemas) if schemas is not None else []
        allowed: frozenset[str] | None = frozenset() if schemas is not None else None
        state = self._start(conversation, None, True, client, ANY, allowed)
        local = await self._grammar()
        state.shows_all = local and bool(state.schemas) and not state.client_led
        guards = self.rules(local=local)
        state.step = 1
        plan = await self._plan(state, guards, Next(route=state.fresh))
        result = await self._call(state, plan, None)
        verdict = await self._judge(guards, state, plan, result.message)
        if isinstance(verdict, Retry):
            state.step = 2
            bare = await self._plan(state, guards, verdict.next)
            return await self._call(state, bare, None)
        return result

    async def summarize(self, conversation: Conversation, usage: Usage | None = None) -> str:
        """A summary of ``conversation`` (a synthetic one, see :mod:`agentd.engine.compaction`):
        one plain model request without tools, never a turn of this loop. A reply with no
        text, or with calls, is an error: it is never stored as a summary."""
        state = self._start(conversation, usage, False, (), ANY, None)
        self.asker.spend(state, "summary")
        result = await self.model.chat(conversation.messages, None, frozenset())
        state.usage.add(result.usage)
        text = result.message.content.strip()
        if result.message.tool_calls or not text:
            raise ValueError("the model's reply to the summary request was not a summary")
        return text

    def _start(
        self,
        conversation: Conversation,
        usage: Usage | None,
        use_tools: bool,
        client_tools: Sequence[dict[str, Any]],
        rule: CallRule,
        allowed: frozenset[str] | None,
    ) -> TurnState:
        client = list(client_tools) if use_tools else []
        client_names = frozenset(str(s["function"]["name"]) for s in client)
        own = self.tools.schemas(allowed) if use_tools and len(self.tools) else []
        schemas = [*own, *client] or None
        mine = self.tools.names if allowed is None else self.tools.names & allowed
        messages = conversation.messages
        state = TurnState(
            conversation=conversation,
            schemas=schemas,
            names=(mine | client_names) if schemas else frozenset(),
            client_names=client_names,
            looking=self.tools.looking & mine,
            kinds=self.tools.kinds,
            rule=rule,
            max_steps=self.max_steps,
            requests=RequestBudget(self.max_requests),
            usage=usage if usage is not None else Usage(),
            # Only a step that answers a user's message is routed: after tool results (a
            # client that sends its tools' results back) the question mostly named the tool
            # that had just run, and a client's tool then ran again and again.
            fresh=bool(messages) and messages[-1].role == "user",
            on_guard=self._on_guard,
        )
        state.view = lambda plan: self._view(state, plan)
        return state

    async def _plan(self, state: TurnState, guards: ruleset.Guards, following: Next) -> StepPlan:
        """The next call's plan: what ``following`` asks, then each planner in order. The last
        step allowed (by ``max_steps`` or the request budget) offers no tools."""
        schemas = state.schemas
        plan = StepPlan(
            tools=list(schemas) if schemas else None,
            names=state.names if schemas else frozenset(),
            rule=state.rule if state.step == 1 else state.rule.first_step(),
            notes=list(following.notes),
            alone=following.alone,
            routable=following.route,
            shown=schemas if state.shows_all else None,
        )
        if following.tools is not None and plan.tools:
            plan.only(following.tools)
        if following.bare or state.step >= state.max_steps or state.requests.left <= 1:
            plan.without_tools()
            plan.answer_only = schemas is not None
            return plan
        for planner in guards.planners:
            await planner.plan(state, plan)
            if not plan.tools:
                break
        return plan

    @staticmethod
    def _given(state: TurnState, plan: StepPlan) -> Message | None:
        """The step's call when its rule leaves the model nothing to write
        (:meth:`CallRule.given`: a read held to the one file the request names), written here
        with no model request. The model wrote the same call, after a second or more of
        generating it, and its result is read by the next step either way. A caller's own
        function is never called for its model: the caller named it to have the model call it."""
        name = plan.rule.name
        ours = name in plan.names and name not in state.client_names
        args = plan.rule.given(plan.tools or ()) if ours else None
        if name is None or args is None:
            return None
        log.info("turn.given_call", step=state.step, tool=name)
        call = ToolCall(_call_id(), name, json.dumps(args, ensure_ascii=False))
        return assistant("", [call])

    @staticmethod
    def _out(
        guards: ruleset.Guards, state: TurnState, plan: StepPlan, on_delta: OnDelta | None
    ) -> _Out:
        """Where the step's text goes: held when a guard may ask again or replace it, and
        let go early when every such guard can clear it (:class:`Clears`)."""
        holding = [guard for guard in guards.answer if guard.holds(state, plan)]
        clearing = [guard for guard in holding if isinstance(guard, Clears)]
        if not holding or on_delta is None or len(clearing) < len(holding):
            return _Out(on_delta, held=bool(holding))

        def clear(text: str) -> bool:
            return all(guard.clears(state, text) for guard in clearing)

        return _Out(on_delta, held=True, clear=clear)

    async def _judge(
        self, guards: ruleset.Guards, state: TurnState, plan: StepPlan, reply: Message
    ) -> Verdict:
        """The first verdict other than accept, of the guards for this kind of reply."""
        if plan.tools is None and reply.tool_calls:
            # Offered no tools, a server may still send tool calls: running them would
            # exceed the bound, keeping them unanswered would break the conversation.
            names = [c.name for c in reply.tool_calls]
            log.warning("turn.stray_calls", step=state.step, tools=names)
            spent = REQUESTS_EXHAUSTED.format(limit=self.max_requests)
            return Replace(
                assistant(reply.content or (spent if not state.requests.left else STEPS_EXHAUSTED))
            )
        for guard in guards.answer:
            if guard.calls != bool(reply.tool_calls):
                continue
            verdict = await guard.judge(state, plan, reply)
            if verdict is not ACCEPT:
                state.fire(guard.name, verdict_name(verdict))
                return verdict
        return ACCEPT

    def _one_call(self, state: TurnState, plan: StepPlan, reply: Message) -> Message:
        if (plan.rule.single or state.rule.single) and len(reply.tool_calls) > 1:
            log.info("turn.one_call", dropped=[c.name for c in reply.tool_calls[1:]])
            return assistant(reply.content, reply.tool_calls[:1])
        return reply

    async def _tools_step(
        self,
        state: TurnState,
        guards: ruleset.Guards,
        plan: StepPlan,
        reply: Message,
        on_append: OnAppend | None,
    ) -> TurnResult | Next:
        """Run the step's own calls, store the step; the turn's result when a client's tool
        was called, else what the next step must be."""
        log.info("turn.tools", step=state.step, tools=[c.name for c in reply.tool_calls])
        handed = tuple(c for c in reply.tool_calls if c.name in state.client_names)
        ours = [c for c in reply.tool_calls if c.name not in state.client_names]
        if handed:
            reply.metadata[CLIENT_CALLS] = [c.id for c in handed]
        outcomes, served = await self._run_tools(state, plan, ours) if ours else ([], ())
        results = [
            tool_result(call, self._fitted(call, out.content, plan.prompt_tools, len(outcomes)))
            if not out.error
            else tool_result(call, out.content, error=True)
            for call, out in zip(ours, outcomes, strict=True)
        ]
        await _commit(state, [reply, *results], on_append)
        if handed:
            log.info("turn.client_tools", step=state.step, tools=[c.name for c in handed])
            message = assistant(reply.content, handed)
            return self._result(state, message)
        earlier = frozenset(state.failures)
        pairs = zip(ours, outcomes, strict=True)
        state.failures |= {(c.name, o.content) for c, o in pairs if o.error}
        run = StepRun(
            plan, tuple((c.name, c.arguments) for c in ours), tuple(outcomes), served, earlier
        )
        for policy in guards.after_tool:
            following = await policy.after(state, run)
            if following is not None:
                return following
        return Next(notes=[reminder(state, run.calls)])

    async def _finish(
        self,
        state: TurnState,
        reply: Message,
        result: ChatResult | None,
        on_append: OnAppend | None,
        on_delta: OnDelta | None,
    ) -> TurnResult:
        if on_delta is not None:
            await on_delta(reply.content)
        if self.budget is not None and result is not None and result.usage.prompt_tokens:
            # Stored with the answer: how full the context was (`sessions show`).
            reply.metadata[CONTEXT_KEY] = {
                "tokens": result.usage.prompt_tokens,
                "limit": self.budget.context,
            }
        await _commit(state, [reply], on_append)
        return self._result(state, reply)

    def _result(self, state: TurnState, message: Message) -> TurnResult:
        return TurnResult(
            message,
            state.usage,
            state.step,
            state.added,
            requests=state.requests.used,
            fired=state.fired,
        )

    def _exhausted(self) -> Message:
        log.warning("turn.requests_exhausted", limit=self.max_requests)
        return assistant(REQUESTS_EXHAUSTED.format(limit=self.max_requests))

    def _view(self, state: TurnState, plan: StepPlan) -> list[Message]:
        """What a step with ``plan`` sends: what fits the context, the turn alone when asked,
        the recalled copy of the request, then the plan's notes."""
        conversation = state.conversation
        sent: Sequence[Message] = conversation.messages
        if self.budget is not None:
            try:
                sent = self.budget.fit(conversation, plan.prompt_tools)
            except ContextOverflow:
                sent = self.budget.fit(conversation, None)
        return self._shaped(state, plan, sent)

    @staticmethod
    def _shaped(state: TurnState, plan: StepPlan, sent: Sequence[Message]) -> list[Message]:
        out = list(sent)
        if plan.alone is not None:
            out = from_request(out, plan.alone)
        # A turn that acts ("remember ...") goes without the note: it derailed saves.
        if state.recalled is not None and state.may_act is not True:
            request, shown = state.recalled
            out = [shown if m is request else m for m in out]
        return [*out, *plan.notes]

    async def _call(self, state: TurnState, plan: StepPlan, out: _Out | None) -> ChatResult:
        """One model call with what fits the context (plus the plan's notes at the end); a
        "context exceeded" answer is retried once with a tighter count (another request of
        the budget), then raised as ContextOverflow.

        When the tools' schemas leave no room for the newest message, the step is sent
        without tools (an answer in words beats no answer; a warning says so).
        """
        budget = self.budget
        conversation = state.conversation
        retried = False
        if not plan.tools and plan.shown is not None and not state.added:
            plan.hide_tools()  # an answer before any tool ran is shown none (StepPlan)
        while True:
            try:
                sent = (
                    conversation.messages
                    if budget is None
                    else budget.fit(conversation, plan.prompt_tools)
                )
            except ContextOverflow:
                shown = plan.prompt_tools
                if budget is None or not shown:
                    raise
                sent = budget.fit(conversation, None)
                log.warning(
                    "context.no_room_for_tools",
                    tools=len(shown),
                    tool_tokens=budget.counter.tokens(budget.tool_chars(shown)),
                    limit=budget.context,
                )
                plan.without_tools()
                plan.shown = None
            messages = self._shaped(state, plan, sent)
            self.asker.spend(state, "retry" if retried else "step")
            tools, rule, answer_only = plan.request()
            if not state.added:
                conversation.first_step_tools = bool(tools)
            # A looking call written again in one step ends the step (agentd.model.repeats).
            rule = replace(rule, once=state.looking)
            try:
                if out is not None:
                    result = await self._streamed(messages, plan, rule, out)
                else:
                    result = await self.model.chat(
                        messages, tools, plan.names, answer_only=answer_only, rule=rule
                    )
            except ContextExceeded as exc:
                if budget is None or retried or state.requests.left == 0:
                    limit = exc.limit or (budget.context if budget is not None else 0)
                    raise ContextOverflow(needed=exc.requested or limit, limit=limit) from exc
                log.warning("context.exceeded", limit=exc.limit, requested=exc.requested)
                budget.tighten(sent, tools, exc.requested, exc.limit)
                retried = True
                continue
            state.usage.add(result.usage)
            if budget is not None:
                budget.calibrate(sent, tools, result.usage.prompt_tokens)
            conversation.prompt_tokens = result.usage.prompt_tokens
            return result

    async def _streamed(
        self, messages: Sequence[Message], plan: StepPlan, rule: CallRule, out: _Out
    ) -> ChatResult:
        result: ChatResult | None = None
        tools, _, answer_only = plan.request()
        events = self.model.stream(messages, tools, plan.names, answer_only=answer_only, rule=rule)
        async with aclosing(events):  # type: ignore[type-var]
            async for event in events:
                if isinstance(event, Completed):
                    result = event.result
                else:
                    await out.delta(event.text)
        assert result is not None
        return result

    async def _recalled(
        self, conversation: Conversation, client_led: bool
    ) -> tuple[Message, Message] | None:
        """The turn's request and the copy the model is sent: with what memory recalls about
        it in front (the stored request stays as the user wrote it). A caller's own tools'
        turn is not told that nothing matched (it asks about its functions, not the user)."""
        messages = conversation.messages
        if self.recall is None or not messages or messages[-1].role != "user":
            return None
        request = messages[-1]
        try:
            note = await self.recall(request.content)
        except Exception as exc:  # recall is a help: a failure must not cost the turn
            log.warning("memory.recall_failed", error=str(exc), exc_type=type(exc).__name__)
            return None
        if not note or (client_led and note == NOTHING):
            return None
        return request, user(f"{note}\n\n{request.content}")

    def _fitted(
        self,
        call: ToolCall,
        text: str,
        offered: Sequence[dict[str, Any]] | None,
        results: int,
    ) -> str:
        """A tool result cut to its share of half the room, so the next call still fits."""
        if self.budget is None:
            return text
        limit = self.budget.chars_for(self.budget.room(offered) // (2 * max(results, 1)))
        hint = (
            "read a smaller part with read_file's offset and length"
            if call.name == "read_file"
            else "the rest did not fit the model's context"
        )
        return cut_to_fit(text, limit, hint=hint)

    async def _run_tools(
        self, state: TurnState, plan: StepPlan, calls: Sequence[ToolCall]
    ) -> tuple[list[ToolOutcome], tuple[bool, ...]]:
        """Run a step's calls; returns their outcomes and, for each, whether it was served
        from the turn's call cache (:mod:`agentd.engine.callcache`) or copied another call of
        the step. Calls that only look run concurrently, identical ones once; when one of them
        acts, they run one after the other in the order written, each through the cache: the
        model wrote "count, append, count again" as one reply, and run together the two counts
        were one, taken beside the append. Only tools the step offered run: a call of another
        is an error the model reads."""
        allowed = plan.names - state.client_names
        # A turn the model found to ask for no change runs its commands read-only.
        with read_only_tools() if state.may_act is False else nullcontext():
            if any(call.name not in state.looking for call in calls):
                return await self._run_in_order(state, allowed, calls)
            return await self._run_looks(state, allowed, calls)

    async def _run_in_order(
        self, state: TurnState, allowed: frozenset[str], calls: Sequence[ToolCall]
    ) -> tuple[list[ToolOutcome], tuple[bool, ...]]:
        outcomes: list[ToolOutcome] = []
        served: list[bool] = []
        for call in calls:
            key = call_key(call)
            earlier = state.cache.get(key)
            served.append(earlier is not None)
            if earlier is not None:
                outcomes.append(ToolOutcome(f"{REPEATED}\n{earlier}"))
                continue
            outcome = await self._call_tool(call, allowed)
            _remember(state, call, key, outcome)
            outcomes.append(outcome)
        return outcomes, tuple(served)

    async def _run_looks(
        self, state: TurnState, allowed: frozenset[str], calls: Sequence[ToolCall]
    ) -> tuple[list[ToolOutcome], tuple[bool, ...]]:
        outcomes: list[ToolOutcome | None] = [None] * len(calls)
        keys = [call_key(call) for call in calls]
        first: dict[CallKey, int] = {}
        served = [False] * len(calls)
        for index, key in enumerate(keys):
            earlier = state.cache.get(key)
            if earlier is not None:
                outcomes[index] = ToolOutcome(f"{REPEATED}\n{earlier}")
                served[index] = True
            elif key in first:
                served[index] = True
            else:
                first[key] = index

        async def one(index: int) -> None:
            outcomes[index] = await self._call_tool(calls[index], allowed)

        pending = list(first.values())
        if len(pending) == 1:
            await one(pending[0])
        elif pending:
            async with anyio.create_task_group() as tg:
                for index in pending:
                    tg.start_soon(one, index)
        for index, key in enumerate(keys):
            source = outcomes[first[key]] if key in first else None
            if outcomes[index] is None and source is not None:
                outcomes[index] = (
                    source if source.error else ToolOutcome(f"{REPEATED}\n{source.content}")
                )
        for key, index in first.items():
            result = outcomes[index]
            if result is not None:
                _remember(state, calls[index], key, result)
        return [o for o in outcomes if o is not None], tuple(served)

    async def _call_tool(self, call: ToolCall, allowed: frozenset[str]) -> ToolOutcome:
        started = anyio.current_time()
        outcome = await self.tools.call(call, allowed)
        if self._on_tool is not None:
            self._on_tool(call.name, outcome.error, anyio.current_time() - started)
        return outcome


def _remember(state: TurnState, call: ToolCall, key: CallKey, outcome: ToolOutcome) -> None:
    """Keep ``call``'s outcome in the turn's call cache; an acting call, failed or not, makes
    what was looked at before stale."""
    looking = call.name in state.looking
    if not looking:
        state.cache.acted(key)
    if not outcome.error:
        state.cache.keep(key, outcome.content, looking=looking)


def _call_id() -> str:
    return "call_" + secrets.token_hex(8)


async def _commit(state: TurnState, messages: list[Message], on_append: OnAppend | None) -> None:
    # Persist first, then show in memory: what the model sees next is what is stored.
    if on_append is not None:
        await on_append(messages)
    state.conversation.extend(messages)
    state.added.extend(messages)
