"""Who may talk to a chat bot, and the tenant each sender's messages run in.

Every chat channel has an ``allow_from`` list: a sender listed alone gets a tenant of its own
(``<channel>:<user id>``, so two people never share conversations, memory or files), a sender
listed with a tenant runs in it (senders mapped to one tenant share it). Anyone else is refused
(deny by default). Each channel says how its entries are written and matched.
"""

from __future__ import annotations

from collections.abc import Iterable


class Senders:
    """The ``allow_from`` list, as a lookup from a sender's keys to its tenant."""

    __slots__ = ("_by_key", "_own_tenant")

    def __init__(self, entries: Iterable[tuple[str, str | None]], *, own_tenant: str) -> None:
        """``entries`` are (key, tenant or None); ``own_tenant`` formats ``{user_id}``."""
        self._by_key: dict[str, str | None] = dict(entries)
        self._own_tenant = own_tenant

    def allows(self, key: str) -> bool:
        """Whether ``key`` is listed."""
        return key in self._by_key

    def lookup(self, user_id: str, *keys: str | None) -> str | None:
        """The tenant of the first of ``keys`` that is listed (its own, named after
        ``user_id``, when listed without one), or None when none is."""
        for key in keys:
            if key is not None and key in self._by_key:
                return self._by_key[key] or self._own_tenant.format(user_id=user_id)
        return None
