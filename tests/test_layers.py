"""Dependencies point down the layers of the architecture (DESIGN.md section 1)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Higher numbers may import lower ones, never the reverse. Parts of one rank do not import
#: each other, except the pairs below.
RANK = {
    "cli": 6,
    "daemon": 5,
    "channels": 4,
    "engine": 3,
    # MCP: servers' tools go into the tools registry; `mcp serve` serves memory and history.
    "mcp": 3,
    "model": 2,
    "tools": 2,
    "memory": 2,
    "cron": 2,
    "config": 1,
    # PostgreSQL plumbing shared by the stores (pool, migrations, URLs); imports redact only.
    "store": 1,
    "messages": 0,
    "scope": 0,
    "origin": 0,
    "said": 0,
    "errors": 0,
    "metrics": 0,
    "backoff": 0,
    "sse": 0,
    "redact": 0,
    "_version": 0,
    "zones": 0,
    "private": 0,
}
ALLOWED = {
    # The settings validate a cron line with the pure schedule functions (no agentd imports).
    ("config", "cron.schedule"),
    # The memory tools call the long-term memory store.
    ("tools", "memory.longterm"),
    # memory_save and memory_forget ask the model which memory a fact is about.
    ("tools", "memory.curate"),
    ("tools", "memory.fulltext"),
    # The task tools schedule in the task store.
    ("tools", "cron.tasks"),
    # A task's run gets the tool policy's audience of the chat it came from.
    ("cron", "tools.policy"),
    # Heartbeat prompt files in the workdir are read as the file tools read: no symlinks.
    ("cron", "tools.workdir_fs"),
    # Messages and scopes raise the project's errors.
    ("messages", "errors"),
    ("scope", "errors"),
}


def _part(module: str) -> str:
    bits = module.split(".")
    return "channels" if bits[0] == "channels" else (bits[1] if len(bits) > 1 else "")


def _imports() -> list[tuple[str, str]]:
    edges = []
    for path in [*(ROOT / "agentd").rglob("*.py"), *(ROOT / "channels").rglob("*.py")]:
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.split(".")[0] in ("agentd", "channels"):
                    edges.append((module, node.module))
    return edges


def _violation(source: str, target: str) -> str | None:
    src, dst = _part(source), _part(target)
    if src in ("", "__main__") or dst in ("", src) or src not in RANK:
        return None
    tail = target.split(".", 1)[1] if target.startswith("agentd.") else target
    if (src, tail) in ALLOWED:
        return None
    if dst not in RANK or RANK[dst] >= RANK[src]:
        return f"{source} imports {target}"
    return None


def test_imports_point_down() -> None:
    """No module imports a part above its own (or beside it, unless listed)."""
    edges = _imports()
    assert len(edges) > 100
    assert [v for s, t in edges if (v := _violation(s, t))] == []


def test_an_upward_import_is_caught() -> None:
    """The check itself: the store importing the engine, or config a feature, is reported."""
    assert _violation("agentd.memory.history", "agentd.engine.runtime") is not None
    assert _violation("agentd.config.settings", "agentd.cron.heartbeat") is not None
    assert _violation("agentd.engine.runtime", "agentd.memory.history") is None
