"""In-memory conversations per session, with an LRU bound on idle sessions.

What a conversation holds (the window, the tool-exchange rule) is decided by
:class:`agentd.engine.policy.SessionPolicy`; this store only keeps what it is given. Its keys are
whatever the policy makes of a session: there, the tenant scope and the session id together, so
two tenants' sessions with the same id never share an entry.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterable

from agentd.messages import Conversation


class SessionStore:
    """Conversations by session key.

    ``max_sessions`` bounds how many are kept: the least recently used beyond it are evicted
    (they live on in the durable history and are re-hydrated on demand). All methods are
    synchronous and so atomic on the event loop: safe for any number of concurrent tasks.
    """

    def __init__(self, *, max_sessions: int | None = None) -> None:
        self.max_sessions = max_sessions
        self._sessions: OrderedDict[Hashable, Conversation] = OrderedDict()
        self._pinned: dict[Hashable, int] = {}
        self.evictions = 0

    def __len__(self) -> int:
        return len(self._sessions)

    def __contains__(self, session_id: object) -> bool:
        return session_id in self._sessions

    def ids(self) -> Iterable[Hashable]:
        return list(self._sessions)

    def get(self, session_id: Hashable) -> Conversation | None:
        conv = self._sessions.get(session_id)
        if conv is not None:
            self._sessions.move_to_end(session_id)
        return conv

    def get_or_create(self, session_id: Hashable) -> Conversation:
        conv = self.get(session_id)
        if conv is None:
            conv = Conversation()
            self._sessions[session_id] = conv
            self._evict(keep=session_id)
        return conv

    def put(self, session_id: Hashable, conversation: Conversation) -> None:
        self._sessions[session_id] = conversation
        self._sessions.move_to_end(session_id)
        self._evict(keep=session_id)

    def delete(self, session_id: Hashable) -> None:
        self._sessions.pop(session_id, None)

    def pin(self, session_id: Hashable) -> None:
        """Keep ``session_id`` from eviction while a turn works on it."""
        self._pinned[session_id] = self._pinned.get(session_id, 0) + 1

    def unpin(self, session_id: Hashable) -> None:
        left = self._pinned.get(session_id, 0) - 1
        if left > 0:
            self._pinned[session_id] = left
        else:
            self._pinned.pop(session_id, None)
        self._evict()

    def _evict(self, keep: Hashable | None = None) -> None:
        # ``keep`` is the session just created or stored: evicting it would hand the caller
        # a conversation the store no longer holds. While pins hold the store over its
        # bound, the next unpin brings it back down.
        if self.max_sessions is None:
            return
        excess = len(self._sessions) - self.max_sessions
        if excess <= 0:
            return
        for session_id in list(self._sessions):
            if excess <= 0:
                break
            if session_id in self._pinned or session_id == keep:
                continue
            del self._sessions[session_id]
            self.evictions += 1
            excess -= 1
