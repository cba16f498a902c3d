"""What stands between the network and the agent: bearer tokens, rate limits, body limits.

A token's SHA-256 is compared in constant time against every principal's (no early exit that
would tell which one nearly matched). The rate limit is a token bucket per principal, and failed
authentications spend a token bucket per source; each set of buckets is bounded.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import math
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any

import anyio
from starlette.requests import ClientDisconnect, Request

from agentd.config import HttpChannelSettings, is_loopback
from agentd.errors import ConfigError
from channels.http.principals import Principal
from channels.http.wire import ApiError

MAX_BUCKETS = 10_000
DRAIN_BYTES = 1 << 20
DRAIN_SECONDS = 1.0


def check_exposure(settings: HttpChannelSettings) -> None:
    """Refuse a non-loopback address without tokens: the API runs tools on this machine."""
    if not settings.authenticated and not is_loopback(settings.host):
        raise ConfigError(
            "channels.http.tokens",
            f"channels.http.host = {settings.host!r}",
            "a non-loopback address needs at least one bearer token; set channels.http.tokens "
            "(or channels.http.principals) or bind channels.http.host to 127.0.0.1",
        )


class Authenticator:
    """Maps an ``Authorization`` header to the principal whose token it carries.

    The presented token's SHA-256 is compared first, in constant time, with every principal's
    digest (no early exit that would tell which one nearly matched, and no token kept in
    memory): a right token is always served, whatever others sent from the same source. Only
    failures are limited, per source (:mod:`channels.http.sources`) by ``failures``: a source
    that has used up its failures gets 429 instead of 401 until its budget refills.
    """

    def __init__(
        self, principals: Sequence[Principal], failures: RateLimiter | None = None
    ) -> None:
        self._principals = [p for p in principals if p.digest]
        self._failures = failures

    @property
    def required(self) -> bool:
        return bool(self._principals)

    def identify(self, header: str | None, client: str = "") -> Principal | None:
        """The principal whose token the header carries; None when no token is required.

        Raises ApiError(401) when a token is required and the header does not carry a right
        one, and ApiError(429) instead when ``client`` (its source key) has failed too often
        lately.
        """
        if not self._principals:
            return None
        scheme, _, value = (header or "").partition(" ")
        presented = value.strip().encode() if scheme.lower() == "bearer" else b""
        digest = hashlib.sha256(presented).digest()
        found: Principal | None = None
        for principal in self._principals:
            # Every digest is compared, so the time taken does not depend on which one matched.
            if hmac.compare_digest(digest, principal.digest) and presented:
                found = principal
        if found is None:
            if self._failures is not None:
                self._failures.refuse_if_spent(client, "too many failed authentications")
                self._failures.spend(client)
            raise ApiError(
                401,
                "missing or invalid bearer token: send 'Authorization: Bearer <token>'",
                type="authentication_error",
                code="invalid_api_key",
                headers={"WWW-Authenticate": 'Bearer realm="agentd"'},
            )
        return found


@dataclass(slots=True)
class _Bucket:
    level: float
    updated: float


class RateLimiter:
    """Token buckets by key: ``burst`` requests at once, refilled at ``per_minute``."""

    def __init__(
        self,
        per_minute: float,
        burst: int,
        *,
        clock: Callable[[], float] = anyio.current_time,
        max_keys: int = MAX_BUCKETS,
    ) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self._clock = clock
        self._max_keys = max_keys
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def check(self, key: str) -> None:
        """Take one request from ``key``'s bucket or raise ApiError(429) with Retry-After."""
        if self.rate <= 0:
            return
        self.refuse_if_spent(key)
        self.spend(key)

    def refuse_if_spent(self, key: str, reason: str = "rate limit reached") -> None:
        """Raise ApiError(429) with Retry-After when ``key`` has less than one request left."""
        if self.rate <= 0:
            return
        bucket = self._refilled(key)
        if bucket.level >= 1.0:
            return
        wait = math.ceil((1.0 - bucket.level) / self.rate)
        raise ApiError(
            429,
            f"{reason}; retry in {wait} s",
            type="rate_limit_error",
            code="rate_limit_exceeded",
            headers={"Retry-After": str(wait)},
        )

    def spend(self, key: str) -> None:
        """Take one request from ``key``'s bucket (never below empty)."""
        if self.rate <= 0:
            return
        bucket = self._refilled(key)
        bucket.level = max(0.0, bucket.level - 1.0)

    def _refilled(self, key: str) -> _Bucket:
        now = self._clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(self.burst, now)
            if len(self._buckets) > self._max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
            bucket.level = min(self.burst, bucket.level + (now - bucket.updated) * self.rate)
            bucket.updated = now
        return bucket


async def read_body(request: Request, *, limit: int, within: float) -> bytes:
    """The request body, refusing more than ``limit`` bytes (413) or a slow sender (408)."""
    declared = request.headers.get("content-length")
    if declared is not None and not declared.isdigit():
        raise ApiError(400, "Content-Length is not a number", code="invalid_header")
    chunks: list[bytes] = []
    received = 0
    async with aclosing(request.stream()) as stream:
        if declared is not None and int(declared) > limit:
            await _drain(stream)
            raise _too_large(limit)
        try:
            with anyio.fail_after(within):
                async for chunk in stream:
                    received += len(chunk)
                    if received > limit:
                        break
                    chunks.append(chunk)
        except TimeoutError:
            raise ApiError(
                408, f"request body not received within {within:g} s", code="timeout"
            ) from None
        if received > limit:
            await _drain(stream)
            raise _too_large(limit)
    return b"".join(chunks)


async def read_json_object(request: Request, *, limit: int, within: float) -> dict[str, Any]:
    """The request body as a JSON object (an empty body is ``{}``); 400 for anything else."""
    body = await read_body(request, limit=limit, within=within)
    try:
        value = json.loads(body or b"{}")
    except ValueError:
        raise ApiError(400, "the body is not JSON", code="invalid_json") from None
    if not isinstance(value, dict):
        raise ApiError(400, "the body is not a JSON object", code="invalid_json")
    return value


async def _drain(stream: AsyncIterator[bytes]) -> None:
    # Closing with unread input makes the kernel reset the connection, and the client loses
    # the 413 it was sent; reading a little more (bounded) lets ordinary clients see it.
    drained = 0
    with anyio.move_on_after(DRAIN_SECONDS), contextlib.suppress(ClientDisconnect):
        async for chunk in stream:
            drained += len(chunk)
            if drained > DRAIN_BYTES:
                return


def _too_large(limit: int) -> ApiError:
    return ApiError(
        413,
        f"request body is larger than {limit} bytes",
        code="request_too_large",
        headers={"Connection": "close"},
    )
