"""Overwrites that drop most of a file are asked about once; the same call again goes through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentd.messages import ToolCall
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.overwrite import Overwrites, dropped_lines
from agentd.tools.registry import ToolOutcome, ToolRegistry

pytestmark = pytest.mark.anyio

TODO = "- call the bank\n- water the plants\n"


async def _run(registry: ToolRegistry, name: str, **args: object) -> ToolOutcome:
    return await registry.call(ToolCall("c", name, json.dumps(args)))


@pytest.fixture
def tools(tmp_path: Path) -> ToolRegistry:
    registry = ToolRegistry()
    register_builtin_tools(registry, tmp_path)
    return registry


def test_dropped_lines_counts_what_a_write_keeps() -> None:
    """Keeping fewer than half of two or more lines drops them; an edit of one line of three,
    an append written whole, or a one-line file drop nothing worth asking."""
    assert dropped_lines(TODO, "- book the train\n") == ["- call the bank", "- water the plants"]
    assert dropped_lines("a=1\nb=2\nc=3\n", "a=1\nb=5\nc=3\n") is None
    assert dropped_lines(TODO, TODO + "- book the train\n") is None
    assert dropped_lines("only line\n", "another\n") is None


def test_the_same_write_again_is_confirmed() -> None:
    """The first such write is asked about; the same one again (tenant, path, text) passes,
    another text or tenant is asked about on its own."""
    asked = Overwrites()
    first = asked.question("t1", "todo.txt", TODO, "- x\n")
    assert first is not None and "append_file" in first and "'- call the bank'" in first
    assert asked.question("t2", "todo.txt", TODO, "- x\n") is not None
    assert asked.question("t1", "todo.txt", TODO, "- y\n") is not None
    assert asked.question("t1", "todo.txt", TODO, "- x\n") is None


async def test_write_file_asks_before_dropping_a_files_lines(
    tools: ToolRegistry, tmp_path: Path
) -> None:
    """write_file with only a new line over a two-line file writes nothing and says how to
    add; the same call again replaces the file."""
    (tmp_path / "todo.txt").write_text(TODO)
    first = await _run(tools, "write_file", path="todo.txt", content="- book the train\n")
    assert first.error and "append_file" in first.content
    assert (tmp_path / "todo.txt").read_text() == TODO
    again = await _run(tools, "write_file", path="todo.txt", content="- book the train\n")
    assert not again.error and (tmp_path / "todo.txt").read_text() == "- book the train\n"


async def test_new_files_and_kept_lines_are_written_at_once(
    tools: ToolRegistry, tmp_path: Path
) -> None:
    """A new file, or a write that keeps the old lines, is written on the first call."""
    assert not (await _run(tools, "write_file", path="new.txt", content="a\nb\n")).error
    (tmp_path / "todo.txt").write_text(TODO)
    kept = await _run(tools, "write_file", path="todo.txt", content=TODO + "- book\n")
    assert not kept.error and (tmp_path / "todo.txt").read_text() == TODO + "- book\n"
