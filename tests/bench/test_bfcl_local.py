"""The BFCL benchmark end to end on the real local model, a handful of items, so it cannot rot.

llama-server with the default packaged model answers two items of two categories in every mode
(directly, through a real daemon's HTTP API, as agentd's first step); the test asserts that
every answer came back and was scored, never an accuracy. Skipped without the local model or
the bfcl-eval wheel, unless AGENTD_REQUIRE_LOCAL_MODEL=1 (``make bench-smoke``, which fetches
both; marker ``bench``, not in ``make test``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentd.config import LLMSettings, Settings, SidecarSettings
from bench.bfcl.data import DEFAULT_WHEEL, load_items
from bench.bfcl.report import append_jsonl, model_table
from bench.bfcl.runner import (
    EXAMPLE_WORKDIR,
    MAX_TOKENS,
    MODES,
    Result,
    bench_model,
    reported_modes,
)
from tests.model.test_local_model import REQUIRED, SEED, _local

pytestmark = [
    pytest.mark.integration,
    pytest.mark.bench,
    pytest.mark.timeout(900),
    pytest.mark.anyio,
]

#: An AST category and the irrelevance rule, both with short prompts: 2 min 40 s on 2 cores under
#: load 2.5 (with parallel_multiple as a third category: 5 min 20 s).
CATEGORIES = ["simple_python", "irrelevance"]
PER_CATEGORY = 2


def _wheel() -> Path:
    if not DEFAULT_WHEEL.is_file():
        if REQUIRED:
            pytest.fail(f"the BFCL data is required: no {DEFAULT_WHEEL} (`make bench-data`)")
        pytest.skip(f"no BFCL data: {DEFAULT_WHEEL} is missing (`make bench-data` fetches it)")
    return DEFAULT_WHEEL


async def test_both_modes_answer_and_are_scored(tmp_path: Path) -> None:
    """Every item gets a scored answer in both modes, with no failed request."""
    wheel = _wheel()
    binary, gguf = _local()
    sidecar = SidecarSettings(
        enabled=True, binary=binary, model_path=gguf, max_answer_tokens=MAX_TOKENS
    )
    settings = Settings(
        state_dir=tmp_path / "state",
        workdir=EXAMPLE_WORKDIR,
        llm=LLMSettings(temperature=0.0, seed=SEED, sidecar=sidecar),
    )
    items = load_items(wheel, CATEGORIES, PER_CATEGORY, SEED)
    assert len(items) == len(CATEGORIES) * PER_CATEGORY
    seen: list[Result] = []

    def record(result: Result) -> None:
        seen.append(result)
        append_jsonl(tmp_path / "results.jsonl", result)

    load, results = await bench_model(settings, items, MODES, label="local", on_result=record)
    assert load > 0
    assert results == seen
    assert [(r.id, r.mode) for r in results] == [
        (i.id, m) for i in items for m in reported_modes(MODES)
    ]
    failures = [(r.id, r.mode, r.failure) for r in results if r.failure]
    assert failures == []
    for result in results:
        assert result.seconds > 0
        assert result.correct or result.error_type, result
        assert len(result.problems) == len(result.calls)
        assert result.calls or result.content, f"{result.id} {result.mode}: an empty answer"
    rows = (tmp_path / "results.jsonl").read_text().splitlines()
    assert [json.loads(row)["id"] for row in rows] == [r.id for r in results]
    table = model_table(results, "local", CATEGORIES, reported_modes(MODES))
    assert len(table.splitlines()) == 2 + len(CATEGORIES) + 1
