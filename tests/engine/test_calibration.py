"""The budget's learned token estimate survives a restart, per model server."""

from __future__ import annotations

from pathlib import Path

from agentd.engine import calibration
from agentd.engine.budget import INITIAL_CHARS_PER_TOKEN, ContextBudget


def _budget() -> ContextBudget:
    return ContextBudget(context=4096, reserve=512)


def test_saved_estimate_is_restored_for_its_server_only(tmp_path: Path) -> None:
    path = tmp_path / calibration.FILE
    learned = _budget()
    learned.counter.calibrate(4000, 1000)
    learned.counter.calibrate(4000, 1000)
    calibration.save(learned, path, "a")
    other = _budget()
    other.counter.chars_per_token = 2.5
    calibration.save(other, path, "b")
    again, fresh = _budget(), _budget()
    calibration.restore(again, path, "a")
    calibration.restore(fresh, path, "c")
    assert again.counter.chars_per_token == learned.counter.chars_per_token
    assert fresh.counter.chars_per_token == INITIAL_CHARS_PER_TOKEN
    b = _budget()
    calibration.restore(b, path, "b")
    assert b.counter.chars_per_token == 2.5


def test_a_broken_or_absurd_file_is_the_first_guess(tmp_path: Path) -> None:
    path = tmp_path / calibration.FILE
    for text in ("{not json", '{"servers": {"a": {"chars_per_token": 99}}}', "[]"):
        path.write_text(text)
        budget = _budget()
        calibration.restore(budget, path, "a")
        assert budget.counter.chars_per_token == INITIAL_CHARS_PER_TOKEN
    calibration.save(_budget(), path, "a")  # a broken file is replaced, not an error
    assert '"a"' in path.read_text()
