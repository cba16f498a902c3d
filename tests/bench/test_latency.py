"""bench/latency.py: llama-server's timings read from plain and streamed answers."""

from __future__ import annotations

import json

from bench.latency import Timed, TurnRow, report, timings_of

TIMINGS = {
    "prompt_n": 12,
    "cache_n": 700,
    "prompt_ms": 410.5,
    "predicted_n": 9,
    "predicted_ms": 900,
}


def test_timings_of_a_plain_answer() -> None:
    """A non-streamed answer carries its timings at the top level."""
    body = json.dumps({"choices": [], "timings": TIMINGS}).encode()
    assert timings_of(body) == TIMINGS
    assert Timed.of(TIMINGS) == Timed(12, 700, 9, 410.5, 900.0)


def test_timings_of_a_stream_come_from_its_last_chunk_that_has_them() -> None:
    """A stream's timings are in its last chunk before [DONE]; answers without are None."""
    chunks = [{"choices": [{"delta": {"content": "hi"}}]}, {"choices": [], "timings": TIMINGS}]
    body = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks)
    assert timings_of(body + b"data: [DONE]\n\n") == TIMINGS
    assert timings_of(b'{"choices": []}') is None
    assert Timed.of({"prompt_n": -1, "cache_n": "x"}) == Timed()


def test_the_report_puts_the_gap_beside_the_floor() -> None:
    """A turn's floor is the server's prompt and generation time; the gap is the rest."""
    row = TurnRow(1, "q", wall_s=3.0, requests=2, prompt_s=1.0, generate_s=1.5)
    out = report([row])
    assert row.floor_s == 2.5 and abs(row.gap_s - 0.5) < 1e-9
    assert "1.200" in out and "requests 2 per turn; 0 failed" in out
