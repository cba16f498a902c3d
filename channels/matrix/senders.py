"""Who may talk to the Matrix bot (and invite it), and the tenant each user's messages run in.

``allow_from`` lists Matrix user ids, each alone (the user gets a tenant of its own,
``matrix:<user id>``) or with the tenant it belongs to (``{"user": "@ann:example.org",
"tenant": "family"}``); see :mod:`channels.chat.senders`. User ids are compared exactly: they
are assigned by the homeserver and cannot be changed by their owner.
"""

from __future__ import annotations

from agentd.config import MatrixSender
from agentd.config.matrix import OWN_TENANT
from channels.chat import senders


class Senders(senders.Senders):
    """Matrix's ``allow_from``: user ids."""

    __slots__ = ()

    def __init__(self, entries: list[str | MatrixSender]) -> None:
        super().__init__(
            ((e.user, e.tenant) if isinstance(e, MatrixSender) else (e, None) for e in entries),
            own_tenant=OWN_TENANT,
        )

    def tenant_of(self, user_id: str) -> str | None:
        """The tenant of ``user_id``, or None when it is not allowed (deny by default)."""
        return self.lookup(user_id, user_id)
