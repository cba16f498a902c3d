"""Usage: token counts and prompt-cache counters from OpenAI usage and llama-server timings."""

from __future__ import annotations

from typing import Any

import pytest

from agentd.model.usage import Usage


@pytest.mark.parametrize(
    ("usage", "timings", "expected"),
    [
        pytest.param({"prompt_tokens": 10, "completion_tokens": 2}, None, Usage(10, 2), id="plain"),
        pytest.param(
            {"prompt_tokens": 10, "prompt_tokens_details": {"cached_tokens": 8}},
            None,
            Usage(10, 0, cached_tokens=8),
            id="openai-details",
        ),
        pytest.param(
            {"prompt_tokens": 10},
            {"cache_n": 7, "prompt_n": 3, "prompt_ms": 12.5},
            Usage(10, 0, cached_tokens=7, evaluated_tokens=3),
            id="llama-timings",
        ),
        pytest.param(
            {"prompt_tokens": 10, "prompt_tokens_details": {"cached_tokens": 6}},
            {"cache_n": 7, "prompt_n": 4},
            Usage(10, 0, cached_tokens=6, evaluated_tokens=4),
            id="details-first",
        ),
        pytest.param(
            None, {"cache_n": 5, "prompt_n": 1}, Usage(6, 0, 5, 1), id="timings-without-usage"
        ),
        pytest.param(
            None,
            {"cache_n": 5, "prompt_n": 1, "predicted_n": 9},
            Usage(6, 9, 5, 1),
            id="a-stream-cut-short",
        ),
        pytest.param(
            {"prompt_tokens": 4.0, "prompt_tokens_details": None},
            {"cache_n": -1, "prompt_n": -1},
            Usage(4),
            id="llama-none-markers",
        ),
    ],
)
def test_from_openai_reads_both_cache_reports(usage: Any, timings: Any, expected: Usage) -> None:
    """cached_tokens come from usage details or timings.cache_n; evaluated from prompt_n;
    without usage (a stream cut short), the counts from the timings."""
    assert Usage.from_openai(usage, timings) == expected


@pytest.mark.parametrize(
    "value",
    [None, True, "12", -3, 1.5, [1], {"n": 1}],
)
def test_odd_counts_are_not_reported(value: Any) -> None:
    """Counts that are not non-negative whole numbers are treated as not reported."""
    usage = {"prompt_tokens": value, "prompt_tokens_details": {"cached_tokens": value}}
    assert Usage.from_openai(usage, {"cache_n": value, "prompt_n": value}) == Usage()
    assert Usage.from_openai("usage", ["timings"]) == Usage()


def test_add_sums_every_counter() -> None:
    """add() sums counts; an evaluated count known on either side survives the sum."""
    total = Usage()
    total.add(Usage(10, 2, cached_tokens=6))
    assert total == Usage(10, 2, 6, None)
    total.add(Usage(12, 3, cached_tokens=10, evaluated_tokens=2))
    total.add(Usage(5, 1, cached_tokens=0, evaluated_tokens=5))
    assert total == Usage(27, 6, cached_tokens=16, evaluated_tokens=7)
    assert total.total_tokens == 33
