"""Which tests share one pytest-xdist worker under ``make test`` (``-n auto --dist loadgroup``).

A real server started by a session- or module-scoped fixture would start once per worker if its
tests were spread over several; the tests of each such server form one group, so it starts once.
The real-model tests form one group too: each runs llama-server on every core, side by side they
would only slow each other down. Every other test is grouped by its module, so a module's own
fixtures (a daemon, a browser) are set up once, as in a serial run.

The groups are worked out where the tests are collected, in the workers (they depend on the
fixtures a test uses), and handed to the controller's scheduler through a file per worker: the
controller itself collects nothing. pytest-xdist's own ``loadgroup`` reads ``xdist_group`` marks
by renaming ``item._nodeid``, which pytest 9 no longer reads, so :class:`GroupScheduling`
replaces it.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

#: A fixture a test uses (directly or through another fixture) and its real server's group.
SERVERS = {
    "synapse": "synapse",
    "browser": "chromium",
    "console": "chromium",
    "postgres": "postgres",
    "milvus_server": "milvus",
    "dovecot": "dovecot",
}
#: Parametrized fixtures whose given value reaches a real server.
SERVER_PARAMS = {("milvus_uri", "server"): "milvus"}
MODEL = "model"
#: Started first: the groups that take longest, so that no worker is left with one at the end.
FIRST = (MODEL, "postgres", "chromium", "synapse", "milvus")
#: Where a worker finds the folder of the group files (``workerinput``).
INPUT_KEY = "agentd_groups_dir"


def group_of(item: pytest.Item) -> str:
    """The group of ``item``: its real server's, the model's, or its module's."""
    if item.get_closest_marker("integration") is not None:
        return MODEL
    names = set(getattr(item, "fixturenames", ()))
    for fixture, group in SERVERS.items():
        if fixture in names:
            return group
    callspec = getattr(item, "callspec", None)
    params: dict[str, Any] = callspec.params if callspec is not None else {}
    for (fixture, value), group in SERVER_PARAMS.items():
        if params.get(fixture) == value:
            return group
    if "postgres" in params.values():  # a store parametrized over engines, on PostgreSQL
        return "postgres"
    return item.nodeid.split("::", 1)[0]


def configure(config: pytest.Config) -> None:
    """In the controller of a ``loadgroup`` run: make the folder the workers write to."""
    if getattr(config.option, "dist", "no") == "loadgroup" and not hasattr(config, "workerinput"):
        config.stash[_DIR] = Path(tempfile.mkdtemp(prefix="agentd-groups-"))


def unconfigure(config: pytest.Config) -> None:
    """Remove the controller's folder."""
    folder = config.stash.get(_DIR, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def configure_node(node: Any) -> None:
    """Tell a starting worker where to write its groups."""
    folder = node.config.stash.get(_DIR, None)
    if folder is not None:
        node.workerinput[INPUT_KEY] = str(folder)


def record(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a worker: write each collected test's group (before the collection is reported)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None or INPUT_KEY not in workerinput:
        return
    groups = {item.nodeid: group_of(item) for item in items}
    target = Path(workerinput[INPUT_KEY]) / f"{workerinput['workerid']}.json"
    partial = target.with_suffix(".part")
    partial.write_text(json.dumps(groups))
    partial.replace(target)


def scheduler(config: pytest.Config, log: Any) -> Any:
    """The scheduler of a ``loadgroup`` run, else None (xdist's own)."""
    folder = config.stash.get(_DIR, None)
    if folder is None:
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):  # type: ignore[misc]
        """Whole groups to one worker each; the longest groups first."""

        _groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self._groups is None:
                self._groups = {}
                for path in sorted(folder.glob("*.json")):
                    self._groups.update(json.loads(path.read_text()))
            return self._groups.get(nodeid) or nodeid.split("::", 1)[0]

        def _assign_work_unit(self, node: Any) -> None:
            for group in reversed(FIRST):
                if group in self.workqueue:
                    self.workqueue.move_to_end(group, last=False)
            super()._assign_work_unit(node)

    return GroupScheduling(config, log)


_DIR = pytest.StashKey[Path]()
