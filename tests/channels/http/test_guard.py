"""Bearer tokens and token-bucket rate limits, without a server."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pydantic import SecretStr

from agentd.config import HttpChannelSettings
from channels.http.guard import Authenticator, RateLimiter
from channels.http.principals import Principal, principals
from channels.http.wire import ApiError


def tokens(*values: str) -> list[Principal]:
    """The principals of ``channels.http.tokens`` set to ``values`` (admins of "default")."""
    return principals(HttpChannelSettings(tokens=[SecretStr(v) for v in values]), "default")


def name(principal: Principal | None) -> str | None:
    return None if principal is None else principal.name


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_no_tokens_means_open() -> None:
    """Without tokens every request is let through, with no identity."""
    assert Authenticator([]).identify(None) is None
    assert Authenticator(tokens("")).identify("Bearer ") is None


@pytest.mark.parametrize(
    ("header", "who"),
    [
        pytest.param("Bearer one", "token:0", id="first"),
        pytest.param("bearer two", "token:1", id="scheme-case"),
        pytest.param("Bearer  two ", "token:1", id="spaces"),
        pytest.param(None, None, id="missing"),
        pytest.param("Bearer", None, id="empty"),
        pytest.param("Basic one", None, id="basic"),
        pytest.param("Bearer one1", None, id="longer"),
        pytest.param("Bearer on", None, id="prefix"),
    ],
)
def test_tokens_identify_or_refuse(header: str | None, who: str | None) -> None:
    """A configured token maps to its index; anything else is a 401."""
    auth = Authenticator(tokens("one", "two"))
    if who is None:
        with pytest.raises(ApiError) as caught:
            auth.identify(header)
        assert caught.value.status == 401
    else:
        assert name(auth.identify(header)) == who


def test_bucket_allows_burst_then_refills() -> None:
    """burst requests pass at once; then one per 60/rate seconds, with Retry-After."""
    clock = Clock()
    limiter = RateLimiter(per_minute=30, burst=3, clock=clock)
    for _ in range(3):
        limiter.check("a")
    with pytest.raises(ApiError) as caught:
        limiter.check("a")
    assert caught.value.status == 429
    assert caught.value.headers["Retry-After"] == "2"
    limiter.check("b")
    clock.now = 2.0
    limiter.check("a")
    with pytest.raises(ApiError):
        limiter.check("a")
    clock.now = 1000.0
    for _ in range(3):
        limiter.check("a")
    with pytest.raises(ApiError):
        limiter.check("a")


def test_zero_rate_is_unlimited_and_buckets_are_bounded() -> None:
    """Rate 0 never limits; the number of buckets kept is bounded (oldest dropped)."""
    unlimited = RateLimiter(per_minute=0, burst=1)
    for _ in range(100):
        unlimited.check("a")
    clock = Clock()
    limiter = RateLimiter(per_minute=1, burst=1, clock=clock, max_keys=2)
    limiter.check("a")
    limiter.check("b")
    limiter.check("c")  # evicts "a", which starts over with a full bucket
    limiter.check("a")
    assert len(limiter._buckets) == 2


def _status(call: Callable[[], object]) -> int:
    try:
        call()
    except ApiError as exc:
        return exc.status
    return 200


def test_failed_authentications_are_limited_per_address() -> None:
    """Failures spend the address's bucket; once spent a wrong token is 429, a right one served."""
    clock = Clock()
    auth = Authenticator(tokens("one"), RateLimiter(per_minute=6, burst=2, clock=clock))
    assert _status(lambda: auth.identify("Bearer one", "10.0.0.1")) == 200
    statuses = [_status(lambda: auth.identify("Bearer x", "10.0.0.1")) for _ in range(4)]
    assert statuses == [401, 401, 429, 429]
    with pytest.raises(ApiError) as caught:
        auth.identify("Bearer x", "10.0.0.1")
    assert (caught.value.status, caught.value.headers["Retry-After"]) == (429, "10")
    assert "failed authentications" in caught.value.message
    assert name(auth.identify("Bearer one", "10.0.0.1")) == "token:0"
    assert name(auth.identify("Bearer one", "10.0.0.2")) == "token:0"
    clock.now = 10.0
    assert name(auth.identify("Bearer one", "10.0.0.1")) == "token:0"
    assert _status(lambda: auth.identify("Bearer x", "10.0.0.1")) == 401
    assert _status(lambda: auth.identify("Bearer x", "10.0.0.1")) == 429


def test_successes_spend_nothing() -> None:
    """Any number of right tokens leaves the failure budget of the address whole."""
    auth = Authenticator(tokens("one"), RateLimiter(per_minute=1, burst=1, clock=Clock()))
    for _ in range(50):
        assert name(auth.identify("Bearer one", "::1")) == "token:0"
    assert _status(lambda: auth.identify(None, "::1")) == 401
    assert _status(lambda: auth.identify(None, "::1")) == 429
