"""Who may talk to the bot, and the tenant each sender's messages run in.

``allow_from`` lists user ids and ``@usernames``, each alone (the sender gets a tenant of its
own, ``telegram:<user id>``, so two people never share conversations, memory or files) or with
the tenant it belongs to (``{"user": 123, "tenant": "family"}``: senders mapped to one tenant
share it). A sender is matched by its user id first, then by its username: an id cannot be
changed by its owner, a username can.
"""

from __future__ import annotations

from agentd.config import TelegramSender, sender_key

#: The tenant of a sender listed without one.
OWN_TENANT = "telegram:{user_id}"


class Senders:
    """The ``allow_from`` list, as a lookup from a message's sender to its tenant."""

    __slots__ = ("_by_key",)

    def __init__(self, entries: list[int | str | TelegramSender]) -> None:
        self._by_key: dict[str, str | None] = {}
        for entry in entries:
            if isinstance(entry, TelegramSender):
                self._by_key[sender_key(entry.user)] = entry.tenant
            elif (key := sender_key(entry)) != "@":  # an empty entry allows nobody
                self._by_key[key] = None

    def tenant_of(self, user_id: str, username: str) -> str | None:
        """The tenant of the sender ``user_id`` (``username`` without ``@``), or None when the
        sender is not allowed (deny by default)."""
        if not user_id.isdigit():
            return None  # no sender (a channel post), or not a user
        for key in (user_id, "@" + username.lower() if username else None):
            if key is not None and key in self._by_key:
                return self._by_key[key] or OWN_TENANT.format(user_id=user_id)
        return None
