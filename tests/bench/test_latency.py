"""bench/latency.py: llama-server's timings read from plain and streamed answers."""

from __future__ import annotations

import json

from bench.latency import Timed, TurnRow, report, server_timings, timings_of

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


SERVER_LOG = """\
0.40.745.133 I slot print_timing: id  0 | task 5 | prompt processing, n_tokens =    512, \
progress = 0.67, t =   8.00 s / 64.02 tokens per second
0.44.925.001 I slot print_timing: id  0 | task 5 | prompt eval time =   12100.50 ms /   764 \
tokens (   15.84 ms per token,    63.14 tokens per second)
0.44.925.002 I slot print_timing: id  0 | task 5 |        eval time =      95.00 ms /     2 \
tokens (   47.50 ms per token,    21.05 tokens per second)
0.44.926.133 I slot      release: id  0 | task 5 | stop processing: n_tokens = 768, truncated = 0
0.48.468.000 I slot print_timing: id  1 | task 9 | prompt eval time =     300.00 ms /    11 \
tokens (   27.27 ms per token,    36.67 tokens per second)
0.48.468.001 I slot print_timing: id  1 | task 9 |        eval time =     200.00 ms /     4 \
tokens (   50.00 ms per token,    20.00 tokens per second)
"""


def test_server_timings_reads_each_finished_request_from_the_log() -> None:
    """Each request's evaluated and generated tokens and times come from its print_timing
    lines, its cached tokens from what its slot held at the end; one not finished yet is
    left out."""
    assert server_timings(SERVER_LOG) == [Timed(764, 2, 2, 12100.5, 95.0)]
    finished = "0.48.5 I slot      release: id  1 | task 9 | stop processing: n_tokens = 134\n"
    assert server_timings(SERVER_LOG + finished)[1] == Timed(11, 119, 4, 300.0, 200.0)


def test_a_request_cancelled_before_its_timings_counts_its_time_on_the_server() -> None:
    """agentd stopped reading a stream (a repeated call cut): no print_timing lines, so its
    launch-to-release time is the model's, not agentd's gap."""
    cut = """\
1.49.955.316 I slot launch_slot_: id  0 | task 255 | processing task, is_child = 0
1.55.744.913 W srv          stop: cancel task, id_task = 255
1.55.745.008 I slot      release: id  0 | task 255 | stop processing: n_tokens = 1974, truncated = 0
"""
    [timed] = server_timings(cut)
    assert timed.evaluated == timed.generated == 0 and abs(timed.cut_ms - 5789.692) < 1e-6
    row = TurnRow(1, "q", wall_s=6.0, requests=1, cut_s=timed.cut_ms / 1000)
    assert abs(row.floor_s - 5.789692) < 1e-9 and "cut s" in report([row])
