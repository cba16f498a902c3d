"""The system prompt: ``SYSTEM.md`` (parent of the workdir) or the fallback, plus ``AGENTS.md``.

Both files are optional. One that exists but cannot be read (a folder, no permission, not
UTF-8; for ``AGENTS.md`` also a symlink or a hard-linked file, which the agent could have
planted in its workdir) is a :class:`~agentd.errors.ConfigError` naming the file: the daemon
refuses to start, and a reload keeps the prompt it had.
"""

from __future__ import annotations

from pathlib import Path

from agentd.errors import ConfigError, ToolError
from agentd.tools import workdir_fs

FALLBACK_INSTRUCTIONS = """\
You are agentd, a helpful assistant running as a local daemon. Answer concisely and truthfully.
Use a tool when it gives a better answer than guessing (the time, files in your workdir, your
long-term memory); otherwise answer directly. If a tool returns an error, read it and fix the call
or tell the user what went wrong."""


def _unreadable(path: Path, why: object) -> ConfigError:
    return ConfigError(
        path.name,
        str(path),
        f"cannot be read ({why}); make it a plain UTF-8 text file (not a symlink or a hard "
        "link) or remove it (it is optional)",
    )


def _read_system(path: Path) -> str | None:
    # The workdir's parent is out of the agent's reach: the operator may symlink SYSTEM.md.
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except IsADirectoryError:
        raise _unreadable(path, "it is a directory") from None
    except OSError as exc:
        raise _unreadable(path, exc.strerror or exc) from None
    except UnicodeDecodeError as exc:
        raise _unreadable(path, f"not UTF-8: {exc.reason}") from None
    return text.strip() or None


def _read_agents(workdir: Path) -> str | None:
    # In the workdir, where the agent writes: read without following symlinks or hard links.
    try:
        text = workdir_fs.read_text(workdir, ("AGENTS.md",))
    except ToolError as exc:
        raise _unreadable(workdir / "AGENTS.md", exc) from None
    except OSError as exc:
        raise _unreadable(workdir / "AGENTS.md", exc.strerror or exc) from None
    if text is None:
        return None
    return text.strip() or None


def build_system_prompt(workdir: Path) -> str:
    """``SYSTEM.md`` replaces the fallback text; ``AGENTS.md`` is appended; both optional.

    Raises :class:`~agentd.errors.ConfigError` naming a file that exists but cannot be read.
    """
    workdir = workdir.expanduser()
    base = _read_system(workdir.parent / "SYSTEM.md") or FALLBACK_INSTRUCTIONS
    agents = _read_agents(workdir)
    return f"{base}\n\n{agents}" if agents else base
