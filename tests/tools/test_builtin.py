"""Built-in tools: current_time, and file tools confined to the workdir."""

from __future__ import annotations

import json
import os
import re
from functools import partial
from pathlib import Path

import anyio
import pytest

from agentd.messages import ToolCall
from agentd.tools import builtin as builtin_tools
from agentd.tools.builtin import register_builtin_tools
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


def test_registers_the_builtin_tools(registry: ToolRegistry) -> None:
    """The built-ins are current_time, read_file, write_file, append_file, edit_file, list_dir."""
    assert registry.names == {
        "current_time",
        "read_file",
        "write_file",
        "append_file",
        "edit_file",
        "list_dir",
    }


async def test_concurrent_appends_lose_no_line(registry: ToolRegistry, workdir: Path) -> None:
    """Appends to one file at once (two sessions sharing a workdir) all land."""
    async with anyio.create_task_group() as tg:
        for i in range(20):
            tg.start_soon(partial(run, registry, "append_file", path="log.txt", text=f"line {i}"))
    lines = (workdir / "log.txt").read_text().splitlines()
    assert sorted(lines) == sorted(f"line {i}" for i in range(20))


async def test_append_file_keeps_what_was_there(registry: ToolRegistry, workdir: Path) -> None:
    """append_file adds lines at the end (on a new line) and creates a missing file."""
    (workdir / "todo.txt").write_text("- call the bank")  # no final newline
    out = await run(registry, "append_file", path="todo.txt", text="- book the train")
    assert not out.error and "appended" in out.content
    assert (workdir / "todo.txt").read_text() == "- call the bank\n- book the train\n"
    await run(registry, "append_file", path="todo.txt", text="- pay rent\n")
    assert (workdir / "todo.txt").read_text().endswith("train\n- pay rent\n")
    new = await run(registry, "append_file", path="log/new.md", text="first")
    assert not new.error and (workdir / "log" / "new.md").read_text() == "first\n"
    folder = await run(registry, "append_file", path="log", text="x")
    assert folder.error and "directory" in folder.content
    assert not [name for name in entries(workdir) if ".tmp" in name]


async def test_current_time(registry: ToolRegistry) -> None:
    """current_time answers in the asked timezone and rejects unknown ones."""
    utc = await run(registry, "current_time")
    assert not utc.error
    assert re.fullmatch(r"\w+day, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(UTC\)", utc.content)
    tokyo = await run(registry, "current_time", timezone="Asia/Tokyo")
    assert "JST (Asia/Tokyo)" in tokyo.content
    # The small model's name for it (agentd.zones).
    named = await run(registry, "current_time", timezone="Japan Standard Time")
    assert not named.error and "JST" in named.content
    bad = await run(registry, "current_time", timezone="Mars/Olympus")
    assert bad.error and "unknown timezone 'Mars/Olympus': use an IANA name" in bad.content
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
    """Reading a missing file or a folder, listing a missing folder, or writing onto a folder
    is an error result."""
    (workdir / "dir").mkdir()
    (workdir / "file").write_text("x")
    assert "no file 'nope'" in (await run(registry, "read_file", path="nope")).content
    assert (await run(registry, "read_file", path="dir")).error
    assert "no folder 'nope'" in (await run(registry, "list_dir", path="nope")).content
    assert "no folder 'file/x'" in (await run(registry, "list_dir", path="file/x")).content
    assert "is a directory" in (await run(registry, "write_file", path="dir", content="")).content
    assert (await run(registry, "write_file", path=".", content="")).error


async def test_listing_a_file_names_it_like_ls(registry: ToolRegistry, workdir: Path) -> None:
    """list_dir given a file names the file and says how to see its text (not "no folder":
    the file is there); a folder's name is not taken for a file."""
    (workdir / "notes").mkdir()
    (workdir / "notes" / "today.md").write_text("buy milk\n")
    listed = await run(registry, "list_dir", path="./notes/today.md")
    assert not listed.error
    assert listed.content == "notes/today.md\n(a file, not a folder: read_file shows its text)"
    assert (await run(registry, "list_dir", path="notes/")).content == "today.md"


async def test_large_files_are_read_in_parts(registry: ToolRegistry, workdir: Path) -> None:
    """read_file returns at most MAX_READ characters and says how to read on."""
    (workdir / "big.txt").write_text("a" * (builtin_tools.MAX_READ + 10))
    out = (await run(registry, "read_file", path="big.txt", length=10**9)).content
    assert out == "a" * builtin_tools.MAX_READ + (
        f"\n[... 10 more characters; call read_file with offset={builtin_tools.MAX_READ} "
        "to read on]"
    )
    rest = await run(registry, "read_file", path="big.txt", offset=builtin_tools.MAX_READ)
    assert rest.content == "a" * 10


async def test_read_file_ranges(
    registry: ToolRegistry, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """offset and length pick characters (not bytes); the marker counts what is left."""
    monkeypatch.setattr(builtin_tools, "MIN_READ", 1)
    text = "héllo wörld\r\nsecond line ✓\n"
    (workdir / "t.txt").write_text(text, encoding="utf-8", newline="")
    part = (await run(registry, "read_file", path="t.txt", offset=1, length=4)).content
    left = len(text) - 5
    assert part == f"éllo\n[... {left} more characters; call read_file with offset=5 to read on]"
    tail = (await run(registry, "read_file", path="t.txt", offset=11, length=100)).content
    assert tail == text[11:]
    whole = await run(registry, "read_file", path="t.txt")
    assert whole.content == text


async def test_a_short_length_still_reads_the_first_lines(
    registry: ToolRegistry, workdir: Path
) -> None:
    """A small model asks for length 1 meaning the first line: it gets MIN_READ characters."""
    (workdir / "poem.txt").write_text("The violet sings at dawn\nand the sea replies\n")
    out = (await run(registry, "read_file", path="poem.txt", length=1)).content
    assert out == "The violet sings at dawn\nand the sea replies\n"
    (workdir / "big.txt").write_text("x" * 5000)
    out = (await run(registry, "read_file", path="big.txt", length=10)).content
    assert out.startswith("x" * builtin_tools.MIN_READ + "\n[... 4,000 more characters")


async def test_read_file_counts_long_remainders(
    registry: ToolRegistry, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Skipping and counting work a chunk at a time; the count is exact and comma-grouped."""
    monkeypatch.setattr(builtin_tools, "READ_CHUNK", 7)
    monkeypatch.setattr(builtin_tools, "MIN_READ", 1)
    (workdir / "n.txt").write_text("0123456789" * 1500)
    out = (await run(registry, "read_file", path="n.txt", offset=25, length=10)).content
    assert out == (
        "5678901234\n[... 14,965 more characters; call read_file with offset=35 to read on]"
    )


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        pytest.param({"offset": -1}, "offset must be 0 or more", id="negative-offset"),
        pytest.param({"offset": 5}, "offset 5 is past the end: 'f.txt' has 5 characters", id="end"),
        pytest.param({"offset": 99}, "offset 99 is past the end", id="past-end"),
        pytest.param({"offset": "x"}, "invalid arguments", id="not-a-number"),
    ],
)
async def test_read_file_refuses_bad_ranges(
    registry: ToolRegistry, workdir: Path, args: dict[str, object], needle: str
) -> None:
    """Negative offsets and offsets past the end are error results."""
    (workdir / "f.txt").write_text("12345")
    out = await run(registry, "read_file", path="f.txt", **args)
    assert out.error and needle in out.content, out


@pytest.mark.parametrize("length", [0, -5, 1])
async def test_a_short_or_empty_length_reads_the_minimum(
    registry: ToolRegistry, workdir: Path, length: int
) -> None:
    """length 0 was an error the model met twice with the same call; now it reads."""
    (workdir / "poem.txt").write_text("The violet sings at dawn\nline two\n")
    out = await run(registry, "read_file", path="poem.txt", length=length)
    assert not out.error and out.content == "The violet sings at dawn\nline two\n"


def test_read_file_schema_offers_the_range(registry: ToolRegistry) -> None:
    """The model sees offset and length, with their defaults, in read_file's schema."""
    schema = next(s for s in registry.schemas() if s["function"]["name"] == "read_file")
    props = schema["function"]["parameters"]["properties"]
    assert props["offset"]["default"] == 0 and props["length"]["default"] == builtin_tools.MAX_READ
    assert "characters" in schema["function"]["description"]
    assert schema["function"]["parameters"]["required"] == ["path"]


async def test_large_writes_are_refused(
    registry: ToolRegistry, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """write_file and append_file refuse files over MAX_WRITE bytes."""
    monkeypatch.setattr(builtin_tools, "MAX_WRITE", 4)
    out = await run(registry, "write_file", path="x", content="12345")
    assert out.error and "larger than 4 bytes" in out.content
    assert not (workdir / "x").exists()
    (workdir / "big.txt").write_text("ééé")  # 6 bytes: cut at 5, the last é is split
    grown = await run(registry, "append_file", path="big.txt", text="x")
    assert grown.error and "larger than 4 bytes" in grown.content


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
        ("append_file", {"path": path, "text": "pwned"}),
        ("list_dir", {"path": path}),
    ):
        out = await run(registry, name, **args)
        assert out.error and needle in out.content, (name, out)
    assert (workdir.parent / "outside.txt").read_text() == "secret"


async def test_symlinks_are_refused(registry: ToolRegistry, workdir: Path) -> None:
    """A symlink anywhere in a path is refused, whether it points out of the workdir or not."""
    outside = workdir.parent / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    (workdir / "real").mkdir()
    (workdir / "real" / "inside.txt").write_text("inside")
    (workdir / "link").symlink_to(outside)
    (workdir / "file-link").symlink_to(outside / "secret.txt")
    (workdir / "dangling").symlink_to(outside / "new.txt")
    (workdir / "inner").symlink_to(workdir / "real")
    (workdir / "alias.txt").symlink_to(workdir / "real" / "inside.txt")
    for name, args in (
        ("read_file", {"path": "link/secret.txt"}),
        ("read_file", {"path": "file-link"}),
        ("read_file", {"path": "inner/inside.txt"}),
        ("read_file", {"path": "alias.txt"}),
        ("write_file", {"path": "link/new.txt", "content": "pwned"}),
        ("write_file", {"path": "link/deeper/new.txt", "content": "pwned"}),
        ("write_file", {"path": "file-link", "content": "pwned"}),
        ("write_file", {"path": "dangling", "content": "pwned"}),
        ("write_file", {"path": "alias.txt", "content": "changed"}),
        ("append_file", {"path": "file-link", "text": "pwned"}),
        ("append_file", {"path": "dangling", "text": "pwned"}),
        ("append_file", {"path": "inner/inside.txt", "text": "more"}),
        ("list_dir", {"path": "link"}),
        ("list_dir", {"path": "inner"}),
    ):
        out = await run(registry, name, **args)
        assert out.error and "never follow symlinks" in out.content, (name, out)
    assert (outside / "secret.txt").read_text() == "secret"
    assert entries(outside) == ["secret.txt"]
    assert (workdir / "real" / "inside.txt").read_text() == "inside"
    assert (workdir / "alias.txt").is_symlink() and (workdir / "dangling").is_symlink()


async def test_list_dir_does_not_follow_symlinks(registry: ToolRegistry, workdir: Path) -> None:
    """A symlink to a folder is listed by name, not marked as a folder."""
    (workdir / "real").mkdir()
    (workdir / "link").symlink_to(workdir / "real")
    assert (await run(registry, "list_dir")).content == "link\nreal/"


async def test_planted_temp_symlinks_are_not_written_through(
    registry: ToolRegistry, workdir: Path
) -> None:
    """Symlinks planted where write_file used to put its temporary file are never followed."""
    outside = workdir.parent / "outside.txt"
    outside.write_text("secret")
    for suffix in (str(os.getpid()), "", "0", "1234", "x"):
        (workdir / f".notes.md.tmp{suffix}").symlink_to(outside)
    wrote = await run(registry, "write_file", path="notes.md", content="pwned")
    assert (outside.read_text(), wrote.error) == ("secret", False), wrote
    assert not (workdir / "notes.md").is_symlink()
    appended = await run(registry, "append_file", path="notes.md", text="more")
    assert (outside.read_text(), appended.error) == ("secret", False), appended
    assert (workdir / "notes.md").read_text() == "pwned\nmore\n"
    assert len([n for n in entries(workdir) if n.startswith(".notes.md.tmp")]) == 5


async def test_hard_links_are_refused(registry: ToolRegistry, workdir: Path) -> None:
    """A file with another hard link (here: outside the workdir) is not read, written, appended."""
    outside = workdir.parent / "outside.txt"
    outside.write_text("secret")
    os.link(outside, workdir / "linked.txt")
    for name, args in (
        ("read_file", {"path": "linked.txt"}),
        ("write_file", {"path": "linked.txt", "content": "pwned"}),
        ("append_file", {"path": "linked.txt", "text": "pwned"}),
    ):
        out = await run(registry, name, **args)
        assert out.error and "hard links" in out.content, (name, out)
        assert "secret" not in out.content
    assert outside.read_text() == "secret"
    assert os.stat(workdir / "linked.txt").st_ino == os.stat(outside).st_ino


async def test_special_files_are_refused(registry: ToolRegistry, workdir: Path) -> None:
    """A FIFO is refused at once (the read does not hang), and a folder is not a file."""
    os.mkfifo(workdir / "pipe")
    (workdir / "dir").mkdir()
    assert "not a regular file" in (await run(registry, "read_file", path="pipe")).content
    assert (
        "not a regular file" in (await run(registry, "append_file", path="pipe", text="x")).content
    )
    assert "is a directory" in (await run(registry, "read_file", path="dir")).content
    assert (
        "is a file, not a folder"
        in (await run(registry, "write_file", path="pipe/x", content="x")).content
    )


@pytest.mark.parametrize(
    ("name", "args"),
    [
        pytest.param("write_file", {"path": "AGENTS.md", "content": "obey me"}, id="write-agents"),
        pytest.param("append_file", {"path": "HEARTBEAT.md", "text": "obey"}, id="append-beat"),
        pytest.param("write_file", {"path": "AGENTS.md/x", "content": "x"}, id="under-agents"),
        pytest.param("write_file", {"path": "./AGENTS.md", "content": "x"}, id="dot-agents"),
        pytest.param("append_file", {"path": "HEARTBEAT.md/a/b", "text": "x"}, id="under-beat"),
    ],
)
async def test_instruction_files_are_read_only(
    registry: ToolRegistry, workdir: Path, name: str, args: dict[str, object]
) -> None:
    """By default the agent cannot write, append to, or create under its instruction files."""
    (workdir / "HEARTBEAT.md").write_text("check the todo list")
    out = await run(registry, name, **args)
    assert out.error and "read-only instruction file" in out.content, out
    assert entries(workdir) == ["HEARTBEAT.md"]
    assert (workdir / "HEARTBEAT.md").read_text() == "check the todo list"
    assert (await run(registry, "read_file", path="HEARTBEAT.md")).content == "check the todo list"


async def test_instruction_files_can_be_made_writable(workdir: Path) -> None:
    """With no read-only files (the operator's setting), AGENTS.md and HEARTBEAT.md are writable."""
    registry = ToolRegistry()
    register_builtin_tools(registry, workdir, read_only=())
    assert not (await run(registry, "write_file", path="AGENTS.md", content="new rules")).error
    assert not (await run(registry, "append_file", path="HEARTBEAT.md", text="check")).error
    assert (workdir / "AGENTS.md").read_text() == "new rules"
    assert (workdir / "HEARTBEAT.md").read_text() == "check\n"
    out = await run(registry, "write_file", path="AGENTS.md/x", content="x")
    assert out.error and "is a file, not a folder" in out.content


async def test_other_read_only_files(workdir: Path) -> None:
    """A cron prompt_file inside the workdir, relative or absolute, is read-only too."""
    registry = ToolRegistry()
    register_builtin_tools(
        registry, workdir, read_only=[Path("prompts/beat.md"), workdir / "daily.md", Path("/etc/x")]
    )
    for path in ("prompts/beat.md", "daily.md", "prompts/beat.md/x"):
        out = await run(registry, "write_file", path=path, content="x")
        assert out.error and "read-only instruction file" in out.content, out
    assert not (await run(registry, "write_file", path="AGENTS.md", content="x")).error
    assert not (await run(registry, "write_file", path="prompts/other.md", content="x")).error


async def test_a_missing_file_error_names_what_its_folder_holds(
    registry: ToolRegistry, workdir: Path
) -> None:
    """The model guessed notes/readme.md for notes/reminder.txt: the error shows the folder."""
    (workdir / "notes").mkdir()
    (workdir / "notes" / "reminder.txt").write_text("locker 12\n")
    (workdir / "a.txt").write_text("a\n")
    out = await run(registry, "read_file", path="notes/readme.md")
    assert out.error and "no file 'notes/readme.md'" in out.content
    assert "notes/ holds: reminder.txt" in out.content
    top = await run(registry, "read_file", path="b.txt")
    assert "the workdir holds: a.txt, notes/" in top.content
    gone = await run(registry, "read_file", path="nowhere/x.txt")
    assert gone.content.endswith("no file 'nowhere/x.txt' in the workdir")


async def test_a_write_that_changes_nothing_is_refused(
    registry: ToolRegistry, workdir: Path
) -> None:
    """Writing a file's own text back is no action: refused as an error (the turn sees a
    failed call), the file untouched; any change, a new file or an empty one is written."""
    (workdir / "deploy.sh").write_text("#!/bin/sh\nrsync -a site/ web:/var/www/\n")
    before = (workdir / "deploy.sh").stat().st_mtime_ns
    same = await run(
        registry, "write_file", path="deploy.sh", content="#!/bin/sh\nrsync -a site/ web:/var/www/"
    )
    assert same.error and "not written: nothing would change" in same.content
    assert (workdir / "deploy.sh").stat().st_mtime_ns == before
    changed = await run(
        registry, "write_file", path="deploy.sh", content="#!/bin/sh\nrsync -av site/ web:/var/www/"
    )
    assert not changed.error
    assert "rsync -av" in (workdir / "deploy.sh").read_text()
    assert not (await run(registry, "write_file", path="new.txt", content="")).error
    assert (workdir / "new.txt").read_text() == ""
