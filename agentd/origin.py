"""Where the current turn came from (channel, chat, session), carried in a contextvar.

The runtime sets it for every session turn; tools that act later on the user's behalf (a
scheduled task) read it to send their answer back to the same place. Like the tenant scope
(:mod:`agentd.scope`), it is read from context, so a tool cannot be handed someone else's.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a turn came from, so that a later answer goes back there.

    ``address`` is the chat a channel that can send unprompted delivers to (``telegram`` and
    the chat id); ``session`` the conversation whose history gets the answer when the channel
    cannot send (``http``). Neither: the answer stays in the tick log.
    """

    channel: str
    address: str | None = None
    session: str | None = None

    @classmethod
    def of_session(cls, channel: str, session: str | None) -> Origin:
        """The origin of a turn of ``session`` on ``channel``.

        Chat channels name sessions ``<channel>:<chat id>`` (``#<n>`` after a reset, see
        :class:`channels.base.InboundMessage`): the chat id is the delivery address.
        """
        address = None
        if session is not None and session.startswith(f"{channel}:"):
            address = session[len(channel) + 1 :].split("#", 1)[0] or None
        return cls(channel, address, session)

    def describe(self) -> str:
        if self.address:
            return f"{self.channel}:{self.address}"
        if self.session:
            return f"{self.channel} session {self.session}"
        return self.channel


_current: contextvars.ContextVar[Origin | None] = contextvars.ContextVar(
    "agentd_origin", default=None
)


def get() -> Origin | None:
    """The origin of the current turn, or None outside a session turn."""
    return _current.get()


@contextmanager
def use(origin: Origin) -> Iterator[Origin]:
    """Set ``origin`` for the duration of the block (and tasks started inside it)."""
    token = _current.set(origin)
    try:
        yield origin
    finally:
        _current.reset(token)
