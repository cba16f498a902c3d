"""The bot's Matrix login on matrix-nio, with errors that never carry the access token.

The login is an access token from the configuration, or one the bot got itself by logging in
with its password, stored in ``matrix-session.json`` (mode 0600) and used from then on; when the
homeserver no longer accepts a stored token, the bot logs in again. matrix-nio returns error
responses instead of raising, and lets aiohttp's exceptions through: :meth:`Homeserver.call`
turns both into :class:`~agentd.errors.MatrixError`, scrubbed of the token and password, with
``from None`` so no traceback chains back to a request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import anyio
import nio
import structlog

from agentd.backoff import Backoff
from agentd.config import MatrixSettings
from agentd.errors import MatrixError
from agentd.redact import Scrubber
from channels.chat.statefile import read_json, write_private

log = structlog.get_logger("channels.matrix")

R = TypeVar("R")

#: How many times a request is tried when the homeserver fails transiently.
ATTEMPTS = 6
#: What the homeserver answers when a token is no longer valid.
BAD_TOKEN = frozenset({"M_UNKNOWN_TOKEN", "M_MISSING_TOKEN"})


class Homeserver:
    """One logged-in matrix-nio client; ``await hs.call("send", client.room_send(...))``."""

    def __init__(self, settings: MatrixSettings, *, session_path: Path) -> None:
        self.settings = settings
        self.session_path = session_path
        secrets = [s.get_secret_value() for s in (settings.access_token, settings.password) if s]
        self._scrub = Scrubber(secrets, mask="[redacted]")
        self.client = nio.AsyncClient(
            settings.homeserver,
            settings.user_id,
            config=nio.AsyncClientConfig(
                # Failures come back to the channel at once: its own backoff and readiness
                # apply (nio would otherwise retry a dead connection for ever, silently).
                max_timeouts=0,
                max_limit_exceeded=0,
                encryption_enabled=False,
                store_sync_tokens=False,
                request_timeout=30,
            ),
        )
        self._lock = anyio.Lock()
        self.logged_in = False

    @property
    def user_id(self) -> str:
        return self.settings.user_id

    def scrub(self, text: str) -> str:
        return self._scrub(text)

    async def aclose(self) -> None:
        with anyio.move_on_after(5, shield=True):
            await self.client.close()

    async def call(self, action: str, request: Awaitable[R]) -> R:
        """The response of ``request``, or MatrixError when it failed or the homeserver refused."""
        try:
            response = await request
        # ValueError: a body that is not JSON.
        except (
            aiohttp.ClientError,
            TimeoutError,
            OSError,
            ValueError,
            nio.LocalProtocolError,
        ) as exc:
            reason = self.scrub(str(exc)) or type(exc).__name__
            raise MatrixError(action, f"{type(exc).__name__}: {reason}") from None
        if isinstance(response, nio.ErrorResponse):
            retry_ms = getattr(response, "retry_after_ms", None)
            code = str(response.status_code or "M_UNKNOWN")
            raise MatrixError(
                action,
                self.scrub(str(response.message or "refused")),
                code=code,
                retry_after=retry_ms / 1000 if retry_ms else None,
            )
        return response

    async def retrying(self, action: str, request: Callable[[], Awaitable[R]]) -> R:
        """:meth:`call` of a fresh ``request()``, retried with backoff while the failure is
        transient (at most ``ATTEMPTS`` tries; the homeserver's ``retry_after`` honoured)."""
        backoff = Backoff(self.settings.backoff_initial, self.settings.backoff_max)
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return await self.call(action, request())
            except MatrixError as exc:
                if not exc.retryable or attempt == ATTEMPTS:
                    raise
                log.info("matrix.retry", action=action, error=str(exc), attempt=attempt)
                await anyio.sleep(backoff.next_delay(retry_after=exc.retry_after))
        raise AssertionError("unreachable")

    @property
    def can_login_again(self) -> bool:
        """Whether a rejected token can be replaced (a password login, not a given token)."""
        return self.settings.access_token is None and self.settings.password is not None

    def token_rejected(self) -> None:
        """The homeserver no longer accepts the token: the next :meth:`login` gets a new one."""
        if self.can_login_again:
            self.logged_in = False

    async def login(self) -> None:
        """Log in (token from the config, the stored one, or the password), idempotently."""
        async with self._lock:
            if self.logged_in:
                return
            configured = self.settings.access_token
            if configured is not None and configured.get_secret_value():
                await self._use_token(configured.get_secret_value())
            else:
                await self._password_login()
            self.logged_in = True

    async def _use_token(self, token: str) -> None:
        self._scrub = Scrubber([*self._scrub.secrets, token], mask="[redacted]")
        self.client.access_token = token
        self.client.user_id = self.settings.user_id
        whoami = await self.call("whoami", self.client.whoami())
        if whoami.user_id != self.settings.user_id:
            raise MatrixError(
                "whoami",
                f"the token belongs to {whoami.user_id}, not channels.matrix.user_id "
                f"{self.settings.user_id}",
                code="M_FORBIDDEN",
            )
        self.client.device_id = whoami.device_id or self.client.device_id

    async def _password_login(self) -> None:
        stored = await anyio.to_thread.run_sync(
            partial(read_json, self.session_path, channel="matrix")
        )
        if (
            stored
            and stored.get("user_id") == self.settings.user_id
            and stored.get("homeserver") == self.settings.homeserver
            and isinstance(stored.get("access_token"), str)
        ):
            try:
                await self._use_token(stored["access_token"])
                return
            except MatrixError as exc:
                if exc.code not in BAD_TOKEN:
                    raise
                log.info("matrix.stored_token_rejected", hint="logging in with the password")
        password = self.settings.password
        assert password is not None  # the settings require a token or a password
        self.client.user = self.settings.user_id
        response = await self.call(
            "login",
            self.client.login(password.get_secret_value(), device_name=self.settings.device_name),
        )
        self._scrub = Scrubber([*self._scrub.secrets, response.access_token], mask="[redacted]")
        session: dict[str, Any] = {
            "homeserver": self.settings.homeserver,
            "user_id": response.user_id,
            "device_id": response.device_id,
            "access_token": response.access_token,
        }
        await anyio.to_thread.run_sync(write_private, self.session_path, session)
        log.info("matrix.logged_in", device=response.device_id, stored=str(self.session_path))

    async def display_name(self) -> str | None:
        """The bot's own display name (None when it has none or the lookup fails)."""
        try:
            response = await self.call("profile", self.client.get_displayname(self.user_id))
        except MatrixError:
            return None
        name = response.displayname
        return name if isinstance(name, str) and name else None
