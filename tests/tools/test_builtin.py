"""Built-in tools: current_time, and file tools confined to the workdir."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agentd.errors import ToolError
from agentd.messages import ToolCall
from agentd.tools import builtin as builtin_tools
from agentd.tools.builtin import confine, register_builtin_tools
from agentd.tools.registry import ToolOutcome, ToolRegistry

pytestmark = pytest.mark.anyio


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    path = tmp_path / "workdir"
    path.mkdir()
    return path


@pytest.fixture
def registry(workdir: Path) -> ToolRegistry:
    reg = ToolRegistry()
    register_builtin_tools(reg, workdir)
    return reg


async def run(registry: ToolRegistry, name: str, **args: object) -> ToolOutcome:
    return await registry.call(ToolCall("c", name, json.dumps(args)))


def entries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_registers_the_four_tools(registry: ToolRegistry) -> None:
    """The built-ins are current_time, read_file, write_file and list_dir."""
    assert registry.names == {"current_time", "read_file", "write_file", "list_dir"}


async def test_current_time(registry: ToolRegistry) -> None:
    """current_time answers in the asked timezone and rejects unknown ones."""
    utc = await run(registry, "current_time")
    assert not utc.error
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(\w+day\)", utc.content)
    tokyo = await run(registry, "current_time", timezone="Asia/Tokyo")
    assert "JST" in tokyo.content
    bad = await run(registry, "current_time", timezone="Mars/Olympus")
    assert bad.error and "unknown timezone 'Mars/Olympus'" in bad.content
    worse = await run(registry, "current_time", timezone="../../etc/passwd")
    assert worse.error


async def test_write_then_read_and_list(registry: ToolRegistry, workdir: Path) -> None:
    """write_file creates folders, read_file reads it back, list_dir lists entries."""
    wrote = await run(registry, "write_file", path="notes/today.md", content="buy milk\n")
    assert not wrote.error and "9 characters" in wrote.content
    assert (workdir / "notes" / "today.md").read_text() == "buy milk\n"
    assert (await run(registry, "read_file", path="notes/today.md")).content == "buy milk\n"
    (workdir / "a.txt").write_text("x")
    listing = await run(registry, "list_dir")
    assert listing.content == "a.txt\nnotes/"
    assert (await run(registry, "list_dir", path="notes")).content == "today.md"
    (workdir / "empty").mkdir()
    assert (await run(registry, "list_dir", path="empty")).content == "(empty)"
    again = await run(registry, "write_file", path="a.txt", content="replaced")
    assert not again.error and (workdir / "a.txt").read_text() == "replaced"
    assert not [name for name in entries(workdir) if ".tmp" in name]


async def test_missing_things_are_errors(registry: ToolRegistry, workdir: Path) -> None:
    """Reading a missing file, listing a file, or writing onto a folder is an error result."""
    (workdir / "dir").mkdir()
    (workdir / "file").write_text("x")
    assert "no file 'nope'" in (await run(registry, "read_file", path="nope")).content
    assert (await run(registry, "read_file", path="dir")).error
    assert "no folder 'file'" in (await run(registry, "list_dir", path="file")).content
    assert "is a directory" in (await run(registry, "write_file", path="dir", content="")).content
    assert (await run(registry, "write_file", path=".", content="")).error


async def test_large_files_are_truncated(registry: ToolRegistry, workdir: Path) -> None:
    """read_file returns at most MAX_READ bytes and says how much was left out."""
    (workdir / "big.txt").write_text("a" * (builtin_tools.MAX_READ + 10))
    out = (await run(registry, "read_file", path="big.txt")).content
    assert out.startswith("a" * builtin_tools.MAX_READ)
    assert f"{builtin_tools.MAX_READ + 10} bytes in all" in out


async def test_large_writes_are_refused(
    registry: ToolRegistry, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """write_file refuses content over MAX_WRITE bytes."""
    monkeypatch.setattr(builtin_tools, "MAX_WRITE", 4)
    out = await run(registry, "write_file", path="x", content="12345")
    assert out.error and "larger than 4 bytes" in out.content
    assert not (workdir / "x").exists()


async def test_long_listings_are_cut(
    registry: ToolRegistry, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """list_dir shows at most MAX_ENTRIES entries and counts the rest."""
    monkeypatch.setattr(builtin_tools, "MAX_ENTRIES", 2)
    for name in "abcd":
        (workdir / name).write_text("")
    assert (await run(registry, "list_dir")).content == "a\nb\n[... 2 more]"


@pytest.mark.parametrize(
    ("path", "needle"),
    [
        pytest.param("../outside.txt", "'..'", id="dotdot"),
        pytest.param("notes/../../outside.txt", "'..'", id="nested-dotdot"),
        pytest.param("/etc/passwd", "absolute", id="absolute"),
        pytest.param("~/secrets", "absolute", id="home"),
    ],
)
async def test_paths_outside_the_workdir_are_refused(
    registry: ToolRegistry, workdir: Path, path: str, needle: str
) -> None:
    """'..', absolute and home paths are refused by every file tool."""
    (workdir.parent / "outside.txt").write_text("secret")
    for name, args in (
        ("read_file", {"path": path}),
        ("write_file", {"path": path, "content": "pwned"}),
        ("list_dir", {"path": path}),
    ):
        out = await run(registry, name, **args)
        assert out.error and needle in out.content, (name, out)
    assert (workdir.parent / "outside.txt").read_text() == "secret"


async def test_symlink_escapes_are_refused(registry: ToolRegistry, workdir: Path) -> None:
    """Symlinks that point out of the workdir are refused for reading, writing and listing."""
    outside = workdir.parent / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    (workdir / "link").symlink_to(outside)
    (workdir / "file-link").symlink_to(outside / "secret.txt")
    (workdir / "dangling").symlink_to(outside / "new.txt")
    for name, args in (
        ("read_file", {"path": "link/secret.txt"}),
        ("read_file", {"path": "file-link"}),
        ("write_file", {"path": "link/new.txt", "content": "pwned"}),
        ("write_file", {"path": "file-link", "content": "pwned"}),
        ("write_file", {"path": "dangling", "content": "pwned"}),
        ("list_dir", {"path": "link"}),
    ):
        out = await run(registry, name, **args)
        assert out.error and "leaves the workdir" in out.content, (name, out)
    assert (outside / "secret.txt").read_text() == "secret"
    assert entries(outside) == ["secret.txt"]


async def test_symlinks_inside_the_workdir_work(registry: ToolRegistry, workdir: Path) -> None:
    """A symlink that stays inside the workdir is followed."""
    (workdir / "real.txt").write_text("inside")
    (workdir / "alias.txt").symlink_to(workdir / "real.txt")
    assert (await run(registry, "read_file", path="alias.txt")).content == "inside"


def test_confine_resolves_the_workdir_itself(workdir: Path) -> None:
    """An empty path or '.' is the workdir."""
    assert confine(workdir, "") == workdir.resolve()
    assert confine(workdir, ".") == workdir.resolve()
    assert confine(workdir, "a/b") == workdir.resolve() / "a" / "b"
    with pytest.raises(ToolError):
        confine(workdir, "..")
