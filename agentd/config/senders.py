"""What the chat channels' ``allow_from`` lists share: tenant names, one tenant per sender.

Kept apart from :mod:`agentd.config.settings` so that each channel's settings module can use it
without importing the settings model (which imports them).
"""

from __future__ import annotations

from collections.abc import Iterable

#: A tenant's name: also a folder name under ``state_dir/tenants`` and a metrics label value.
TENANT_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,63}$"


def one_tenant_each(entries: Iterable[tuple[str, object, str | None]]) -> None:
    """Raise ValueError when a sender is listed twice with different tenants.

    ``entries`` are ``(key, user, tenant)``: ``key`` is how the channel matches the sender,
    ``user`` as written (for the message), ``tenant`` None for the sender's own.
    """
    seen: dict[str, str | None] = {}
    for key, user, tenant in entries:
        if key in seen and seen[key] != tenant:
            raise ValueError(
                f"{user!r} is listed twice with different tenants "
                f"({seen[key] or 'its own'} and {tenant or 'its own'}): keep one"
            )
        seen[key] = tenant
