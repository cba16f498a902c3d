"""Who calls the HTTP API: the principal a bearer token stands for.

A principal has a name (for logs and its rate limit), the tenant it acts in (the scope of every
turn it runs) and whether it is an admin. ``channels.http.principals`` lists them; each token of
``channels.http.tokens`` (and the token the daemon generates into the state directory) is an
admin of the install's tenant, so a single-user install behaves as it did before principals.
Only the SHA-256 of each token is kept.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from agentd.config import HttpChannelSettings, RateLimitSettings

#: Who calls when no token is required (``no_token_on_loopback``): the install's own user.
LOCAL = "local"


@dataclass(frozen=True, slots=True)
class Principal:
    """One caller of the API; ``digest`` is the SHA-256 of its token (empty: no token)."""

    name: str
    tenant: str
    admin: bool = False
    rate_limit: RateLimitSettings | None = None
    digest: bytes = field(default=b"", repr=False)


def principals(settings: HttpChannelSettings, tenant: str) -> list[Principal]:
    """The principals ``settings`` configure; ``tenant`` is the install's (``settings.tenant``).

    Configured tokens become ``token:0``, ``token:1``... (admins of ``tenant``); principal
    names cannot hold a ``:``, so these never collide with them.
    """
    found = [
        Principal(p.name, p.tenant, p.admin, p.rate_limit, p.digest) for p in settings.principals
    ]
    for index, token in enumerate(settings.tokens):
        raw = token.get_secret_value()
        if raw:
            digest = hashlib.sha256(raw.encode()).digest()
            found.append(Principal(f"token:{index}", tenant, True, None, digest))
    return found


def local(tenant: str) -> Principal:
    """The caller when no token is required: the install's user, an admin of ``tenant``."""
    return Principal(LOCAL, tenant, admin=True)
