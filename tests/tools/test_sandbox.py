"""exec without the daemon: refusing without bwrap, the unsandboxed setting, the result text."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from agentd import scope as scopes
from agentd.config import ExecSettings
from agentd.messages import ToolCall
from agentd.tools import policy
from agentd.tools.exec import READ_ONLY_NOTE, READ_ONLY_UNSANDBOXED, register_exec_tool
from agentd.tools.registry import ToolOutcome, ToolRegistry
from agentd.tools.sandbox import Outcome
from tests.support.bwrap import needs_bwrap

pytestmark = pytest.mark.anyio


async def run_exec(
    settings: ExecSettings, workdir: Path, command: str, files: Sequence[Path] = ()
) -> ToolOutcome:
    """``command`` through exec, ``files`` the instruction files kept read-only."""
    registry = ToolRegistry()
    register_exec_tool(registry, settings, lambda tenant: workdir, files)
    with scopes.use(scopes.Scope()):
        return await registry.call(ToolCall("c", "exec", json.dumps({"command": command})))


async def test_refuses_without_bwrap(tmp_path: Path) -> None:
    """Without bubblewrap, exec refuses and says how to install it."""
    outcome = await run_exec(ExecSettings(bwrap="no-such-bwrap"), tmp_path, "touch ran")
    assert outcome.error and "bubblewrap ('no-such-bwrap') is not installed" in outcome.content
    assert "apt-get install bubblewrap" in outcome.content
    assert not (tmp_path / "ran").exists()


async def test_runs_unsandboxed_only_when_set(tmp_path: Path) -> None:
    """tools.exec.unsandboxed runs the command in the workdir with the scrubbed environment."""
    settings = ExecSettings(bwrap="no-such-bwrap", unsandboxed=True)
    outcome = await run_exec(settings, tmp_path, "pwd; echo $HOME; touch ran")
    assert not outcome.error
    assert outcome.content.startswith("exit status: 0")
    assert str(tmp_path) in outcome.content and (tmp_path / "ran").exists()


@needs_bwrap
async def test_refuses_while_an_instruction_file_is_a_symlink(tmp_path: Path) -> None:
    """A symlinked AGENTS.md is never bound into the sandbox (it could point anywhere)."""
    workdir = tmp_path / "workdir"
    workdir.mkdir()
    (workdir / "AGENTS.md").symlink_to("/etc/shadow")
    registry = ToolRegistry()
    register_exec_tool(registry, ExecSettings(), lambda tenant: workdir, [Path("AGENTS.md")])
    with scopes.use(scopes.Scope()):
        outcome = await registry.call(ToolCall("c", "exec", json.dumps({"command": "id"})))
    assert outcome.error and "'AGENTS.md' in the workdir is a symlink" in outcome.content


async def test_needs_a_scope(tmp_path: Path) -> None:
    """No tenant scope, no command (the workdir is the scope's tenant's)."""
    registry = ToolRegistry()
    register_exec_tool(registry, ExecSettings(), lambda tenant: tmp_path)
    outcome = await registry.call(ToolCall("c", "exec", json.dumps({"command": "id"})))
    assert outcome.error and "scope" in outcome.content


@pytest.mark.parametrize(
    ("outcome", "says"),
    [
        pytest.param(Outcome(0, b"", b"", 0, 0), "exit status: 0\n(no output)", id="quiet"),
        pytest.param(Outcome(-9, b"", b"", 0, 0), "killed by SIGKILL", id="signal"),
        pytest.param(Outcome(137, b"", b"", 0, 0), "(killed by SIGKILL)", id="shell-signal"),
        pytest.param(
            Outcome(None, b"", b"", 0, 0, timed_out=True, timeout=2), "timeout of 2s", id="timeout"
        ),
        pytest.param(
            Outcome(0, b"a" * 500, b"e" * 500, 10_000, 500),
            "[... 9,500 more bytes; stdout was cut]",
            id="cut",
        ),
    ],
)
def test_the_result_text(outcome: Outcome, says: str) -> None:
    """The model reads how the command ended and where output was cut."""
    text = outcome.render(800)
    assert says in text
    if outcome.stderr_size:
        assert "--- stderr ---\n" + "e" * 200 in text


@needs_bwrap
async def test_without_proc_the_sandbox_has_none(tmp_path: Path) -> None:
    """tools.exec.proc off (the systemd unit's choice): no /proc at all, never the host's."""
    outcome = await run_exec(ExecSettings(proc=False), tmp_path, "ls /proc; echo ran")
    assert "cannot access '/proc'" in outcome.content and "ran" in outcome.content


@needs_bwrap
async def test_a_command_leaves_no_empty_instruction_files(tmp_path: Path) -> None:
    """A missing AGENTS.md is held empty and read-only during a command; afterwards the
    workdir holds only what the command made (bwrap's empty mount point is gone), and an
    AGENTS.md that exists is kept as it is."""
    workdir = tmp_path / "workdir"
    workdir.mkdir()
    (workdir / "HEARTBEAT.md").write_text("check the backups\n")
    registry = ToolRegistry()
    files = [Path("AGENTS.md"), Path("HEARTBEAT.md")]
    register_exec_tool(registry, ExecSettings(), lambda tenant: workdir, files)
    command = "echo evil > AGENTS.md; echo made > out.txt"
    with scopes.use(scopes.Scope()):
        outcome = await registry.call(ToolCall("c", "exec", json.dumps({"command": command})))
    assert "cannot create AGENTS.md" in outcome.content
    assert sorted(p.name for p in workdir.iterdir()) == ["HEARTBEAT.md", "out.txt"]
    assert (workdir / "HEARTBEAT.md").read_text() == "check the backups\n"


@needs_bwrap
async def test_a_read_only_turn_s_command_reads_and_changes_nothing(tmp_path: Path) -> None:
    """Under the read-only grant (a turn that asks for no change) a command reads the
    workdir, cannot write, delete or reach the network, and its result says so; the same
    command otherwise writes."""
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    command = "wc -l a.txt; rm a.txt; echo x > b.txt; echo x > AGENTS.md; echo done"
    with policy.use(policy.Grant(exec_network=True)), policy.read_only() as grant:
        assert grant.exec_read_only and not grant.exec_network
        outcome = await run_exec(ExecSettings(), tmp_path, command, [Path("AGENTS.md")])
    assert outcome.content.startswith(READ_ONLY_NOTE) and "2 a.txt" in outcome.content
    assert "Read-only file system" in outcome.content and "done" in outcome.content
    assert sorted(os.listdir(tmp_path)) == ["a.txt"]
    outcome = await run_exec(ExecSettings(), tmp_path, command, [Path("AGENTS.md")])
    assert not outcome.content.startswith(READ_ONLY_NOTE)
    assert sorted(os.listdir(tmp_path)) == ["b.txt"]  # AGENTS.md stays read-only (none made)


async def test_a_read_only_turn_runs_no_unsandboxed_command(tmp_path: Path) -> None:
    """Without the sandbox a command cannot be held read-only: it does not run."""
    settings = ExecSettings(bwrap="no-such-bwrap", unsandboxed=True)
    with policy.read_only():
        outcome = await run_exec(settings, tmp_path, "touch ran")
    assert outcome.error and outcome.content.endswith(READ_ONLY_UNSANDBOXED)
    assert not (tmp_path / "ran").exists()
