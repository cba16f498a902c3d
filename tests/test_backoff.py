"""The one backoff policy: exponential steps, equal jitter, Retry-After, stability reset."""

from __future__ import annotations

import email.utils

import pytest

from agentd.backoff import Backoff, parse_retry_after


def fixed(value: float) -> Backoff:
    return Backoff(1.0, 8.0, reset_after=60.0, rand=lambda: value)


def test_steps_double_up_to_the_cap() -> None:
    """With the top of the jitter range the delays are base, 2*base, ... and then the cap."""
    backoff = Backoff(1.0, 8.0, rand=lambda: 1.0)
    assert [backoff.next_delay() for _ in range(6)] == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]


@pytest.mark.parametrize(
    ("draw", "expected"),
    [
        pytest.param(0.0, [0.5, 1.0, 2.0], id="bottom"),
        pytest.param(0.5, [0.75, 1.5, 3.0], id="middle"),
    ],
)
def test_equal_jitter_keeps_half_of_each_step(draw: float, expected: list[float]) -> None:
    """Each delay lies in [step/2, step]: never near zero, never above the step."""
    backoff = fixed(draw)
    assert [backoff.next_delay() for _ in range(3)] == expected


def test_default_jitter_stays_in_range() -> None:
    """With the real random source every delay stays within [step/2, min(step, cap)]."""
    backoff = Backoff(0.5, 4.0)
    for step in (0.5, 1.0, 2.0, 4.0, 4.0):
        assert step / 2 <= backoff.next_delay() <= step


def test_reset_starts_over() -> None:
    """After reset() the next delay is the first step again."""
    backoff = fixed(1.0)
    backoff.next_delay()
    backoff.next_delay()
    backoff.reset()
    assert backoff.next_delay() == 1.0


def test_retry_after_overrides_and_keeps_the_step() -> None:
    """A server's Retry-After is the delay (negative means now) and does not advance the step."""
    backoff = fixed(1.0)
    assert backoff.next_delay(retry_after=30.0) == 30.0
    assert backoff.next_delay(retry_after=-3.0) == 0.0
    assert backoff.next_delay() == 1.0


def test_a_stable_run_resets_the_steps() -> None:
    """An attempt that ran at least reset_after seconds starts the steps over; a short one not."""
    backoff = fixed(1.0)
    assert [backoff.next_delay(ran_for=1.0) for _ in range(3)] == [1.0, 2.0, 4.0]
    assert backoff.next_delay(ran_for=59.9) == 8.0
    assert backoff.next_delay(ran_for=60.0) == 1.0


def test_no_reset_rule_by_default() -> None:
    """Without reset_after, however long an attempt ran, the steps keep growing."""
    backoff = Backoff(1.0, 8.0, rand=lambda: 1.0)
    backoff.next_delay()
    assert backoff.next_delay(ran_for=3600.0) == 2.0


def test_cap_below_base_is_base() -> None:
    """A cap smaller than the base cannot shrink the first step."""
    backoff = Backoff(2.0, 1.0, rand=lambda: 1.0)
    assert [backoff.next_delay() for _ in range(2)] == [2.0, 2.0]


def test_base_must_be_positive() -> None:
    """A zero base would never back off: it is refused."""
    with pytest.raises(ValueError, match="positive"):
        Backoff(0.0, 1.0)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("7", 7.0, id="seconds"),
        pytest.param("1.5", 1.5, id="fraction"),
        pytest.param("-4", 0.0, id="negative"),
        pytest.param(email.utils.formatdate(1030.0, usegmt=True), 30.0, id="http-date"),
        pytest.param(email.utils.formatdate(900.0, usegmt=True), 0.0, id="date-in-the-past"),
        pytest.param("Thu, 01 Jan 1970 00:17:10", None, id="date-without-zone"),
        pytest.param("soon", None, id="garbage"),
        pytest.param("nan", None, id="nan"),
        pytest.param(None, None, id="absent"),
    ],
)
def test_parse_retry_after(value: str | None, expected: float | None) -> None:
    """Retry-After as seconds or an HTTP date becomes seconds from now; junk becomes None."""
    assert parse_retry_after(value, now=lambda: 1000.0) == expected
