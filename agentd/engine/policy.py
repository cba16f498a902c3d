"""What the model sees of a session: the one place that decides it.

Every path that hands a session's messages to the model goes through :class:`SessionPolicy`:
the sliding window after a turn (``default.max_messages``), the hydration from the durable
history after a restart or an eviction (the latest summary or window boundary, then the messages
after it), the heartbeat's own window (persisted, so a restart does not resend old ticks) and the
summary plus tail that compaction leaves. Each of them ends in :func:`well_formed`, the
tool-exchange rule: what is sent never starts with a ``tool`` message and never holds an
assistant ``tool_calls`` message without all of its results (strict servers reject both).

Replicas (several daemons on one PostgreSQL history, ``shared``): a session's turn holds the
database's lock of the session (:meth:`SessionPolicy.across_daemons`), and :meth:`load`
compares the session's stored version with the one this daemon last saw; when another daemon
wrote meanwhile, the copy in memory is stale and the session is hydrated again.

A session id names a conversation within a tenant scope: sessions are held in memory under
:func:`session_key` (the current scope and the id), read from the context like the durable
stores do, and fail closed without a scope.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol

import structlog

from agentd import scope as scopes
from agentd.memory.history import HistoryStore, StoredRequest
from agentd.memory.sessions import SessionStore
from agentd.messages import Conversation, Message

log = structlog.get_logger("agentd.engine.policy")

#: The working-memory key under which a run keeps its progress.
PROGRESS = "progress"

#: A session in memory: tenant, app and session id.
SessionKey = tuple[str, str, str]


def session_key(session_id: str) -> SessionKey:
    """The in-memory key of ``session_id`` in the current scope (ScopeMissing without one)."""
    scope = scopes.current()
    return (scope.tenant, scope.app, session_id)


class SharedHistory(Protocol):
    """A history several daemons write (PostgreSQL): session versions and session locks."""

    async def session_version(self, session_id: str) -> tuple[int, int]:
        """What changes whenever anyone writes the session (current scope)."""
        ...

    def session_lock(self, key: SessionKey) -> AbstractAsyncContextManager[None]:
        """Hold the session's lock across daemons for the block."""
        ...


#: Metadata of an assistant message whose listed calls (ids) are the client's to run.
CLIENT_CALLS = "client_calls"


def well_formed(messages: Sequence[Message]) -> list[Message]:
    """``messages`` without tool results whose call is missing and calls whose results are.

    A tool exchange (an assistant message with ``tool_calls`` and the ``tool`` messages that
    answer it) is kept whole or dropped whole; any other message is kept as it is. The one
    exchange that may stay open is the last, when it ends the messages and its open calls are
    the client's (marked :data:`CLIENT_CALLS`): a turn handed them to its caller, and the
    session's next turn answers or closes them (:mod:`agentd.engine.pending`).
    """
    out: list[Message] = []
    i = 0
    while i < len(messages):
        message = messages[i]
        if message.role == "tool":
            i += 1  # a result without the call that asked for it
            continue
        if message.role != "assistant" or not message.tool_calls:
            out.append(message)
            i += 1
            continue
        j = i + 1
        while j < len(messages) and messages[j].role == "tool":
            j += 1
        results = messages[i + 1 : j]
        if _answers(message, results) or (j == len(messages) and _open(message, results)):
            out.extend(messages[i:j])
        i = j
    return out


def _open(call: Message, results: Sequence[Message]) -> bool:
    """Whether ``results`` answer calls of ``call`` once each and leave open only client calls
    (a pending exchange)."""
    client = set(call.metadata.get(CLIENT_CALLS) or ())
    wanted = {c.id for c in call.tool_calls}
    got = [r.tool_call_id for r in results]
    if len(set(got)) != len(got) or not all(g in wanted for g in got):
        return False
    return bool(client) and wanted - set(got) <= client


def _answers(call: Message, results: Sequence[Message]) -> bool:
    wanted = [c.id for c in call.tool_calls]
    got = [r.tool_call_id for r in results]
    if len(got) != len(wanted):
        return False
    return all(g is None for g in got) or sorted(map(str, got)) == sorted(map(str, wanted))


def window(messages: Sequence[Message], max_messages: int, *, step: bool = False) -> list[Message]:
    """The system message and the newest ``max_messages`` others (0 = all), well formed.

    With ``step``, a window that overflows is cut down to half of ``max_messages`` at once:
    the conversation's beginning, and with it the prompt prefix the model server has cached,
    then stays the same for several turns instead of changing with every turn. The cut moves
    forward past ``tool`` messages, so the window starts at a whole exchange.
    """
    head = list(messages[:1]) if messages and messages[0].role == "system" else []
    rest = list(messages[len(head) :])
    if max_messages > 0 and len(rest) > max_messages:
        keep = max(1, max_messages // 2) if step else max_messages
        cut = len(rest) - keep
        if step:
            # Start at a user message when one is within the window: whole exchanges.
            floor = len(rest) - max_messages
            back = next((i for i in range(cut, floor - 1, -1) if rest[i].role == "user"), None)
            cut = back if back is not None else cut
        while cut < len(rest) and rest[cut].role == "tool":
            cut += 1
        rest = rest[cut:]
    return head + well_formed(rest)


class SessionPolicy:
    """Sessions in memory (a :class:`SessionStore`) backed by an optional durable history.

    The runtime calls it under the session's lock; every method is safe for concurrent
    sessions. ``max_messages`` is the sliding window (0 = unlimited).
    """

    def __init__(
        self,
        *,
        max_messages: int = 0,
        history: HistoryStore | None = None,
        store: SessionStore | None = None,
        max_sessions: int | None = None,
        shared: SharedHistory | None = None,
    ) -> None:
        self.max_messages = max_messages
        self.history = history
        self.store = store if store is not None else SessionStore(max_sessions=max_sessions)
        self.shared = shared
        #: The stored version of each session as this daemon last wrote or read it.
        self._versions: dict[SessionKey, tuple[int, int]] = {}

    def __len__(self) -> int:
        return len(self.store)

    def cached(self, session_id: str) -> Conversation | None:
        """The session as held in memory now, or None (nothing is read from the history)."""
        return self.store.get(session_key(session_id))

    @asynccontextmanager
    async def across_daemons(self, session_id: str) -> AsyncIterator[None]:
        """Hold the session's lock in the shared history (nothing without one)."""
        if self.shared is None:
            yield
            return
        async with self.shared.session_lock(session_key(session_id)):
            yield

    async def load(self, session_id: str, system_prompt: str) -> Conversation:
        """The session's conversation with ``system_prompt`` first, hydrated when not in memory
        (or, with a shared history, when another daemon wrote it since this one did)."""
        key = session_key(session_id)
        conv = self.store.get(key)
        if conv is not None and self.shared is not None:
            version = await self.shared.session_version(session_id)
            if version != self._versions.get(key):
                log.info("session.stale", session=session_id, reason="written elsewhere")
                conv = None
        if conv is None:
            conv = Conversation()
            if self.history is not None:
                stored = await self.history.resume(session_id, limit=self.max_messages)
                conv.extend(well_formed(stored))
            self.store.put(key, conv)
            await self._seen(session_id)
        conv.set_system(system_prompt)
        return conv

    async def _seen(self, session_id: str) -> None:
        """Remember the session's stored version: this daemon's copy matches it (called under
        the session's lock, after this daemon's own writes)."""
        if self.shared is None:
            return
        key = session_key(session_id)
        self._versions[key] = await self.shared.session_version(session_id)
        if len(self._versions) > 2 * max(len(self.store), 64):
            self._versions = {k: v for k, v in self._versions.items() if k in self.store}

    async def persist(
        self, session_id: str, messages: Sequence[Message], *, request_key: str | None = None
    ) -> None:
        """Store messages a turn appends (a user message, or a whole tool exchange).

        ``request_key`` (a client's Idempotency-Key) is stored with the first message.
        """
        if self.history is None:
            return
        if request_key is None:
            await self.history.save_conversation(session_id, messages)
        else:
            await self.history.save_conversation(session_id, messages, request_key=request_key)

    async def find_request(self, session_id: str, request_key: str) -> StoredRequest | None:
        """The user message stored with ``request_key`` and its answer (None without a
        durable history: keys are kept only there)."""
        if self.history is None:
            return None
        return await self.history.find_request(session_id, request_key)

    async def settle(self, session_id: str, conv: Conversation) -> None:
        """Put the conversation back after a turn, cut to the sliding window.

        A cut is stored as the session's window boundary, so a restart resumes with exactly
        the messages kept in memory (the stepped cut is not "the newest N").
        """
        before = len(conv.messages)
        conv.messages = window(conv.messages, self.max_messages, step=True)
        self.store.put(session_key(session_id), conv)
        if self.history is not None and len(conv.messages) < before:
            kept = sum(m.role != "system" and not m.metadata.get("summary") for m in conv.messages)
            await self.history.save_window(session_id, kept)
        await self._seen(session_id)

    async def summarized(self, session_id: str, summary: Message, tail: Sequence[Message]) -> None:
        """Store a compaction summary that the messages ``tail`` follow."""
        if self.history is not None:
            await self.history.save_summary(summary, session_id=session_id, tail=tail)
            await self._seen(session_id)

    async def bound(self, session_id: str, keep: int) -> None:
        """Keep only the newest ``keep`` messages of a session, in memory and on restart.

        The stored boundary counts stored messages: a compaction summary inside the window
        is kept in memory but not after a restart (the window then starts after it).
        """
        conv = self.store.get(session_key(session_id))
        if conv is not None:
            conv.messages = window(conv.messages, keep)
            kept = sum(m.role != "system" and not m.metadata.get("summary") for m in conv.messages)
        else:
            kept = keep
        if self.history is not None:
            await self.history.save_window(session_id, kept)
            await self._seen(session_id)

    def drop(self, session_id: str) -> None:
        """Forget the session in memory only (its history stays stored)."""
        self.store.delete(session_key(session_id))

    async def forget(self, session_id: str) -> None:
        """Forget the session in memory and in the durable history."""
        self.store.delete(session_key(session_id))
        if self.history is not None:
            await self.history.clear_conversation(session_id)

    async def save_progress(self, run_id: str, value: object) -> None:
        """Keep a run's progress (working memory) so a restart can finish what it started."""
        if self.history is not None:
            await self.history.save_working(run_id, PROGRESS, value)

    async def load_progress(self, run_id: str) -> object:
        """A run's saved progress, or None."""
        if self.history is None:
            return None
        return await self.history.load_working(run_id, PROGRESS)

    async def clear_progress(self, run_id: str) -> None:
        if self.history is not None:
            await self.history.clear_working(run_id)

    def pin(self, session_id: str) -> None:
        self.store.pin(session_key(session_id))

    def unpin(self, session_id: str) -> None:
        self.store.unpin(session_key(session_id))
