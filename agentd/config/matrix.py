"""The Matrix channel's settings: the homeserver, the bot's login, who may talk to it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pydantic
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from agentd.config.senders import TENANT_NAME, one_tenant_each

#: A Matrix user id, ``@localpart:server`` (the grammar's historical characters included).
USER_ID = r"^@[^:\s]+:[^\s]+$"
#: The tenant of a sender listed without one.
OWN_TENANT = "matrix:{user_id}"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_default=True)


class MatrixSender(_Section):
    """An allowed Matrix user and the tenant its messages run in."""

    user: str = Field(pattern=USER_ID, description="Matrix user id, @name:server.")
    tenant: str | None = Field(
        None,
        pattern=TENANT_NAME,
        description="Tenant of this user; default: its own, matrix:<user id>.",
    )


class MatrixSettings(_Section):
    """The Matrix bot (client-server API, /sync long polling)."""

    enabled: bool = False
    homeserver: str = Field(
        "http://127.0.0.1:8008", description="Client-server API root of the bot's homeserver."
    )
    user_id: str = Field("", description="The bot's Matrix user id, @name:server.")
    access_token: SecretStr | None = Field(
        None, description="The bot's access token (or set password to log in once)."
    )
    password: SecretStr | None = Field(
        None,
        description="The bot's password: used only when there is no access token; the token "
        "it gets is stored in state_dir/matrix-session.json (mode 0600) and used from then on.",
    )
    device_name: str = Field("agentd", description="Device name of a password login.")
    allow_from: list[str | MatrixSender] = Field(
        [],
        description="Users allowed to talk to the bot and invite it (empty = nobody): user ids "
        'or {"user": id, "tenant": name}. Each user without a tenant gets its own, '
        "matrix:<user id>; in a group room, a message runs in its sender's tenant.",
    )
    poll_timeout: int = Field(30, ge=0, le=300, description="Seconds one /sync may wait.")
    state_file: Path | None = Field(
        None,
        description="JSON file of the sync token and pending events; default: "
        "state_dir/matrix.json.",
    )
    backoff_initial: float = Field(1.0, gt=0, description="First retry delay, in seconds.")
    backoff_max: float = Field(60.0, gt=0, description="Longest retry delay, in seconds.")
    max_pending: int = Field(32, ge=1, description="Events being answered at once, all rooms.")
    reply_timeout: float = Field(
        30.0, gt=0, description="Seconds a reply may take to send (retries included)."
    )
    max_message_chars: int = Field(
        8000, ge=200, le=30000, description="Longest reply part; longer replies are split."
    )

    @pydantic.field_validator("homeserver")
    @classmethod
    def _http_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL")
        return value.rstrip("/")

    @pydantic.field_validator("allow_from")
    @classmethod
    def _senders(cls, value: list[str | MatrixSender]) -> list[str | MatrixSender]:
        one_tenant_each(_checked(value))
        return value

    @pydantic.model_validator(mode="after")
    def _login_when_enabled(self) -> MatrixSettings:
        if not self.enabled:
            return self
        if not re.fullmatch(USER_ID, self.user_id):
            raise ValueError("enabled without user_id: set channels.matrix.user_id (@bot:server)")
        if not any(
            s is not None and s.get_secret_value() for s in (self.access_token, self.password)
        ):
            raise ValueError(
                "enabled without a login: set AGENTD_CHANNELS__MATRIX__ACCESS_TOKEN "
                "(channels.matrix.access_token) or channels.matrix.password"
            )
        return self


def _checked(entries: list[str | MatrixSender]) -> Iterator[tuple[str, str, str | None]]:
    """``entries`` as ``(user, user, tenant)``, each checked as it comes (ValueError)."""
    for entry in entries:
        user, tenant = (
            (entry.user, entry.tenant) if isinstance(entry, MatrixSender) else (entry, None)
        )
        if not re.fullmatch(USER_ID, user):
            raise ValueError(f"{user!r} is not a Matrix user id (@name:server)")
        if tenant is None and not re.fullmatch(TENANT_NAME, OWN_TENANT.format(user_id=user)):
            raise ValueError(
                f"{user!r} cannot be its own tenant's name (too long or unusual "
                'characters): give it one, {"user": ..., "tenant": "name"}'
            )
        yield user, user, tenant
