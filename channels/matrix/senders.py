"""Who may talk to the bot (and invite it), and the tenant each user's messages run in.

``allow_from`` lists Matrix user ids, each alone (the user gets a tenant of its own,
``matrix:<user id>``, so two people never share conversations, memory or files) or with the
tenant it belongs to (``{"user": "@ann:example.org", "tenant": "family"}``). User ids are
compared exactly: they are assigned by the homeserver and cannot be changed by their owner.
"""

from __future__ import annotations

from agentd.config import MatrixSender
from agentd.config.matrix import OWN_TENANT


class Senders:
    """The ``allow_from`` list, as a lookup from a message's sender to its tenant."""

    __slots__ = ("_by_user",)

    def __init__(self, entries: list[str | MatrixSender]) -> None:
        self._by_user: dict[str, str | None] = {}
        for entry in entries:
            if isinstance(entry, MatrixSender):
                self._by_user[entry.user] = entry.tenant
            else:
                self._by_user[entry] = None

    def tenant_of(self, user_id: str) -> str | None:
        """The tenant of ``user_id``, or None when it is not allowed (deny by default)."""
        if user_id not in self._by_user:
            return None
        return self._by_user[user_id] or OWN_TENANT.format(user_id=user_id)

    def allows(self, user_id: str) -> bool:
        return user_id in self._by_user
