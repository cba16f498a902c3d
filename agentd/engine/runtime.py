"""Turns per session: one at a time per session, sessions in parallel under a global limit.

``handle`` runs a turn and streams its events; after a successful turn the conversation goes
back into the SessionStore (sliding window) and compaction runs. With a durable journal every
message is persisted as it is appended, the user message before the model is called.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Protocol

import anyio
import structlog

from agentd import scope as scopes
from agentd.config import AgentDefaults
from agentd.engine.compaction import summarize_compaction
from agentd.engine.loop import AgentLoop, TurnDone, TurnEvent, TurnResult
from agentd.errors import ShuttingDown
from agentd.memory.sessions import SessionStore
from agentd.messages import Conversation, Message, user
from agentd.model.client import TextDelta

log = structlog.get_logger("agentd.engine.runtime")


class Journal(Protocol):
    """Durable session history as the runtime needs it (memory/history.py provides one)."""

    async def hydrate(self, session_id: str) -> list[Message] | None:
        """The session's messages after the system prompt (latest summary first), or None."""

    async def append(self, session_id: str, messages: Sequence[Message]) -> None:
        """Persist messages the turn appended, in order, atomically."""

    async def summarized(self, session_id: str, summary: Message, tail: Sequence[Message]) -> None:
        """Persist a compaction summary that is followed by ``tail``."""

    async def forget(self, session_id: str) -> None:
        """Delete the session's stored history."""


@dataclass(slots=True)
class _LockSlot:
    lock: anyio.Lock
    users: int = 0


class Runtime:
    """The turn engine shared by every channel."""

    def __init__(
        self,
        agent_loop: AgentLoop,
        *,
        system_prompt: str,
        defaults: AgentDefaults,
        sessions: SessionStore | None = None,
        journal: Journal | None = None,
        default_scope: scopes.Scope | None = None,
        on_turn: Callable[[str, str, float], None] | None = None,
    ) -> None:
        self.agent_loop = agent_loop
        self.system_prompt = system_prompt
        self.defaults = defaults
        self.journal = journal
        if sessions is None:
            sessions = SessionStore(
                defaults.max_messages,
                max_sessions=defaults.max_sessions_in_memory if journal is not None else None,
            )
        self.sessions = sessions
        self.default_scope = default_scope or scopes.Scope()
        self.limiter = anyio.CapacityLimiter(defaults.max_concurrent_turns)
        self._locks: dict[str, _LockSlot] = {}
        self._on_turn = on_turn
        self.in_flight = 0
        self.accepting = True
        self._idle = anyio.Event()
        self._idle.set()

    @asynccontextmanager
    async def _session_lock(self, session_id: str) -> AsyncIterator[None]:
        slot = self._locks.get(session_id)
        if slot is None:
            slot = self._locks[session_id] = _LockSlot(anyio.Lock())
        slot.users += 1
        try:
            async with slot.lock:
                yield
        finally:
            slot.users -= 1
            if slot.users == 0:
                del self._locks[session_id]

    async def _conversation(self, session_id: str) -> Conversation:
        conv = self.sessions.get(session_id)
        if conv is None:
            conv = Conversation()
            if self.journal is not None:
                stored = await self.journal.hydrate(session_id)
                if stored:
                    conv.extend(stored)
            self.sessions.put(session_id, conv)
        conv.set_system(self.system_prompt)
        return conv

    async def history(self, session_id: str) -> list[Message]:
        """The messages the model would see for ``session_id`` now (hydrating if needed)."""
        with scopes.use(scopes.get() or self.default_scope):
            async with self._session_lock(session_id):
                return list((await self._conversation(session_id)).messages)

    async def handle(
        self,
        session_id: str,
        text: str,
        *,
        channel: str = "console",
        scope: scopes.Scope | None = None,
        stream: bool = True,
    ) -> AsyncGenerator[TurnEvent, None]:
        """Run one turn of ``session_id`` with the user's ``text``.

        Yields text deltas (when ``stream``) and finally one TurnDone. Consume it with
        ``contextlib.aclosing`` so that an abandoned turn releases its session at once.
        """
        if not self.accepting:
            raise ShuttingDown()
        run_id = secrets.token_hex(6)
        with (
            scopes.use(scope or scopes.get() or self.default_scope),
            structlog.contextvars.bound_contextvars(
                session=session_id, channel=channel, run_id=run_id
            ),
        ):
            async with self._session_lock(session_id), self.limiter:
                self.sessions.pin(session_id)
                try:
                    with self._accounted(channel):
                        async for event in self._turn(session_id, text, stream):
                            yield event
                finally:
                    self.sessions.unpin(session_id)

    async def _turn(self, session_id: str, text: str, stream: bool) -> AsyncIterator[TurnEvent]:
        conv = await self._conversation(session_id)
        message = user(text)
        on_append = None
        if self.journal is not None:
            journal = self.journal

            async def on_append(messages: Sequence[Message]) -> None:
                await journal.append(session_id, messages)

            await on_append([message])
        conv.append(message)
        try:
            done: TurnDone | None = None
            async for event in self.agent_loop.events(conv, stream=stream, on_append=on_append):
                if isinstance(event, TurnDone):
                    done = event
                else:
                    yield event
            assert done is not None
        finally:
            # Whatever happened, the conversation is consistent: the agent loop only appends
            # whole tool exchanges. Put it back so the window applies.
            self.sessions.put(session_id, conv)
        await self._compact(session_id, conv)
        yield done

    async def _compact(self, session_id: str, conv: Conversation) -> None:
        if self.defaults.compaction_strategy != "summarize":
            return

        async def summarize(synthetic: Conversation) -> str:
            result = await self.agent_loop.run(synthetic, stream=False, use_tools=False)
            return result.message.content

        save = None
        if self.journal is not None:
            journal = self.journal

            async def save(summary: Message, tail: Sequence[Message]) -> None:
                await journal.summarized(session_id, summary, tail)

        await summarize_compaction(
            conv,
            threshold=self.defaults.effective_threshold,
            summarize=summarize,
            save_summary=save,
        )

    async def handle_stateless(
        self,
        messages: Sequence[Message],
        *,
        channel: str = "http",
        scope: scopes.Scope | None = None,
        stream: bool = True,
    ) -> AsyncGenerator[TurnEvent, None]:
        """Run one turn over ``messages`` alone, storing nothing (no session, no compaction).

        The agent's system prompt comes first; system messages leading ``messages`` are added
        to it, so the model sees one system message. Events are those of :meth:`handle`.
        """
        if not self.accepting:
            raise ShuttingDown()
        head = [m.content for m in itertools.takewhile(lambda m: m.role == "system", messages)]
        conv = Conversation()
        conv.set_system("\n\n".join([self.system_prompt, *head]).strip())
        conv.extend(messages[len(head) :])
        with (
            scopes.use(scope or scopes.get() or self.default_scope),
            structlog.contextvars.bound_contextvars(channel=channel, run_id=secrets.token_hex(6)),
        ):
            async with self.limiter:
                with self._accounted(channel, stateless=True):
                    async for event in self.agent_loop.events(conv, stream=stream):
                        yield event

    async def forget(self, session_id: str) -> None:
        """Drop ``session_id`` from memory and from the durable history (current scope)."""
        with scopes.use(scopes.get() or self.default_scope):
            async with self._session_lock(session_id):
                self.sessions.delete(session_id)
                if self.journal is not None:
                    await self.journal.forget(session_id)

    async def ask(self, session_id: str, text: str, **kwargs: object) -> TurnResult:
        """Run a turn without streaming and return its result."""
        result: TurnResult | None = None
        stream = self.handle(session_id, text, stream=False, **kwargs)  # type: ignore[arg-type]
        try:
            async for event in stream:
                if isinstance(event, TurnDone):
                    result = event.result
        finally:
            await stream.aclose()
        assert result is not None
        return result

    @contextmanager
    def _accounted(self, channel: str, **extra: object) -> Iterator[None]:
        """Count the turn in flight, then log and report how it ended."""
        self._enter()
        started = anyio.current_time()
        status = "error"
        try:
            yield
            status = "ok"
        except (GeneratorExit, anyio.get_cancelled_exc_class()):
            # GeneratorExit: the consumer closed the turn early (a client went away).
            status = "cancelled"
            raise
        finally:
            self._leave()
            elapsed = anyio.current_time() - started
            log.info("turn.end", status=status, seconds=round(elapsed, 3), **extra)
            if self._on_turn is not None:
                self._on_turn(channel, status, elapsed)

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
        """Return when no turn is in flight (graceful shutdown)."""
        while self.in_flight:
            await self._idle.wait()


def text_of(events: Sequence[TurnEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))
