"""Turns per session: one at a time per session, sessions in parallel under a global limit.

A turn is a task of the runtime's own task group, never a generator run by its reader. The task
takes the session's lock, a slot of the global limiter and the scope, and hands its events to the
channel over a bounded memory object stream (:class:`Turn`)::

    async with runtime.turn(session_id, text, channel="http") as events:
        async for event in events:
            ...

The limiter slot is held only while the model and the tools work: text deltas never wait for
the reader (when its buffer is full they are merged into the next delta), so a client that stops
reading cannot hold a slot that other channels need. When the reader leaves before the answer,
the turn is cancelled (history stays consistent: only whole tool exchanges are appended); once
the answer exists it is persisted whatever the reader does. The answer goes out first; a
summary (``summarize``) is then written in the background, holding nothing of the session, and
applied between two of its turns (:mod:`agentd.engine.summaries`): no turn waits for it.

A turn may carry a ``request_key`` (the HTTP channel's Idempotency-Key), stored with its user
message. A retry with the same key is looked up under the session's lock, so it waits for a
first attempt still running and then: answers with the stored answer (no model call), or runs
the turn on the stored message without storing it again when the first attempt got no answer
(it failed, was cut off, or the daemon died). Another message under a used key is refused.

With :class:`~agentd.engine.quotas.Quotas`, a turn is admitted in its scope before anything of
it is stored (``turn`` raises QuotaExceeded), and what it used (model tokens of every call, the
compaction's too, and tool calls) is recorded when it ends, also when it failed or was cut off:
counted at once (the next request sees it), written to the store once the turn's reader has its
answer, so that the write never delays an answer.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

import anyio
import structlog
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectSendStream

from agentd import origin as origins
from agentd import said
from agentd import scope as scopes
from agentd.config import AgentDefaults
from agentd.engine import pending, readahead
from agentd.engine.guards import intent, plan, shown
from agentd.engine.handoff import HandedTurns
from agentd.engine.landing import Copy, SummaryLanding
from agentd.engine.loop import AgentLoop, OnAppend, TurnDone, TurnEvent, TurnResult
from agentd.engine.policy import SessionKey, SessionPolicy, session_key
from agentd.engine.quotas import Quotas
from agentd.engine.summaries import BackgroundSummaries
from agentd.engine.turn import EVENT_BUFFER, Emitter, Failed, Item, Turn
from agentd.engine.warmup import PLACEHOLDER, Prefix, Warm, step_prefix
from agentd.errors import ContextOverflow, RetryConflict, RetryMismatch, ShuttingDown
from agentd.memory.history import StoredRequest
from agentd.memory.usage import UsageCounts
from agentd.messages import Conversation, Message, assistant, system, user
from agentd.model import pinning
from agentd.model.choice import ANY, CallRule
from agentd.model.client import TextDelta, Usage
from agentd.model.pinning import SlotPins
from agentd.tools import policy as tool_policy
from agentd.tools.kinds import COMMAND, acting_kinds
from agentd.tools.policy import Grant, ToolPolicy, audience_of

log = structlog.get_logger("agentd.engine.runtime")

OnTurn = Callable[[str, str, float], None]
#: How long a turn's usage waits for its reader to leave before it is stored anyway.
READER_WAIT = 2.0
#: The system prompt for turns in a scope (its tenant's), when it is not the same for all.
PromptFor = Callable[[scopes.Scope], Awaitable[str]]


@dataclass(frozen=True, slots=True)
class SessionStatus:
    """What ``/status`` tells about a session: its messages in memory and the daemon's load."""

    session_id: str
    messages: int
    in_flight: int
    #: Prompt tokens of the session's last model call, and the model's context.
    context_tokens: int = 0
    context_limit: int = 0

    @property
    def context_line(self) -> str:
        """How full the context was last turn, for people: ``1,234 of 8,192 tokens (15%)``."""
        if not self.context_tokens or not self.context_limit:
            return "not measured yet"
        share = 100 * self.context_tokens / self.context_limit
        return f"{self.context_tokens:,} of {self.context_limit:,} tokens ({share:.0f}%)"


@dataclass(slots=True)
class _Job:
    """One submitted turn: where it runs and how far it got."""

    channel: str
    scope: scopes.Scope
    stream: bool
    #: What the turn's tool policy grants (every tool when the runtime has no policy).
    grant: Grant = field(default_factory=Grant)
    run_id: str = field(default_factory=lambda: secrets.token_hex(6))
    cancel: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    answered: bool = False
    #: What the turn used so far: every model call's tokens, and the tool results it added.
    usage: Usage = field(default_factory=Usage)
    tool_calls: int = 0
    #: Set once the turn's reader has left it (it has its answer, or has gone).
    read: anyio.Event = field(default_factory=anyio.Event)

    def count(self, messages: Sequence[Message]) -> None:
        self.tool_calls += sum(m.role == "tool" for m in messages)


@dataclass(frozen=True, slots=True)
class ToolOffer:
    """The tools a caller's turn offers the model beyond the agent's defaults.

    ``client_tools`` (OpenAI ``tools`` entries) are the caller's own: a step calling one ends
    the turn with those calls for the caller to run. ``use_tools=False`` offers no tools at all.
    ``rule`` is the caller's ``tool_choice`` and ``parallel_tool_calls`` (see AgentLoop.run).
    """

    client_tools: tuple[dict[str, Any], ...] = ()
    use_tools: bool = True
    rule: CallRule = ANY


@dataclass(frozen=True, slots=True)
class _SessionRequest:
    """What a session turn was asked: the new message (or the client's ``results`` for its
    pending calls), its Idempotency-Key, and the caller's tools."""

    session_id: str
    text: str
    request_key: str | None
    results: Sequence[Message]
    offer: ToolOffer


@dataclass(slots=True)
class _LockSlot:
    lock: anyio.Lock
    users: int = 0


class Runtime:
    """The turn engine shared by every channel. Use it as an async context manager."""

    def __init__(
        self,
        agent_loop: AgentLoop,
        *,
        system_prompt: str,
        defaults: AgentDefaults,
        sessions: SessionPolicy | None = None,
        default_scope: scopes.Scope | None = None,
        on_turn: OnTurn | None = None,
        quotas: Quotas | None = None,
        drain_timeout: float = 10.0,
        prompt_for: PromptFor | None = None,
        tool_policy: ToolPolicy | None = None,
        pins: SlotPins | None = None,
    ) -> None:
        self.agent_loop = agent_loop
        #: The model server's slots by session (:mod:`agentd.model.pinning`), when pinned.
        self.pins = pins
        self.tool_policy = tool_policy
        self.system_prompt = system_prompt
        self.prompt_for = prompt_for
        self.defaults = defaults
        self.sessions = (
            sessions if sessions is not None else SessionPolicy(max_messages=defaults.max_messages)
        )
        self.default_scope = default_scope or scopes.Scope()
        self.limiter = anyio.CapacityLimiter(defaults.max_concurrent_turns)
        self.drain_timeout = drain_timeout
        self.in_flight = 0
        self.accepting = True
        self._locks: dict[SessionKey, _LockSlot] = {}
        self._on_turn = on_turn
        self.quotas = quotas
        #: What stateless turns ran before handing calls to their client (for the next step).
        self.handed = HandedTurns()
        self._idle = anyio.Event()
        self._idle.set()
        #: Compaction summaries in flight, off the turns' path (:mod:`agentd.engine.summaries`).
        self.summaries = BackgroundSummaries(
            agent_loop.summarize,
            self.sessions,
            self._session_lock,
            record=self._record_summary,
            slot=pins.summarizing if pins is not None else None,
            read_ahead=self._read_summary_ahead,
        )
        #: Told when a turn starts (a warm-up yields to it: :mod:`agentd.engine.warmup`).
        self.on_start: Callable[[], None] | None = None
        #: Has the model server read a prompt ahead (``LLMClient.warm``): set when warm start
        #: is on; a session's new prompt is then read for a summary (:meth:`_landing`).
        self.warm: Warm | None = None
        #: Copies a server slot's prompt cache into others (``SlotFiles.copy``), when the
        #: sidecar's slots can be saved: a summary's session gets its new prompt that way.
        self.copy_slot: Copy | None = None
        self._tg: TaskGroup | None = None
        self._stack: AsyncExitStack | None = None

    async def __aenter__(self) -> Self:
        async with AsyncExitStack() as stack:
            self._tg = await stack.enter_async_context(anyio.create_task_group())
            self._stack = stack.pop_all()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        stack, tg = self._stack, self._tg
        assert stack is not None and tg is not None, "the runtime was not entered"
        self.accepting = False
        # A summary is an optimisation: it goes at once (the next turn over the threshold
        # starts it again). Turns whose reader is gone are cancelled already; what runs now
        # is finishing an answer. Let it end, within bounds, then cancel what is left.
        self.summaries.cancel_all()
        with anyio.move_on_after(self.drain_timeout, shield=True) as drain:
            await self.wait_idle()
        if drain.cancelled_caught:
            log.warning("runtime.drain_timeout", in_flight=self.in_flight)
        tg.cancel_scope.cancel()
        self._stack = self._tg = None
        return await stack.__aexit__(exc_type, exc, tb)

    # The turns.

    @asynccontextmanager
    async def turn(
        self,
        session_id: str,
        text: str,
        *,
        channel: str = "console",
        scope: scopes.Scope | None = None,
        stream: bool = True,
        request_key: str | None = None,
        results: Sequence[Message] = (),
        tools: ToolOffer | None = None,
        audience: str | None = None,
    ) -> AsyncIterator[Turn]:
        """Start a turn of ``session_id`` with the user's ``text``; yield its events.

        Text deltas come only when ``stream``; the last event is one TurnDone. Leaving the
        block before the answer cancels the turn. A ``request_key`` makes a retry of the same
        request idempotent (see the module docstring); a replayed answer comes as one delta.

        ``tools`` offers the caller's own tools (see :class:`ToolOffer`); a turn that stops at
        their calls leaves them pending in the session. The next turn brings their
        ``results`` (``tool`` messages, instead of ``text``; ToolResultMismatch unless they
        answer exactly the pending calls), or ``text``, which closes them as not run.

        ``audience`` says who is on the other end (``telegram_group``, ``http_admin``...; see
        :mod:`agentd.tools.policy`); without it, the narrowest of ``channel``'s is assumed.
        """
        job = await self._admitted(channel, scope, stream, audience)
        offer = tools or ToolOffer()
        request = _SessionRequest(session_id, text, request_key, results, offer)
        async with self._running(job, self._session_turn, request) as events:
            yield events

    @asynccontextmanager
    async def turn_stateless(
        self,
        messages: Sequence[Message],
        *,
        channel: str = "http",
        scope: scopes.Scope | None = None,
        stream: bool = True,
        tools: ToolOffer | None = None,
        audience: str | None = None,
    ) -> AsyncIterator[Turn]:
        """A turn over ``messages`` alone, storing nothing (no session, no compaction).

        The agent's system prompt comes first; system messages leading ``messages`` are added
        to it, so the model sees one system message. Events are those of :meth:`turn`.
        ``tools`` adds the caller's own tools, or offers none (see :class:`ToolOffer`).
        """
        job = await self._admitted(channel, scope, stream, audience)
        offer = tools or ToolOffer()
        async with self._running(job, self._stateless_turn, messages, offer) as events:
            yield events

    async def ask(self, session_id: str, text: str, **kwargs: object) -> TurnResult:
        """Run a turn without streaming and return its result."""
        async with self.turn(session_id, text, stream=False, **kwargs) as events:  # type: ignore[arg-type]
            return await events.result()

    async def _admitted(
        self, channel: str, scope: scopes.Scope | None, stream: bool, audience: str | None = None
    ) -> _Job:
        """The turn's job, once its tenant's quotas admit it (else QuotaExceeded)."""
        if not self.accepting:
            raise ShuttingDown()
        job = _Job(channel, scope or scopes.get() or self.default_scope, stream)
        job.grant = self._grant(channel, job.scope, audience)
        if self.quotas is not None:
            with scopes.use(job.scope):
                await self.quotas.admit()
        return job

    def _grant(self, channel: str, scope: scopes.Scope, audience: str | None) -> Grant:
        """What a turn on ``channel`` in ``scope`` may use (every tool without a policy)."""
        if self.tool_policy is None:
            return Grant()
        with scopes.use(scope):  # the tools this tenant has (MCP ones may be limited)
            names = self.agent_loop.tools.names
        return self.tool_policy.grant(audience_of(channel, audience), scope.tenant, names)

    async def first_requests(
        self, channel: str = "http", audience: str | None = None
    ) -> list[Prefix]:
        """The requests every first turn of the default scope on ``channel`` makes before
        the user's words: the intent question (by the plan question when that rule runs),
        when the rules for a small local model ask it (tools that act on offer), then the
        step (its system message, and the tools its policy offers: the model server renders
        them into that prefix), then, beside the plan question, the intent question that
        confirms a planned command or tools of several kinds (when such a plan can be made
        of the tools on offer).

        A warm-up sends these (:mod:`agentd.engine.warmup`)."""
        scope = self.default_scope
        grant = self._grant(channel, scope, audience)
        with scopes.use(scope):
            messages = [system(await self._prompt(scope))]
            tools = self.agent_loop.tools
            names = grant.tools if grant.tools is not None else tools.names
            schemas = tools.schemas(grant.tools) if len(tools) else []
            acting = names - tools.looking if schemas else frozenset()
            kinds = acting_kinds(acting, tools.kinds)
        step = step_prefix(messages, schemas or None)
        guards = await self.agent_loop.guards()
        first = [step]
        if "intent" in guards.names and acting:
            if "plan" in guards.names and schemas:
                # The intent is asked by the plan question (guards.build); a planned command
                # (or tools of several kinds) is put to the intent question too, on the
                # quick slot.
                first.insert(0, Prefix(plan.prompt(PLACEHOLDER, schemas), shared=True))
                if intent.doubtful_tools(tuple(acting), acting, tools.kinds):
                    first.append(Prefix(intent.prompt(PLACEHOLDER, kinds), apart=True))
                if "shown" in guards.names and COMMAND in {tools.kinds.get(n) for n in acting}:
                    # Then whether a planned command is only to be written out.
                    first.append(Prefix(shown.prompt(PLACEHOLDER), apart=True))
            else:
                first.insert(0, Prefix(intent.prompt(PLACEHOLDER, kinds), shared=True))
        return first

    @asynccontextmanager
    async def _running(
        self,
        job: _Job,
        work: Callable[..., Awaitable[None]],
        *args: object,
    ) -> AsyncIterator[Turn]:
        if self._tg is None:
            raise RuntimeError("enter the runtime (async with runtime:) before running turns")
        if self.on_start is not None:
            self.on_start()
        send, receive = anyio.create_memory_object_stream[Item](EVENT_BUFFER)
        self._enter()  # queued turns are in flight too: the drain waits for them
        try:
            self._tg.start_soon(self._task, job, work, send, *args)
        except BaseException:
            self._leave()
            send.close()
            receive.close()
            raise
        try:
            with receive:
                try:
                    yield Turn(receive)
                finally:
                    if not job.answered:
                        job.cancel.cancel()
        finally:
            job.read.set()

    async def _task(
        self,
        job: _Job,
        work: Callable[..., Awaitable[None]],
        send: MemoryObjectSendStream[Item],
        *args: object,
    ) -> None:
        try:
            with (
                scopes.use(job.scope),
                tool_policy.use(job.grant),
                structlog.contextvars.bound_contextvars(
                    channel=job.channel, tenant=job.scope.tenant, run_id=job.run_id
                ),
            ):
                try:
                    with send, job.cancel:
                        await work(job, Emitter(send), *args)
                finally:
                    # After the reader has its answer (the stream is closed): a turn that
                    # failed or was cut off has used tokens too.
                    with anyio.CancelScope(shield=True):
                        await self._record(job)
        except Exception:
            # A turn's own failures go to its reader; this is a defect of the runtime, and it
            # must not cancel every other turn of the task group.
            log.exception("turn.crashed", run_id=job.run_id)
        finally:
            self._leave()

    async def _record(self, job: _Job) -> None:
        """Count what the turn used at once; store it once the reader has its answer (or
        after :data:`READER_WAIT`): the write is no part of the answer and must not delay it."""
        if self.quotas is None:
            return
        usage = job.usage

        async def reader_left() -> None:
            with anyio.move_on_after(READER_WAIT):
                await job.read.wait()

        await self.quotas.record(
            UsageCounts(1, usage.prompt_tokens, usage.completion_tokens, job.tool_calls),
            store_after=reader_left,
        )

    async def _session_turn(self, job: _Job, out: Emitter, request: _SessionRequest) -> None:
        session_id = request.session_id
        # The origin tools see (schedule_task answers there): the one set by whoever started
        # the turn (a task's run keeps its task's), else this session on this channel.
        origin = origins.get() or origins.Origin.of_session(job.channel, session_id)
        with structlog.contextvars.bound_contextvars(session=session_id), origins.use(origin):
            async with self._session_lock(session_id):
                self.sessions.pin(session_id)
                try:
                    with self._slot_for(job.scope, session_id):
                        conv = await self._answer(job, out, request)
                    if conv is not None:
                        self._compact(job, session_id, conv)
                finally:
                    self.sessions.unpin(session_id)

    async def _answer(
        self, job: _Job, out: Emitter, request: _SessionRequest
    ) -> Conversation | None:
        """Run the model and tools under a limiter slot; send the answer; None on failure
        (and for a replayed answer, or calls handed to the client: nothing to compact)."""
        session_id, text, request_key = request.session_id, request.text, request.request_key
        results, offer = request.results, request.offer
        with self._accounted(job) as outcome:
            conv: Conversation | None = None
            try:
                prior = await self._retry_of(session_id, text, request_key)
                if prior is not None and prior.answer is not None:
                    # The first attempt answered: the same answer again, no model call.
                    job.answered = True
                    outcome.append("replayed")
                    if job.stream:
                        await out.delta(prior.answer.content)
                    await out.finish(TurnDone(TurnResult(prior.answer)))
                    return None
                async with self.limiter:
                    conv = await self.sessions.load(session_id, await self._prompt(job.scope))
                    again = pending.handed(conv.messages) if prior is not None else None
                    if again is not None and not results:
                        # The first attempt ended handing calls to the client: hand them again.
                        job.answered = True
                        outcome.append("replayed")
                        if job.stream and again.content:
                            await out.delta(again.content)
                        await out.finish(TurnDone(TurnResult(again)))
                        return None

                    async def on_append(messages: Sequence[Message]) -> None:
                        await self.sessions.persist(session_id, messages)
                        job.count(messages)

                    if results:
                        # The client's results, not the agent's tool calls: stored, not counted.
                        answers = pending.answered(conv.messages, results)
                        await self.sessions.persist(session_id, answers)
                        conv.extend(answers)
                    elif prior is None:
                        closing = pending.closed(conv.messages)
                        if closing:
                            await self.sessions.persist(session_id, closing)
                            conv.extend(closing)
                        message = user(text)
                        await self.sessions.persist(session_id, [message], request_key=request_key)
                        conv.append(message)
                    # Else the stored message (and any whole tool exchange after it) ends the
                    # conversation already: the turn goes on from there.
                    try:
                        result = await self._loop(job, out, conv, offer, on_append)
                    except ContextOverflow as exc:
                        result = await _too_long(conv, exc, on_append, out.delta)
            except Exception as exc:
                outcome.append("error")
                await out.finish(Failed(exc))
                return None
            finally:
                # Whatever happened, the conversation is consistent (the loop appends whole
                # tool exchanges only): put it back so the window applies.
                if conv is not None:
                    with anyio.CancelScope(shield=True):
                        await self.sessions.settle(session_id, conv)
            job.answered = True
            outcome.append("ok")
        await out.finish(TurnDone(result))
        # Calls handed to the client keep the exchange open until the next turn: no compaction.
        return None if result.message.tool_calls else conv

    async def _loop(
        self, job: _Job, out: Emitter, conv: Conversation, offer: ToolOffer, on_append: OnAppend
    ) -> TurnResult:
        """The agent loop on ``conv``, with its last user message as what the user said
        (``memory_save`` keeps those words beside a memory: :mod:`agentd.said`). A heartbeat's
        or a scheduled task's request is the daemon's own prompt: no one said it."""
        spoken = audience_of(job.channel) != "cron"
        with said.use(conv.request() if spoken else ""):
            return await self.agent_loop.run(
                conv,
                stream=job.stream,
                on_append=on_append,
                on_delta=out.delta,
                usage=job.usage,
                use_tools=offer.use_tools,
                client_tools=offer.client_tools,
                rule=offer.rule,
                allowed=job.grant.tools,
            )

    async def _retry_of(
        self, session_id: str, text: str, request_key: str | None
    ) -> StoredRequest | None:
        """What the first attempt of a retried request stored (None: this is the first).

        Raises RetryMismatch for another message under the key, and RetryConflict for a
        first attempt without an answer that later turns of the session have passed.
        """
        if request_key is None:
            return None
        found = await self.sessions.find_request(session_id, request_key)
        if found is None:
            return None
        if found.message.content != text:
            raise RetryMismatch(
                "this Idempotency-Key was already used for a different message in this "
                "session; send a new key for a new message"
            )
        if found.answer is None and not found.latest:
            raise RetryConflict(
                "the request with this Idempotency-Key was cut off before its answer and the "
                "session has moved on since; send the message again with a new key"
            )
        return found

    async def _stateless_turn(
        self, job: _Job, out: Emitter, messages: Sequence[Message], offer: ToolOffer
    ) -> None:
        messages = self.handed.restore(job.scope, messages)
        conv = stateless_conversation(await self._prompt(job.scope), messages)
        with self._accounted(job, stateless=True) as outcome, self._slot_for(job.scope, None):
            try:
                async with self.limiter:

                    async def on_append(messages: Sequence[Message]) -> None:
                        job.count(messages)

                    try:
                        result = await self._loop(job, out, conv, offer, on_append)
                    except ContextOverflow as exc:
                        result = await _too_long(conv, exc, None, out.delta)
            except Exception as exc:
                outcome.append("error")
                await out.finish(Failed(exc))
                return
            self.handed.keep(job.scope, result.message, result.added)
            job.answered = True
            outcome.append("ok")
        await out.finish(TurnDone(result))

    def _compact(self, job: _Job, session_id: str, conv: Conversation) -> None:
        """Start summarising the session in the background when it is over the threshold
        (``summarize``); the next turns do not wait for it (:mod:`agentd.engine.summaries`).
        The session is made ready for it before it lands (:meth:`_landing`)."""
        if self.defaults.compaction_strategy != "summarize" or self._tg is None:
            return
        budget = self.agent_loop.budget
        self.summaries.start(
            self._tg,
            session_id,
            conv,
            threshold=self.defaults.effective_threshold,
            max_transcript_chars=budget.chars_for(budget.room() // 2) if budget else None,
            landing=self._landing(job.scope, session_id, job.grant.tools),
        )

    def _landing(
        self, scope: scopes.Scope, session_id: str, allowed: frozenset[str] | None
    ) -> SummaryLanding | None:
        """How the session's next prompt is read for a summary (:mod:`agentd.engine.landing`):
        the prompt of its first step (the conversation as the budget sends it, the tools
        ``allowed`` when the last turn's first step offered tools, then the user's words), and
        with the plan question asked, that question's prompt. Only with warm start on and the
        sessions pinned (else the next turn reads them)."""
        if self.warm is None or self.pins is None:
            return None
        budget = self.agent_loop.budget

        def schemas() -> list[dict[str, Any]]:
            with scopes.use(scope):
                tools = self.agent_loop.tools
                return tools.schemas(allowed) if len(tools) else []

        def next_prompt(conv: Conversation) -> tuple[list[Message], list[dict[str, Any]] | None]:
            offered = (schemas() or None) if conv.first_step_tools else None
            # Fitted on a copy: outside the lock a turn may be using the session's own.
            view = Conversation(list(conv.messages), sent_from=conv.sent_from)
            fitted = budget.fit(view, offered) if budget else view.messages
            return [*fitted, user(PLACEHOLDER)], offered

        async def plan_prompt() -> list[Message] | None:
            guards = await self.agent_loop.guards()
            tools = schemas()
            if {"intent", "plan"} <= guards.names and tools:
                return plan.prompt(PLACEHOLDER, tools)
            return None

        return SummaryLanding(
            (scope.tenant, session_id),
            self.warm,
            self.quiet,
            self.pins,
            next_prompt,
            plan_prompt,
            copy=self.copy_slot,
        )

    async def quiet(self) -> bool:
        """Return once no turn is in flight, or after :data:`QUIET_PATIENCE` seconds (work that
        is no turn's then goes ahead beside them); always True (a read-ahead's ``go_on``)."""
        with anyio.move_on_after(QUIET_PATIENCE):
            await self.wait_idle()
        return True

    async def _read_summary_ahead(self, messages: Sequence[Message], usage: Usage) -> None:
        """Have the model server read a summary request's prompt in pieces, out of the turns'
        way (:mod:`agentd.engine.readahead`); only when it warms prompts (a local server)."""
        if self.warm is not None:
            read = await readahead.read_ahead(self.warm, messages, None, self.quiet)
            usage.add(read.usage)

    @contextmanager
    def _slot_for(self, scope: scopes.Scope, session_id: str | None) -> Iterator[None]:
        """The turn's model requests go to its session's slot; a stateless turn's to the
        quick slot (none of a session's); the questions every turn asks alike to theirs, a
        question that shares its prompt with nothing to the quick slot."""
        if self.pins is None:
            yield
        elif session_id is None:
            with pinning.use(self.pins.quick, self.pins.questions_slot, self.pins.quick):
                yield
        else:
            with (
                self.pins.hold((scope.tenant, session_id)) as slot,
                pinning.use(slot, self.pins.questions_slot, self.pins.quick),
            ):
                yield

    async def _record_summary(self, usage: Usage) -> None:
        """A summary's tokens count against its tenant's quota, as a turn's do."""
        if self.quotas is not None:
            await self.quotas.record(
                UsageCounts(0, usage.prompt_tokens, usage.completion_tokens, 0)
            )

    @contextmanager
    def _accounted(self, job: _Job, **extra: object) -> Iterator[list[str]]:
        """Log and report how the turn ended: ``ok``, ``error`` or ``cancelled``."""
        started = anyio.current_time()
        outcome: list[str] = []
        try:
            yield outcome
        finally:
            status = outcome[0] if outcome else "cancelled"
            elapsed = anyio.current_time() - started
            log.info("turn.end", status=status, seconds=round(elapsed, 3), **extra)
            if self._on_turn is not None:
                self._on_turn(job.channel, status, elapsed)

    # Sessions, for channels and the CLI.

    @asynccontextmanager
    async def _session_lock(self, session_id: str) -> AsyncIterator[None]:
        # Per session of the current scope: another tenant's session of the same id is another
        # conversation and does not wait for this one.
        key = session_key(session_id)
        slot = self._locks.get(key)
        if slot is None:
            slot = self._locks[key] = _LockSlot(anyio.Lock())
        slot.users += 1
        try:
            # Then across daemons, when they share the history (one connection per session
            # waits there, not one per waiting turn).
            async with slot.lock, self.sessions.across_daemons(session_id):
                yield
        finally:
            slot.users -= 1
            if slot.users == 0:
                del self._locks[key]

    @contextmanager
    def _scoped(self) -> Iterator[None]:
        with scopes.use(scopes.get() or self.default_scope):
            yield

    async def history(self, session_id: str) -> list[Message]:
        """The messages the model would see for ``session_id`` now (hydrating if needed)."""
        with self._scoped():
            async with self._session_lock(session_id):
                prompt = await self._prompt(scopes.current())
                return list((await self.sessions.load(session_id, prompt)).messages)

    async def forget(self, session_id: str) -> None:
        """Drop ``session_id`` from memory and from the durable history (current scope)."""
        with self._scoped():
            async with self._session_lock(session_id):
                await self.sessions.forget(session_id)

    async def close_session(self, session_id: str) -> None:
        """Drop ``session_id`` from memory once its turn is over; its history stays stored."""
        with self._scoped():
            async with self._session_lock(session_id):
                self.sessions.drop(session_id)

    async def bound_session(self, session_id: str, keep: int) -> None:
        """Keep only the newest ``keep`` messages of a session, also after a restart."""
        with self._scoped():
            async with self._session_lock(session_id):
                await self.sessions.bound(session_id, keep)

    async def append_answer(self, session_id: str, text: str) -> None:
        """Add an assistant message to a session (current scope) outside a turn: an answer
        that arrives later, like a scheduled task's. Open client calls are closed first."""
        with self._scoped():
            async with self._session_lock(session_id):
                conv = await self.sessions.load(session_id, await self._prompt(scopes.current()))
                added = [*pending.closed(conv.messages), assistant(text)]
                await self.sessions.persist(session_id, added)
                conv.extend(added)
                await self.sessions.settle(session_id, conv)

    async def save_progress(self, run_id: str, value: object) -> None:
        """Keep the progress of a run (a heartbeat tick) in working memory, current scope."""
        with self._scoped():
            await self.sessions.save_progress(run_id, value)

    async def load_progress(self, run_id: str) -> object:
        """The saved progress of a run, or None."""
        with self._scoped():
            return await self.sessions.load_progress(run_id)

    async def clear_progress(self, run_id: str) -> None:
        with self._scoped():
            await self.sessions.clear_progress(run_id)

    def status(self, session_id: str) -> SessionStatus:
        """The session (of the current scope) as held in memory now, and the turns in flight."""
        with self._scoped():
            conv = self.sessions.cached(session_id)
        count = sum(m.role != "system" for m in conv.messages) if conv is not None else 0
        tokens = conv.prompt_tokens if conv is not None else 0
        budget = self.agent_loop.budget
        limit = budget.context if budget is not None else self.defaults.max_tokens
        return SessionStatus(session_id, count, self.in_flight, tokens, limit)

    @property
    def session_count(self) -> int:
        """Sessions held in memory."""
        return len(self.sessions)

    def reload(self, system_prompt: str) -> None:
        """Use ``system_prompt`` from the next turn on; sessions keep their history.

        With ``prompt_for``, that gives each turn's prompt; reload it there.
        """
        self.system_prompt = system_prompt

    async def _prompt(self, scope: scopes.Scope) -> str:
        if self.prompt_for is None:
            return self.system_prompt
        return await self.prompt_for(scope)

    async def ping_model(self) -> bool:
        """Whether the model server answers (True when the model client cannot tell)."""
        ping = getattr(self.agent_loop.model, "ping", None)
        return True if ping is None else bool(await ping())

    # In flight, for graceful shutdown.

    @contextmanager
    def working(self) -> Iterator[None]:
        """Count work beyond a turn (a tick's delivery) as in flight for graceful shutdown."""
        self._enter()
        try:
            yield
        finally:
            self._leave()

    def _enter(self) -> None:
        self.in_flight += 1
        self._idle = anyio.Event() if self.in_flight == 1 else self._idle

    def _leave(self) -> None:
        self.in_flight -= 1
        if self.in_flight == 0:
            self._idle.set()

    async def wait_idle(self) -> None:
        """Return when no turn is in flight or queued (graceful shutdown)."""
        while self.in_flight:
            await self._idle.wait()


#: How long work that is no turn's (a summary, a prompt read ahead) waits for the turns to end
#: before it sends its next request beside them: on a daemon that is never idle it still lands.
QUIET_PATIENCE = 20.0

TOO_LONG = (
    "I could not read that: {error}. Please send it in smaller parts, or save it as a file in "
    "my workdir and ask me to read it piece by piece."
)


async def _too_long(
    conv: Conversation,
    exc: ContextOverflow,
    on_append: Callable[[Sequence[Message]], Awaitable[None]] | None,
    on_delta: Callable[[str], Awaitable[None]],
) -> TurnResult:
    """The answer to a message that does not fit the model's context: said plainly, stored
    like any answer, so the session goes on (the next turns send what fits)."""
    log.warning("context.overflow", needed=exc.needed, limit=exc.limit)
    reply = assistant(TOO_LONG.format(error=exc))
    if on_append is not None:
        await on_append([reply])
    conv.append(reply)
    await on_delta(reply.content)
    return TurnResult(reply, added=[reply])


def stateless_conversation(system_prompt: str, messages: Sequence[Message]) -> Conversation:
    """The conversation of a stateless turn: the caller's leading system messages are appended
    to agentd's own system prompt (one system message), the rest follows as sent."""
    head = [m.content for m in itertools.takewhile(lambda m: m.role == "system", messages)]
    conv = Conversation()
    conv.set_system("\n\n".join([system_prompt, *head]).strip())
    conv.extend(messages[len(head) :])
    return conv


def text_of(events: Sequence[TurnEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))
