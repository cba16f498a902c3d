"""settle: the workdir back to 0700, set-id bits removed, entries handed over, nothing followed."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from agentd.errors import ToolError
from agentd.tools import exec_user
from agentd.tools.workdir_guard import Owner, settle


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_set_id_bits_go_and_are_logged(tmp_path: Path) -> None:
    """Set-id bits anywhere under the workdir are removed, each logged with its path."""
    (tmp_path / "deep" / "er").mkdir(parents=True)
    planted = tmp_path / "deep" / "er" / "s"
    planted.write_text("x")
    planted.chmod(0o6755)
    (tmp_path / "plain").write_text("x")
    tmp_path.chmod(0o700)
    with capture_logs() as logs:
        report = settle(tmp_path, None, when="after")
    assert mode(planted) == 0o755 and report.set_id_removed == 1 and not report.mode_fixed
    assert [(e["path"], e["mode"]) for e in logs] == [("deep/er/s", "0o6755")]


def test_symlinks_are_not_followed(tmp_path: Path) -> None:
    """A symlink to a set-id file outside the workdir leaves that file alone."""
    outside = tmp_path / "outside"
    outside.write_text("x")
    outside.chmod(0o4755)
    workdir = tmp_path / "workdir"
    workdir.mkdir(mode=0o700)
    (workdir / "link").symlink_to(outside)
    (workdir / "dirlink").symlink_to(tmp_path)
    settle(workdir, Owner(65534, 65534), when="after")
    assert mode(outside) == 0o4755 and outside.stat().st_uid == os.geteuid()


def test_entries_are_handed_to_the_owner_but_not_hard_links(tmp_path: Path) -> None:
    """Root's files become the command user's; a file with a second name elsewhere does not."""
    if os.geteuid() != 0:
        pytest.fail("this test runs as root (as CI does)")
    workdir = tmp_path / "workdir"
    (workdir / "sub").mkdir(parents=True)
    (workdir / "sub" / "file").write_text("x")
    (tmp_path / "elsewhere").write_text("x")
    os.link(tmp_path / "elsewhere", workdir / "linked")
    report = settle(workdir, Owner(65534, 65534), when="before")
    assert mode(workdir) == 0o700 and report.mode_fixed
    for path in (workdir, workdir / "sub", workdir / "sub" / "file"):
        assert (path.stat().st_uid, path.stat().st_gid) == (65534, 65534)
    assert (tmp_path / "elsewhere").stat().st_uid == 0


def test_many_fixes_are_summed_up(tmp_path: Path) -> None:
    """Past 20 fixes the log gives their count, not a line each."""
    tmp_path.chmod(0o700)
    for i in range(25):
        (tmp_path / f"f{i}").write_text("x")
        (tmp_path / f"f{i}").chmod(0o4700)
    with capture_logs() as logs:
        settle(tmp_path, None, when="after")
    assert len(logs) == 21 and logs[-1]["set_id_removed"] == 25


@pytest.mark.parametrize(
    ("name", "euid", "expected"),
    [
        pytest.param("nobody", 1000, None, id="unprivileged-daemon-runs-as-itself"),
        pytest.param("nobody", 0, "nobody", id="root-daemon-named-user"),
        pytest.param("65534", 0, "nobody", id="root-daemon-numbered-user"),
        pytest.param("no-such-user-x", 0, "nobody", id="missing-falls-back"),
    ],
)
def test_who_runs_commands(name: str, euid: int, expected: str | None) -> None:
    """A root daemon drops to the setting's user (else nobody); another daemon stays itself."""
    import pwd

    owner = exec_user.command_owner(name, euid=euid)
    if expected is None:
        assert owner is None
    else:
        entry = pwd.getpwnam(expected)
        assert owner == Owner(entry.pw_uid, entry.pw_gid)


@pytest.mark.parametrize("name", ["root", "0"])
def test_root_is_never_the_command_user(name: str) -> None:
    """tools.exec.user naming root is refused, with what to do."""
    with pytest.raises(ToolError, match="is root; ask the operator"):
        exec_user.command_owner(name, euid=0)
