"""The file tools under attack: paths swapped for symlinks while the tools run (issue #15)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from agentd.messages import ToolCall
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.registry import ToolRegistry

pytestmark = pytest.mark.anyio

ROUNDS = 300  # calls of each tool on each swapped path
SECRET = "OUTSIDE-SECRET"


def _swap(
    place: Path, make_real: Callable[[Path], None], target: Path, stop: threading.Event
) -> None:
    """Until ``stop``: move what is at ``place`` aside, put a symlink to ``target`` there a
    moment, then a fresh real entry again. What a tool created meanwhile is moved aside too."""
    i = 0
    while not stop.is_set():
        i += 1
        with contextlib.suppress(OSError):
            os.rename(place, place.with_name(f"{place.name}.aside{i}"))
        with contextlib.suppress(OSError):
            os.symlink(target, place)
        time.sleep(0)
        with contextlib.suppress(OSError):
            os.unlink(place)
        with contextlib.suppress(OSError):
            make_real(place)
        time.sleep(0)


def _real_dir(place: Path) -> None:
    place.mkdir()
    (place / "secret.txt").write_text("inside")


def _real_file(place: Path) -> None:
    place.write_text("inside")


@contextlib.contextmanager
def _swapping(*swaps: tuple[Path, Callable[[Path], None], Path]) -> Iterator[None]:
    stop = threading.Event()
    threads = [threading.Thread(target=_swap, args=(*swap, stop), daemon=True) for swap in swaps]
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)  # interleave the swapper and the tool thread finely
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        sys.setswitchinterval(old)


def _contents(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in folder.iterdir()}


def _outside_changed(outside: Path, before: dict[str, str]) -> bool:
    """Whether the last call changed ``outside``; puts it back as it was if so."""
    now = _contents(outside)
    if now == before:
        return False
    for name in now.keys() - before.keys():
        (outside / name).unlink()
    for name, text in before.items():
        (outside / name).write_text(text)
    return True


async def test_symlink_swaps_never_reach_outside(tmp_path: Path) -> None:
    """Swapping a folder or file for a symlink out while the tools run: no outside read or write."""
    workdir = tmp_path / "workdir"
    workdir.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    (outside / "only-outside.txt").write_text(SECRET)
    before = _contents(outside)
    _real_dir(workdir / "victim")
    _real_file(workdir / "victim.txt")
    registry = ToolRegistry(default_timeout=30)
    register_builtin_tools(registry, workdir)
    calls = [
        ("read_file", {"path": "victim/secret.txt"}),
        ("read_file", {"path": "victim.txt"}),
        ("list_dir", {"path": "victim"}),
        ("write_file", {"path": "victim/new.txt", "content": "pwned"}),
        ("write_file", {"path": "victim.txt", "content": "pwned"}),
        ("append_file", {"path": "victim/secret.txt", "text": "pwned"}),
        ("append_file", {"path": "victim.txt", "text": "pwned"}),
    ]
    reads: dict[str, int] = {}
    writes: dict[str, int] = {}
    with (
        capture_logs(),
        _swapping(
            (workdir / "victim", _real_dir, outside),
            (workdir / "victim.txt", _real_file, outside / "secret.txt"),
        ),
    ):
        for _ in range(ROUNDS):
            for name, args in calls:
                out = await registry.call(ToolCall("c", name, json.dumps(args)))
                key = f"{name}({args['path']})"
                if SECRET in out.content or "only-outside" in out.content:
                    reads[key] = reads.get(key, 0) + 1
                if _outside_changed(outside, before):
                    writes[key] = writes.get(key, 0) + 1
    assert {"outside reads": reads, "outside writes": writes} == {
        "outside reads": {},
        "outside writes": {},
    }
