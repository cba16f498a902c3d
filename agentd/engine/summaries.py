"""Compaction summaries off the turn's path: written in the background, applied between turns.

With ``compaction_strategy: summarize``, a turn whose session is over the threshold ends as any
turn does: the answer is stored and the session's lock is released. The runtime then asks
:class:`BackgroundSummaries` to summarise; the summary is written by a task of the runtime's
task group, holding nothing of the session. Turns of the session that come meanwhile go ahead
with the budget-trimmed view (:mod:`agentd.engine.budget`), as before any summary existed.

When the summary is written, the task takes the session's lock (so it lands between two turns,
never during one), and applies it to the conversation as it is *then*: the summary, then the
first message its cut kept and everything after it, also what later turns added
(:func:`~agentd.engine.compaction.applied`). When that message is gone (the window dropped it,
the session was forgotten, evicted, or written by another daemon) the summary is dropped.
A failure anywhere (the model's, the store's) leaves the history as it was.

A ``landing`` (given to :meth:`BackgroundSummaries.start`; the runtime's,
:mod:`agentd.engine.landing`) makes the session ready for the summary: the summary goes in
front of the messages it kept, and llama-server's cache reuse follows only what was dropped,
never what was inserted, so in the 50-turn long session the first turn after a summary read
its whole prompt again (2,807 tokens, 47 s on 2 cores). Once the summary is written, the
landing reads the session as it will be, on the summary's slot (again when turns added to it
meanwhile, up to :data:`READS` times); under the lock, once applied, it lands (the prompt read
is copied into the session's slot); after, outside the lock, it reads what is left.

Bounds: one summary in flight per session (a turn that finds one running starts none), and
``concurrency`` summaries writing at once in the daemon (they share the model server with the
turns; the others wait for their turn, holding nothing). Shutdown cancels them at once: a
summary is an optimisation, and the next turn past the threshold starts it again.

With ``read_ahead`` (the runtime's, when it warms the model server) the summary's prompt is read
in pieces first, each once no turn is in flight (:mod:`agentd.engine.readahead`): read in one
request, its ~1,800 tokens held a turn that came meanwhile until all were read.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager, nullcontext
from functools import partial
from typing import Protocol

import anyio
import structlog
from anyio.abc import TaskGroup

from agentd import scope as scopes
from agentd.engine.compaction import Cut, applied, cut_for, tail_of, write_summary
from agentd.engine.policy import SessionKey, SessionPolicy, session_key
from agentd.messages import Conversation, Message
from agentd.model.usage import Usage

log = structlog.get_logger("agentd.engine.summaries")

#: Writes a summary of a synthetic conversation, adding its tokens to the usage given.
Summarize = Callable[[Conversation, Usage], Awaitable[str]]
#: Holds a session's lock (the runtime's, across daemons too) for the block.
SessionLock = Callable[[str], AbstractAsyncContextManager[None]]
#: Counts what a summary used against its tenant's quota (the current scope's).
Record = Callable[[Usage], Awaitable[None]]
#: Bounds the shielded apply step: a store write.
APPLY_TIMEOUT = 30.0
#: How many times the session's next prompt is read before the summary lands: again when
#: turns added messages while it was read (only their part is read then).
READS = 3


class Landing(Protocol):
    """Makes a session ready for its summary (the runtime's: :mod:`agentd.engine.landing`)."""

    async def read(self, conversation: Conversation) -> None:
        """On the summary's slot, before it lands: the session as it will be is read."""

    async def land(self) -> None:
        """Under the session's lock, the summary just applied."""

    async def after(self, conversation: Conversation) -> None:
        """Outside the lock, once the summary landed."""


#: Has the model server read a summary request's prompt ahead, in pieces out of the turns'
#: way (:mod:`agentd.engine.readahead`), adding its tokens to the usage given.
ReadAhead = Callable[[Sequence[Message], Usage], Awaitable[None]]


class BackgroundSummaries:
    """Summaries in flight, at most one per session (see the module docstring)."""

    def __init__(
        self,
        summarize: Summarize,
        sessions: SessionPolicy,
        lock: SessionLock,
        *,
        record: Record | None = None,
        concurrency: int = 1,
        slot: Callable[[], AbstractContextManager[None]] | None = None,
        read_ahead: ReadAhead | None = None,
    ) -> None:
        self._summarize = summarize
        self._read_ahead = read_ahead
        #: Sends a summary's requests to the model server's background slot
        #: (:meth:`agentd.model.pinning.SlotPins.summarizing`): none of a session's, so no
        #: session's cached prompt is evicted by one.
        self._slot = slot or nullcontext
        self._sessions = sessions
        self._lock = lock
        self._record = record
        self.limiter = anyio.CapacityLimiter(concurrency)
        self._running: dict[SessionKey, anyio.CancelScope] = {}
        self._idle = anyio.Event()
        self._idle.set()

    def __len__(self) -> int:
        return len(self._running)

    def start(
        self,
        tg: TaskGroup,
        session_id: str,
        conversation: Conversation,
        *,
        threshold: int,
        max_transcript_chars: int | None = None,
        landing: Landing | None = None,
    ) -> bool:
        """Start summarising the session (current scope) when it is over ``threshold`` and no
        summary of it is in flight; whether one started. Call it under the session's lock.
        ``landing`` makes the session ready for the summary (see the module docstring)."""
        key = session_key(session_id)
        if key in self._running:
            return False
        cut = cut_for(conversation.messages, threshold)
        if cut is None:
            return False
        scope = anyio.CancelScope()
        self._running[key] = scope
        self._idle = anyio.Event() if len(self._running) == 1 else self._idle
        work = partial(self._work, session_id, scopes.current(), cut, max_transcript_chars, landing)
        tg.start_soon(self._run, key, scope, work)
        return True

    def cancel_all(self) -> None:
        """Stop every summary in flight (shutdown); their sessions stay as they are."""
        for scope in self._running.values():
            scope.cancel()

    async def wait_idle(self) -> None:
        """Return once no summary is in flight."""
        while self._running:
            await self._idle.wait()

    async def _run(
        self, key: SessionKey, scope: anyio.CancelScope, work: Callable[[], Awaitable[None]]
    ) -> None:
        try:
            with scope:
                await work()
        except Exception:
            # A defect here must not cancel the runtime's task group, and changes nothing.
            log.exception("compaction.crashed")
        finally:
            del self._running[key]
            if not self._running:
                self._idle.set()

    async def _work(
        self,
        session_id: str,
        scope: scopes.Scope,
        cut: Cut,
        max_chars: int | None,
        landing: Landing | None,
    ) -> None:
        with scopes.use(scope), structlog.contextvars.bound_contextvars(session=session_id):
            started = anyio.current_time()
            async with self.limiter:
                # On the summary's slot until it landed: what was read there is copied.
                with self._slot():
                    summary = await self._write(session_id, cut, max_chars, landing)
                    if summary is None:
                        return
                    conv = await self._land(session_id, summary, cut, started, landing)
            if conv is not None and landing is not None:
                await _quietly(landing.after(conv))

    async def _write(
        self, session_id: str, cut: Cut, max_chars: int | None, landing: Landing | None
    ) -> Message | None:
        """The summary of ``cut``, the session as it will be read by ``landing``; None when
        writing it failed (logged)."""
        usage = Usage()
        try:

            async def write(synthetic: Conversation) -> str:
                if self._read_ahead is not None:
                    await self._read_ahead(synthetic.messages, usage)
                return await self._summarize(synthetic, usage)

            summary = await write_summary(cut.middle, write, max_chars)
            if landing is not None:
                await self._read(session_id, summary, cut, landing)
        except Exception as exc:
            log.warning("compaction.failed", error=str(exc), exc_type=type(exc).__name__)
            return None
        finally:
            if self._record is not None and (usage.prompt_tokens or usage.completion_tokens):
                with anyio.CancelScope(shield=True):
                    await self._record(usage)
        return summary

    async def _land(
        self,
        session_id: str,
        summary: Message,
        cut: Cut,
        started: float,
        landing: Landing | None,
    ) -> Conversation | None:
        """Apply ``summary`` under the session's lock, and land it; the session's
        conversation, or None when nothing changed."""
        conv = None
        async with self._lock(session_id):
            with anyio.move_on_after(APPLY_TIMEOUT, shield=True):
                seconds = anyio.current_time() - started
                conv = await self._apply(session_id, summary, cut, seconds)
                if conv is not None and landing is not None:
                    await _quietly(landing.land())
        return conv

    async def _read(self, session_id: str, summary: Message, cut: Cut, landing: Landing) -> None:
        """Have ``landing`` read the session as it will be with ``summary``; again (up to
        :data:`READS` times) when turns added to it meanwhile. A failure is logged."""
        for _ in range(READS):
            conv = self._sessions.cached(session_id)
            messages = applied(conv.messages, summary, cut.first) if conv is not None else None
            if conv is None or messages is None:
                return
            length = len(conv.messages)
            ahead = Conversation(messages, sent_from=conv.sent_from)
            ahead.first_step_tools = conv.first_step_tools
            if not await _quietly(landing.read(ahead)):
                return
            if len(conv.messages) == length:
                return

    async def _apply(
        self, session_id: str, summary: Message, cut: Cut, seconds: float
    ) -> Conversation | None:
        """Put ``summary`` in the session as it is now (under its lock), stored first; the
        session's conversation, or None when nothing changed."""
        conv = self._sessions.cached(session_id)
        messages = applied(conv.messages, summary, cut.first) if conv is not None else None
        if conv is None or messages is None:
            log.info("compaction.dropped", reason="the session no longer holds the summary's cut")
            return None
        tail = tail_of(messages)
        try:
            await self._sessions.summarized(session_id, summary, tail)
        except Exception as exc:
            log.warning("compaction.failed", error=str(exc), exc_type=type(exc).__name__)
            return None
        replaced = len(conv.messages) - len(messages) + 1
        conv.messages = messages
        log.info(
            "compaction.summarized", replaced=replaced, kept=len(tail), seconds=round(seconds, 3)
        )
        return conv


async def _quietly(step: Awaitable[None]) -> bool:
    """Await a landing's ``step``: a failure is logged (the summary stays); whether it ran."""
    try:
        await step
    except Exception as exc:
        log.warning("compaction.landing_failed", error=str(exc), exc_type=type(exc).__name__)
        return False
    return True


__all__ = ["BackgroundSummaries", "Landing"]
