"""The system prompt: ``SYSTEM.md`` (parent of the workdir) or the fallback, plus ``AGENTS.md``."""

from __future__ import annotations

from pathlib import Path

FALLBACK_INSTRUCTIONS = """\
You are agentd, a helpful assistant running as a local daemon. Answer concisely and truthfully.
Use a tool when it gives a better answer than guessing (the time, files in your workdir, your
long-term memory); otherwise answer directly. If a tool returns an error, read it and fix the call
or tell the user what went wrong."""


def _read(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return text.strip() or None


def build_system_prompt(workdir: Path) -> str:
    """``SYSTEM.md`` replaces the fallback text; ``AGENTS.md`` is appended; both optional."""
    workdir = workdir.expanduser()
    base = _read(workdir.parent / "SYSTEM.md") or FALLBACK_INSTRUCTIONS
    agents = _read(workdir / "AGENTS.md")
    return f"{base}\n\n{agents}" if agents else base
