"""Who may talk to the Telegram bot, and the tenant each sender's messages run in.

``allow_from`` lists user ids and ``@usernames``, each alone (the sender gets a tenant of its
own, ``telegram:<user id>``) or with the tenant it belongs to (``{"user": 123, "tenant":
"family"}``); see :mod:`channels.chat.senders`. A sender is matched by its user id first, then
by its username: an id cannot be changed by its owner, a username can.
"""

from __future__ import annotations

from collections.abc import Iterator

from agentd.config import TelegramSender, sender_key
from channels.chat import senders

#: The tenant of a sender listed without one.
OWN_TENANT = "telegram:{user_id}"


def _entries(entries: list[int | str | TelegramSender]) -> Iterator[tuple[str, str | None]]:
    for entry in entries:
        if isinstance(entry, TelegramSender):
            yield sender_key(entry.user), entry.tenant
        elif (key := sender_key(entry)) != "@":  # an empty entry allows nobody
            yield key, None


class Senders(senders.Senders):
    """Telegram's ``allow_from``: user ids and usernames."""

    __slots__ = ()

    def __init__(self, entries: list[int | str | TelegramSender]) -> None:
        super().__init__(_entries(entries), own_tenant=OWN_TENANT)

    def tenant_of(self, user_id: str, username: str) -> str | None:
        """The tenant of the sender ``user_id`` (``username`` without ``@``), or None when the
        sender is not allowed (deny by default)."""
        if not user_id.isdigit():
            return None  # no sender (a channel post), or not a user
        return self.lookup(user_id, user_id, "@" + username.lower() if username else None)
