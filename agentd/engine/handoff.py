"""What a stateless turn did before it handed calls to the client, kept for its continuation.

A stateless client holds the conversation itself, and it is sent only the client's calls: the
assistant message it gets back names them alone. When the same step (or an earlier step of
the turn) ran agentd's own tools, their calls and results would be lost to the model on the
continuation. So the turn's messages are kept here, briefly, under the scope and the ids of the
calls handed out; a request that sends that assistant message back gets them spliced in place
of it. Entries are bounded in number and age: a continuation that finds none (the daemon
restarted, or it came too late) goes on with what the client sent.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence

from agentd import scope as scopes
from agentd.messages import Message

#: How many handed-off turns are kept, and for how long (seconds).
MAX_ENTRIES = 1024
MAX_AGE = 3600.0

_Key = tuple[str, str, frozenset[str]]


def _key(scope: scopes.Scope, call_ids: Sequence[str]) -> _Key:
    return (scope.tenant, scope.app, frozenset(call_ids))


class HandedTurns:
    """The messages of stateless turns that ended at client calls, by scope and call ids."""

    def __init__(
        self,
        *,
        max_entries: int = MAX_ENTRIES,
        max_age: float = MAX_AGE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._entries: OrderedDict[_Key, tuple[float, list[Message]]] = OrderedDict()
        self._max_entries = max_entries
        self._max_age = max_age
        self._clock = clock

    def __len__(self) -> int:
        return len(self._entries)

    def keep(self, scope: scopes.Scope, handed: Message, added: Sequence[Message]) -> None:
        """Remember ``added`` (the turn's messages) under the calls of ``handed``."""
        if not handed.tool_calls or not added:
            return
        key = _key(scope, [c.id for c in handed.tool_calls])
        self._entries[key] = (self._clock(), list(added))
        self._entries.move_to_end(key)
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)

    def restore(self, scope: scopes.Scope, messages: Sequence[Message]) -> list[Message]:
        """``messages`` with each assistant message of handed calls replaced by the turn that
        made them (the agent's own calls and results included); the rest as sent."""
        self._expire()
        out: list[Message] = []
        for message in messages:
            turn = None
            if message.role == "assistant" and message.tool_calls:
                found = self._entries.get(_key(scope, [c.id for c in message.tool_calls]))
                turn = found[1] if found is not None else None
            out.extend(turn if turn is not None else (message,))
        return out

    def _expire(self) -> None:
        oldest = self._clock() - self._max_age
        while self._entries:
            key, (at, _) = next(iter(self._entries.items()))
            if at >= oldest:
                break
            del self._entries[key]
