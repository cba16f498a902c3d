"""Bearer tokens and token-bucket rate limits, without a server."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from channels.http.guard import Authenticator, RateLimiter
from channels.http.wire import ApiError


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_no_tokens_means_open() -> None:
    """Without tokens every request is let through, with no identity."""
    assert Authenticator([]).identify(None) is None
    assert Authenticator([SecretStr("")]).identify("Bearer ") is None


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
    auth = Authenticator([SecretStr("one"), SecretStr("two")])
    if who is None:
        with pytest.raises(ApiError) as caught:
            auth.identify(header)
        assert caught.value.status == 401
    else:
        assert auth.identify(header) == who


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
