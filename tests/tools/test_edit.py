"""edit_file: one exact replacement, refused when the text is missing or ambiguous."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentd.messages import ToolCall
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.registry import ToolOutcome, ToolRegistry

pytestmark = pytest.mark.anyio


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    path = tmp_path / "workdir"
    path.mkdir()
    (path / "notes.txt").write_text("alpha\nbeta\nalpha\ngamma\n")
    return path


async def edit(workdir: Path, path: str, old: str, new: str) -> ToolOutcome:
    registry = ToolRegistry()
    register_builtin_tools(registry, workdir)
    args = json.dumps({"path": path, "old": old, "new": new})
    return await registry.call(ToolCall("c", "edit_file", args))


async def test_replaces_the_one_occurrence(workdir: Path) -> None:
    """Unique text is replaced and the rest of the file stays."""
    outcome = await edit(workdir, "notes.txt", "beta\n", "BETA\nmore\n")
    assert outcome == ToolOutcome("replaced 1 occurrence in notes.txt (at line 2)")
    assert (workdir / "notes.txt").read_text() == "alpha\nBETA\nmore\nalpha\ngamma\n"


@pytest.mark.parametrize(
    ("old", "says"),
    [
        pytest.param("alpha", "appears 2 times", id="ambiguous"),
        pytest.param("delta", "(0 matches)", id="absent"),
        pytest.param("Beta", "(0 matches)", id="case-matters"),
        pytest.param("", "old is empty", id="empty"),
    ],
)
async def test_refuses_missing_or_ambiguous_text(workdir: Path, old: str, says: str) -> None:
    """Nothing is written when the text is not there exactly once; the error says how often."""
    outcome = await edit(workdir, "notes.txt", old, "x")
    assert outcome.error and says in outcome.content
    assert (workdir / "notes.txt").read_text() == "alpha\nbeta\nalpha\ngamma\n"


async def test_refuses_what_the_file_tools_refuse(workdir: Path, tmp_path: Path) -> None:
    """Symlinks, hard links, paths out of the workdir and instruction files are not edited."""
    outside = tmp_path / "outside.txt"
    outside.write_text("alpha\n")
    (workdir / "link.txt").symlink_to(outside)
    os.link(outside, workdir / "hard.txt")
    (workdir / "AGENTS.md").write_text("rules\n")
    for path, says in (
        ("link.txt", "symlink"),
        ("hard.txt", "hard links"),
        ("../outside.txt", "'..'"),
        ("AGENTS.md", "read-only instruction file"),
        ("missing.txt", "no file"),
    ):
        outcome = await edit(workdir, path, "alpha" if path != "AGENTS.md" else "rules", "x")
        assert outcome.error and says in outcome.content, (path, outcome)
    assert outside.read_text() == "alpha\n"
    assert (workdir / "AGENTS.md").read_text() == "rules\n"
