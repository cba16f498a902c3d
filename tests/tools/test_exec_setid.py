"""exec cannot leave a set-id binary or an open workdir behind, with the daemon as root or not.

The attack: a command copies a shell and makes it set-user-id (or opens the workdir to all);
another local user then runs it (or plants files the agent reads). As root, commands run as
an unprivileged user; as any user, the seccomp filter refuses the bits and the workdir is
settled after each command. The unprivileged daemon is played by a bwrap that drops to
``nobody`` first (the tests run as root, as CI does) over a workdir ``nobody`` owns.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from agentd import scope as scopes
from agentd.config import ExecSettings
from agentd.messages import ToolCall
from agentd.tools import exec_user
from agentd.tools.exec import register_exec_tool
from agentd.tools.registry import ToolRegistry
from tests.support.bwrap import needs_bwrap

pytestmark = [pytest.mark.anyio, needs_bwrap]

PLANT = "cp /bin/sh s; chmod 4755 s; chmod g+s s; chmod 777 .; id -u; stat -c %a s"
NOBODY = pwd.getpwnam("nobody")


async def run_exec(settings: ExecSettings, workdir: Path, command: str) -> str:
    registry = ToolRegistry()
    register_exec_tool(registry, settings, lambda tenant: workdir, [Path("AGENTS.md")])
    with scopes.use(scopes.Scope()):
        outcome = await registry.call(ToolCall("c", "exec", json.dumps({"command": command})))
    assert not outcome.error, outcome.content
    return outcome.content


def assert_nothing_planted(workdir: Path) -> None:
    planted = workdir / "s"
    assert planted.exists()
    assert not planted.stat().st_mode & (stat.S_ISUID | stat.S_ISGID)
    assert stat.S_IMODE(workdir.stat().st_mode) == 0o700


@pytest.fixture
def root_daemon() -> None:
    if os.geteuid() != 0:
        pytest.fail("these tests run as root (as CI does)")


async def test_root_daemon_runs_commands_as_the_exec_user(
    tmp_path: Path, root_daemon: None
) -> None:
    """As root: the command's uid is tools.exec.user's, and what it makes is that user's."""
    out = await run_exec(ExecSettings(user="nobody"), tmp_path, "id -u; touch made")
    assert f"\n{NOBODY.pw_uid}\n" in out
    assert os.stat(tmp_path / "made").st_uid == NOBODY.pw_uid
    assert os.stat(tmp_path).st_uid == NOBODY.pw_uid


async def test_root_daemon_files_are_handed_to_the_exec_user(
    tmp_path: Path, root_daemon: None
) -> None:
    """Files the root daemon wrote (0600) are readable by the command; AGENTS.md stays read-only."""
    (tmp_path / "notes.txt").write_text("from the file tools\n")
    (tmp_path / "notes.txt").chmod(0o600)
    (tmp_path / "AGENTS.md").write_text("rules\n")
    out = await run_exec(
        ExecSettings(user="nobody"), tmp_path, "cat notes.txt AGENTS.md; echo x >> AGENTS.md"
    )
    assert "from the file tools\nrules\n" in out and "Read-only file system" in out
    assert (tmp_path / "AGENTS.md").read_text() == "rules\n"


async def test_root_daemon_plants_no_set_id_binary(tmp_path: Path, root_daemon: None) -> None:
    """As root: chmod 4755 and g+s are refused, the workdir is back to 0700 and that is logged."""
    with capture_logs() as logs:
        out = await run_exec(ExecSettings(user="nobody"), tmp_path, PLANT)
    assert "chmod: changing permissions of 's': Operation not permitted" in out
    assert "\n0\n" not in out  # never root
    assert_nothing_planted(tmp_path)
    fixed = [e for e in logs if e["event"] == "exec.workdir_fixed"]
    assert fixed and fixed[0]["when"] == "after" and fixed[0]["mode"] == "0o777"


async def test_a_missing_exec_user_falls_back_to_nobody(tmp_path: Path, root_daemon: None) -> None:
    """A root daemon whose tools.exec.user does not exist runs commands as nobody, and says so."""
    with capture_logs() as logs:
        out = await run_exec(ExecSettings(user="no-such-agentd-user"), tmp_path, "id -u")
    assert f"\n{NOBODY.pw_uid}\n" in out
    assert any(e["event"] == "exec.user_missing" for e in logs)


@pytest.fixture
def nobody_bwrap(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Path]]:
    """A bwrap that runs as nobody (the unprivileged daemon's), and a workdir nobody owns."""
    real = shutil.which("bwrap")
    assert real is not None
    base = Path(tempfile.mkdtemp(prefix="agentd-unpriv-", dir="/tmp"))
    base.chmod(0o755)
    wrapper = base / "bwrap"
    wrapper.write_text(
        f"#!/bin/sh\nexec setpriv --reuid={NOBODY.pw_uid} --regid={NOBODY.pw_gid} "
        f'--clear-groups -- {real} "$@"\n'
    )
    wrapper.chmod(0o755)
    workdir = base / "workdir"
    workdir.mkdir(mode=0o700)
    os.chown(workdir, NOBODY.pw_uid, NOBODY.pw_gid)
    # The daemon is not root: commands run as the daemon itself (here, nobody via the wrapper).
    monkeypatch.setattr(exec_user, "command_owner", lambda name: None)
    try:
        yield str(wrapper), workdir
    finally:
        shutil.rmtree(base)


async def test_unprivileged_daemon_plants_no_set_id_binary(
    nobody_bwrap: tuple[str, Path],
) -> None:
    """As an unprivileged daemon: the same command runs as that user and plants nothing."""
    bwrap, workdir = nobody_bwrap
    out = await run_exec(ExecSettings(bwrap=bwrap), workdir, PLANT)
    assert f"\n{NOBODY.pw_uid}\n" in out and "Operation not permitted" in out
    assert os.stat(workdir / "s").st_uid == NOBODY.pw_uid
    assert_nothing_planted(workdir)


async def test_the_workdir_mode_is_fixed_before_a_command(tmp_path: Path) -> None:
    """A workdir found open (0777) is closed to 0700 before the command runs."""
    os.chmod(tmp_path, 0o777)
    with capture_logs() as logs:
        out = await run_exec(ExecSettings(user="nobody"), tmp_path, "stat -c %a /workdir")
    assert "\n700\n" in out
    assert [e["when"] for e in logs if e["event"] == "exec.workdir_fixed"] == ["before"]


async def test_the_workdir_is_nosuid_and_nodev_inside(tmp_path: Path) -> None:
    """Inside the sandbox the workdir is mounted nosuid,nodev."""
    out = await run_exec(
        ExecSettings(user="nobody"), tmp_path, "grep ' /workdir ' /proc/self/mountinfo"
    )
    options = out.split(" /workdir ", 1)[1].split()[0].split(",")
    assert "nosuid" in options and "nodev" in options
