"""A small Telegram Bot API client on httpx that never lets the bot token out.

Every call goes to ``{base_url}/bot{token}/{method}``. That URL is built per request and never
logged; httpx exceptions (whose text or request may carry it) are translated into
:class:`~agentd.errors.TelegramError` with ``from None``, so no traceback chains back to them.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
import httpx
import structlog

from agentd.backoff import Backoff
from agentd.errors import TelegramError

log = structlog.get_logger("channels.telegram")

T = TypeVar("T")


class BotAPI:
    """Bot API methods as ``await api.call("sendMessage", chat_id=..., text=...)``."""

    def __init__(self, http: httpx.AsyncClient, *, base_url: str, token: str) -> None:
        self._http = http
        self._base = base_url.rstrip("/")
        self._token = token

    def scrub(self, text: str) -> str:
        """``text`` with the token (and the token-bearing URL path) masked."""
        return text.replace(self._token, "[redacted]") if self._token else text

    async def call(self, method: str, *, http_timeout: float | None = None, **params: Any) -> Any:
        """Call ``method`` with JSON ``params``; return its ``result`` or raise TelegramError.

        ``None`` params are left out. ``http_timeout`` overrides the client's read timeout (long
        polling waits longer than an ordinary call).
        """
        url = f"{self._base}/bot{self._token}/{method}"
        body = {k: v for k, v in params.items() if v is not None}
        extra: dict[str, Any] = {}
        if http_timeout is not None:
            extra["timeout"] = httpx.Timeout(http_timeout, connect=min(http_timeout, 10.0))
        try:
            response = await self._http.post(url, json=body, **extra)
        except httpx.HTTPError as exc:
            reason = self.scrub(str(exc)) or type(exc).__name__
            raise TelegramError(method, f"{type(exc).__name__}: {reason}") from None
        return self._result(method, response)

    def _result(self, method: str, response: httpx.Response) -> Any:
        try:
            data = response.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            data = None
        if isinstance(data, dict) and data.get("ok") is True:
            return data.get("result")
        status = response.status_code if response.status_code >= 400 else 502
        description = f"not a Bot API answer (HTTP {response.status_code})"
        retry_after: float | None = None
        if isinstance(data, dict):
            status = int(data.get("error_code") or status)
            description = self.scrub(str(data.get("description") or description))
            parameters = data.get("parameters") or {}
            if isinstance(parameters, dict) and parameters.get("retry_after") is not None:
                retry_after = float(parameters["retry_after"])
        raise TelegramError(method, description, status=status, retry_after=retry_after)


async def with_retries(what: Callable[[], Awaitable[T]], *, backoff: Backoff, attempts: int) -> T:
    """Run ``what``, retrying retryable TelegramErrors up to ``attempts`` times in all.

    Between attempts it waits ``backoff``'s next delay, or Telegram's ``retry_after``.
    """
    for attempt in range(1, attempts + 1):
        try:
            return await what()
        except TelegramError as exc:
            if not exc.retryable or attempt == attempts:
                raise
            log.info("telegram.retry", error=str(exc), attempt=attempt)
            await anyio.sleep(backoff.next_delay(retry_after=exc.retry_after))
    raise AssertionError("unreachable")
