"""The agentic benchmark's pipeline on the real local model, so the suite cannot silently rot.

Three cases (a file written, a memory recalled in a new session, a question without tools)
through llama-server with the packaged model and a real ``agentd run``. It asserts that every
turn was answered and scored, never how many cases the model gets right. Skipped without the
local model unless AGENTD_REQUIRE_LOCAL_MODEL=1 (``make bench-smoke``; marker ``bench``, not
in ``make test``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentd.model.packages import DEFAULT_MODEL
from bench._agentic_cases import CASES
from bench.agentic import ModelSpec, Options, bench_model, summary
from tests.model.test_local_model import SEED, _local

pytestmark = [
    pytest.mark.integration,
    pytest.mark.bench,
    pytest.mark.timeout(600),
    pytest.mark.anyio,
]

PLAYED = ("write_note", "remember_code", "two_plus_two")


async def test_three_cases_are_played_and_scored(tmp_path: Path) -> None:
    """Each case runs all its turns through the daemon and comes back with a score."""
    binary, gguf = _local()
    cases = [c for c in CASES if c.name in PLAYED]
    results = await bench_model(
        ModelSpec(DEFAULT_MODEL, gguf, binary), cases, Options(seed=SEED), tmp_path
    )
    assert [r.case.name for r in results] == list(PLAYED)
    for result in results:
        assert all(not t.error for t in result.turns), result.problems()
        script = result.case.script(0)
        assert len(result.turns) == len(result.flags) == len(script.turns)
    rows = [row for r in results for row in r.rows()]
    assert {row["case"] for row in rows} == set(PLAYED)
    assert all(isinstance(row["effect"], bool) for row in rows)
    json.dumps(rows)
    assert DEFAULT_MODEL in summary({DEFAULT_MODEL: results})
