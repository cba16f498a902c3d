"""A channel's JSON state file: read leniently, replaced atomically, readable by its owner only."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import structlog


def read_json(path: Path, *, channel: str) -> dict[str, Any] | None:
    """The JSON object stored at ``path``, or None when it is missing or unreadable (logged as
    ``<channel>.state_unreadable``)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        structlog.get_logger(f"channels.{channel}").warning(
            f"{channel}.state_unreadable", path=str(path)
        )
        return None
    return data if isinstance(data, dict) else None


def write_private(path: Path, data: dict[str, Any]) -> None:
    """Replace ``path`` with ``data`` as JSON, atomically (temporary file, fsync, rename), mode
    0600: state files hold messages."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # mkstemp creates the file 0600 with O_EXCL: no moment where another user can read it.
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
