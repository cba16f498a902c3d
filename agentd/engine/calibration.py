"""The context budget's token estimate, kept across restarts.

The budget learns how many characters the model server counts per token from each call's
usage. A restarted daemon that started over from the cautious first guess would trim a long
session differently from the daemon before it, so llama-server's cached prompt prefix would be
lost on every restart (and the model would see another conversation). The estimate is saved in
``state_dir/context.json`` under the model server it was learned from, when the app closes, and
read back when it opens. A missing or unreadable file is the first guess again, never an error.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import structlog

from agentd.engine.budget import MAX_CHARS_PER_TOKEN, MIN_CHARS_PER_TOKEN, ContextBudget

log = structlog.get_logger("agentd.engine.calibration")

FILE = "context.json"


def restore(budget: ContextBudget, path: Path, server: str) -> None:
    """Take the estimate saved for ``server`` (a base URL and model name), if there is one."""
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        value = float(saved["servers"][server]["chars_per_token"])
    except (OSError, ValueError, KeyError, TypeError):
        return
    if MIN_CHARS_PER_TOKEN <= value <= MAX_CHARS_PER_TOKEN:
        budget.counter.chars_per_token = value
        log.info("context.calibration_restored", chars_per_token=round(value, 3))


def save(budget: ContextBudget, path: Path, server: str) -> None:
    """Write the current estimate for ``server`` (atomically; other servers' entries stay)."""
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        servers = saved["servers"] if isinstance(saved.get("servers"), dict) else {}
    except (OSError, ValueError, AttributeError):
        servers = {}
    servers[server] = {"chars_per_token": budget.counter.chars_per_token}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(json.dumps({"servers": servers}, indent=1))
        os.replace(tmp, path)
    except OSError as exc:
        log.warning("context.calibration_not_saved", path=str(path), error=str(exc))
        tmp.unlink(missing_ok=True)
