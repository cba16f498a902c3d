"""The workdir walker: path splitting, no-follow opens, replacing files, and no fd leaks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentd.errors import ToolError
from agentd.tools import workdir_fs


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    path = tmp_path / "workdir"
    path.mkdir()
    return path


@pytest.mark.parametrize(
    ("path", "parts"),
    [
        pytest.param("", (), id="empty"),
        pytest.param(".", (), id="dot"),
        pytest.param(" ", (), id="blank"),
        pytest.param("a/b", ("a", "b"), id="nested"),
        pytest.param("./a//b/./c/", ("a", "b", "c"), id="untidy"),
        pytest.param("a..b", ("a..b",), id="dots-in-a-name"),
        pytest.param(" drafts/ideas.md\n", ("drafts", "ideas.md"), id="blanks-around"),
    ],
)
def test_split(path: str, parts: tuple[str, ...]) -> None:
    """Relative paths become components; '.', empty parts and a trailing slash drop."""
    assert workdir_fs.split(path) == parts


@pytest.mark.parametrize(
    ("path", "needle"),
    [
        pytest.param("..", "'..'", id="dotdot"),
        pytest.param("a/../../b", "'..'", id="nested-dotdot"),
        pytest.param("/etc/passwd", "absolute", id="absolute"),
        pytest.param("  /etc/passwd", "absolute", id="absolute-after-blanks"),
        pytest.param("~root/x", "absolute", id="home"),
        pytest.param("a\0b", "NUL", id="nul"),
    ],
)
def test_split_refuses_escapes(path: str, needle: str) -> None:
    """'..', absolute and home paths and NUL bytes are refused."""
    with pytest.raises(ToolError, match=needle):
        workdir_fs.split(path)


def test_inside(workdir: Path, tmp_path: Path) -> None:
    """Paths into the workdir (by any name) become components; symlinks under it stay as parts."""
    (tmp_path / "alias").symlink_to(workdir)
    assert workdir_fs.inside(workdir, Path("AGENTS.md")) == ("AGENTS.md",)
    assert workdir_fs.inside(workdir, workdir / "p" / "beat.md") == ("p", "beat.md")
    assert workdir_fs.inside(workdir, tmp_path / "alias" / "beat.md") == ("beat.md",)
    assert workdir_fs.inside(workdir, tmp_path / "beat.md") is None
    assert workdir_fs.inside(workdir, Path("../beat.md")) is None
    assert workdir_fs.inside(workdir, Path("p/../beat.md")) == ("beat.md",)
    assert workdir_fs.inside(workdir, Path(".")) == ()
    assert workdir_fs.inside(tmp_path / "alias", workdir / "beat.md") == ("beat.md",)
    (workdir / "planted").symlink_to(tmp_path)
    assert workdir_fs.inside(workdir, workdir / "planted" / "beat.md") == ("planted", "beat.md")
    via_alias = tmp_path / "alias" / "planted" / "beat.md"
    assert workdir_fs.inside(workdir, via_alias) == ("planted", "beat.md")


def test_read_text(workdir: Path) -> None:
    """read_text returns UTF-8 text, None when missing, and refuses what it cannot read."""
    (workdir / "a.md").write_text("héllo")
    (workdir / "bad.md").write_bytes(b"\xff")
    assert workdir_fs.read_text(workdir, ("a.md",)) == "héllo"
    assert workdir_fs.read_text(workdir, ("missing.md",)) is None
    assert workdir_fs.read_text(workdir, ("a.md", "x")) is None
    assert workdir_fs.read_text(workdir.parent / "nope", ("a.md",)) is None
    with pytest.raises(ToolError, match="not UTF-8"):
        workdir_fs.read_text(workdir, ("bad.md",))


def test_replace_file_makes_folders_and_leaves_no_temp(workdir: Path) -> None:
    """replace_file makes missing folders (the workdir too) and leaves no temporary file."""
    fresh = workdir / "new-workdir"
    workdir_fs.replace_file(fresh, ("a", "b", "c.txt"), b"one")
    workdir_fs.replace_file(fresh, ("a", "b", "c.txt"), b"two")
    assert (fresh / "a" / "b" / "c.txt").read_bytes() == b"two"
    assert os.listdir(fresh / "a" / "b") == ["c.txt"]


def test_replace_file_over_a_folder_leaves_no_temp(workdir: Path) -> None:
    """Replacing a folder is refused and the temporary file is removed."""
    (workdir / "d").mkdir()
    with pytest.raises(ToolError, match="is a directory"):
        workdir_fs.replace_file(workdir, ("d",), b"x")
    with pytest.raises(ToolError, match="is a directory"):
        workdir_fs.replace_file(workdir, (), b"x")
    assert os.listdir(workdir) == ["d"]


def test_a_long_name_still_gets_a_temporary_file(workdir: Path) -> None:
    """A name at the file system's limit is written (the temporary name is cut short)."""
    name = "n" * 255
    workdir_fs.replace_file(workdir, (name,), b"x")
    assert os.listdir(workdir) == [name]


def test_no_fd_is_left_open(workdir: Path) -> None:
    """Every walk closes its fds, whether it succeeds or is refused."""
    (workdir / "d").mkdir()
    (workdir / "d" / "f.txt").write_text("x")
    (workdir / "link").symlink_to(workdir / "d")
    (workdir / "d" / "h.txt").write_text("x")
    os.link(workdir / "d" / "h.txt", workdir / "hard.txt")
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(50):
        workdir_fs.read_text(workdir, ("d", "f.txt"))
        workdir_fs.list_names(workdir, ("d",))
        workdir_fs.replace_file(workdir, ("d", "g.txt"), b"y")
        for parts in (("link", "f.txt"), ("hard.txt",), ("d",)):
            with pytest.raises(ToolError):
                workdir_fs.read_text(workdir, parts)
        with pytest.raises(ToolError):
            workdir_fs.replace_file(workdir, ("link", "new.txt"), b"z")
        with pytest.raises(NotADirectoryError):
            workdir_fs.list_names(workdir, ("d", "f.txt"))
    assert len(os.listdir("/proc/self/fd")) == before
