"""The workdir quota: the file tools refuse past it, exec's commands are bounded and stopped."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentd import scope as scopes
from agentd.config import ExecSettings
from agentd.messages import ToolCall
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.exec import register_exec_tool
from agentd.tools.quota import MIB, WorkdirQuota, used
from agentd.tools.registry import ToolOutcome, ToolRegistry
from tests.support.bwrap import needs_bwrap

pytestmark = pytest.mark.anyio

QUOTA = WorkdirQuota(1 * MIB)


async def call(registry: ToolRegistry, tool: str, **arguments: object) -> ToolOutcome:
    with scopes.use(scopes.Scope()):
        return await registry.call(ToolCall("c", tool, json.dumps(arguments)))


def files_tools(workdir: Path) -> ToolRegistry:
    registry = ToolRegistry()
    register_builtin_tools(registry, workdir, quota=QUOTA)
    return registry


def test_used_counts_regular_files_and_follows_nothing(tmp_path: Path) -> None:
    """The measure adds up regular files, in folders too; a symlinked folder is not entered."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "a").write_bytes(b"x" * 1000)
    (tmp_path / "sub" / "b").write_bytes(b"x" * 24)
    (tmp_path / "up").symlink_to(tmp_path.parent)
    assert used(tmp_path) == 1024


async def test_file_tools_refuse_past_the_quota(tmp_path: Path) -> None:
    """write_file and append_file refuse a write that would pass the quota, saying how full."""
    tools = files_tools(tmp_path)
    for n in range(3):
        done = await call(tools, "write_file", path=f"f{n}", content="x" * 300_000)
        assert not done.error, done.content
    refused = await call(tools, "write_file", path="f3", content="x" * 300_000)
    assert refused.error and "the workdir is full" in refused.content
    assert "tools.workdir_quota_mb" in refused.content and not (tmp_path / "f3").exists()
    appended = await call(tools, "append_file", path="f0", text="y" * 300_000)
    assert appended.error and "the workdir is full" in appended.content
    # Replacing a file by a smaller one frees room: counted as the difference.
    assert not (await call(tools, "write_file", path="f0", content="small")).error
    assert not (await call(tools, "write_file", path="f3", content="x" * 200_000)).error


async def test_edit_file_refuses_past_the_quota(tmp_path: Path) -> None:
    """edit_file's result counts against the quota too."""
    tools = files_tools(tmp_path)
    (tmp_path / "big").write_bytes(b"x" * 1_000_000)
    (tmp_path / "note").write_text("short")
    refused = await call(tools, "edit_file", path="note", old="short", new="y" * 100_000)
    assert refused.error and "the workdir is full" in refused.content
    assert (tmp_path / "note").read_text() == "short"


def exec_tools(workdir: Path) -> ToolRegistry:
    registry = ToolRegistry()
    register_exec_tool(registry, ExecSettings(user="nobody"), lambda tenant: workdir, quota=QUOTA)
    return registry


@needs_bwrap
async def test_exec_files_are_bounded_by_what_is_left(tmp_path: Path) -> None:
    """No file a command writes is larger than what is left of the quota."""
    (tmp_path / "old").write_bytes(b"x" * (MIB - 1000))
    tools = exec_tools(tmp_path)
    outcome = await call(tools, "exec", command="head -c 100000 /dev/zero > f; echo $?")
    assert os.stat(tmp_path / "f").st_size <= 1000
    assert "the workdir is full" in outcome.content


@needs_bwrap
async def test_exec_is_stopped_when_the_workdir_goes_past_its_quota(tmp_path: Path) -> None:
    """A command that keeps adding files is killed once the workdir is past its quota."""
    command = "i=0; while true; do i=$((i+1)); head -c 200000 /dev/zero > f$i; sleep 0.05; done"
    outcome = await call(exec_tools(tmp_path), "exec", command=command, timeout=30)
    assert "killed: the workdir went past its quota" in outcome.content
    assert used(tmp_path) < 4 * MIB


@needs_bwrap
async def test_a_full_workdir_refuses_writes_but_not_removal(tmp_path: Path) -> None:
    """When full, a command cannot grow a file, can remove one, and is told the workdir is full."""
    (tmp_path / "big").write_bytes(b"x" * (MIB + 1))
    os.chmod(tmp_path, 0o700)
    tools = exec_tools(tmp_path)
    grown = await call(tools, "exec", command="echo more > note")
    assert "the workdir is full" in grown.content and "SIGXFSZ" in grown.content
    assert os.stat(tmp_path / "note").st_size == 0
    # A command that only reads runs on in a full workdir (it is not stopped).
    read = await call(tools, "exec", command="sleep 1; wc -c big")
    assert "1048577 big" in read.content and "killed" not in read.content
    removed = await call(tools, "exec", command="rm big; echo gone")
    assert "gone" in removed.content and not (tmp_path / "big").exists()
    assert "the workdir is full" not in removed.content
