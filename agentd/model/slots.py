"""The sidecar's prompt caches across a restart: llama-server's slots saved and restored.

A session's prompt (the system prompt, the tools, its history) lives in a llama-server slot's KV
cache; a restarted server has none, and the next turn of a 3,000-token session reads all of it
again (73 s on 2 cores, against 0.05 s to restore the saved slot). With
``llm.sidecar.keep_slots`` the sidecar runs with ``--slot-save-path``; :meth:`SlotFiles.save`
saves every slot when the daemon stops (after the turns drained, before the server stops) and
:meth:`SlotFiles.restore` loads them into the same slots after the next start.

A saved slot is only valid for the same model, context, slots and server build: they name the
folder (:func:`slot_dir`), and the folders of other configurations are removed. The files are
written by llama-server into that private folder under names agentd chooses, never the model's.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import httpx
import structlog

from agentd.config import Settings
from agentd.model.pinning import SlotPins

log = structlog.get_logger("agentd.model.slots")

#: Bounds the save at shutdown (a slot of 8,192 tokens is ~235 MB for the 1.5B model).
SAVE_TIMEOUT = 20.0
FILE = "slot-{id}.bin"
#: The file that carries one slot's cache into others (:meth:`SlotFiles.copy`), removed after.
COPY_FILE = "copy.bin"
#: Which session (by digest) held which slot, beside the slot files.
PINS = "pins.json"


def slot_dir(settings: Settings, model: Path, binary: Path) -> Path:
    """The folder of saved slots for this model, context, slot count and server build."""
    sc = settings.llm.sidecar
    parts = [str(sc.context), str(sc.parallel), str(sc.session_slots), sc.draft_model or ""]
    for path in (model, binary):
        stat = path.stat()
        parts += [path.name, str(stat.st_size), str(stat.st_mtime_ns)]
    digest = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]
    return settings.state_dir.expanduser() / "slots" / digest


def prepare(directory: Path) -> Path:
    """Create ``directory`` (private) and remove the folders of other configurations."""
    root = directory.parent
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(root, 0o700)
    for other in root.iterdir():
        if other != directory and other.is_dir() and not other.is_symlink():
            shutil.rmtree(other, ignore_errors=True)
    directory.mkdir(mode=0o700, exist_ok=True)
    return directory


class SlotFiles:
    """Saves and restores the slots of the llama-server at ``base_url`` into ``directory``."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        base_url: str,
        directory: Path,
        pins: SlotPins | None = None,
    ) -> None:
        self._http = http
        self._url = base_url.rstrip("/")
        self.directory = directory
        #: Which session held which slot: saved beside the slots, so that after a restart a
        #: session finds its own restored cache again (:mod:`agentd.model.pinning`).
        self._pins = pins
        self._copying = anyio.Lock()

    async def _slots(self) -> int:
        """How many slots the server has (``/props``' ``total_slots``; 1 when it does not say)."""
        response = await self._http.get(f"{self._url}/props")
        data: Any = response.json() if response.status_code == 200 else {}
        total = data.get("total_slots") if isinstance(data, dict) else None
        return total if isinstance(total, int) and 0 < total <= 256 else 1

    async def _action(self, slot: int, action: str, filename: str | None = None) -> int:
        """Save or restore one slot (to or from ``filename``, else the slot's own file); the
        tokens it held (0 when the server refused)."""
        response = await self._http.post(
            f"{self._url}/slots/{slot}",
            params={"action": action},
            json={"filename": filename or FILE.format(id=slot)},
        )
        if response.status_code != 200:
            log.info("slots.refused", slot=slot, action=action, status=response.status_code)
            return 0
        data: Any = response.json()
        count = data.get("n_saved" if action == "save" else "n_restored")
        return count if isinstance(count, int) and count > 0 else 0

    async def save(self) -> int:
        """Save every slot that holds a prompt (the others' old files go); the tokens saved.

        Bounded by :data:`SAVE_TIMEOUT` and shielded: it runs while the daemon stops."""
        saved = 0
        with anyio.move_on_after(SAVE_TIMEOUT, shield=True) as bound:
            try:
                for slot in range(await self._slots()):
                    tokens = await self._action(slot, "save")
                    if not tokens:
                        (self.directory / FILE.format(id=slot)).unlink(missing_ok=True)
                    saved += tokens
            except (httpx.HTTPError, ValueError) as exc:
                log.warning("slots.save_failed", error=str(exc), exc_type=type(exc).__name__)
        if bound.cancelled_caught:
            log.warning("slots.save_timeout", seconds=SAVE_TIMEOUT)
        if self._pins is not None:
            self._write_pins(self._pins.snapshot())
        log.info("slots.saved", tokens=saved, folder=str(self.directory))
        return saved

    async def restore(self) -> int:
        """Load the saved slots into the server's slots; the tokens restored."""
        restored = 0
        try:
            for slot in range(await self._slots()):
                if (self.directory / FILE.format(id=slot)).is_file():
                    restored += await self._action(slot, "restore")
        except (httpx.HTTPError, ValueError) as exc:
            log.warning("slots.restore_failed", error=str(exc), exc_type=type(exc).__name__)
        if restored:
            log.info("slots.restored", tokens=restored)
            if self._pins is not None:
                self._pins.restore(self._read_pins())
        return restored

    async def copy(self, source: int, targets: Sequence[int]) -> int:
        """Load slot ``source``'s prompt cache into each slot of ``targets``; the tokens
        restored. The warm-up fills one session slot with the prefix every turn begins with
        (:mod:`agentd.engine.warmup`); the second new session took the other, empty one and
        read the ~1,550 tokens of the system prompt and tools cold (22 s on 2 cores), where a
        restore of the saved slot takes a fraction of a second. A summary's session gets its
        new prompt this way too (:mod:`agentd.engine.landing`)."""
        restored = 0
        async with self._copying:  # one copy file
            try:
                if await self._action(source, "save", COPY_FILE):
                    for slot in targets:
                        restored += await self._action(slot, "restore", COPY_FILE)
            except (httpx.HTTPError, ValueError) as exc:
                log.warning("slots.copy_failed", error=str(exc), exc_type=type(exc).__name__)
            finally:
                (self.directory / COPY_FILE).unlink(missing_ok=True)
        if restored:
            log.info("slots.copied", source=source, targets=list(targets), tokens=restored)
        return restored

    def _write_pins(self, pins: dict[str, int]) -> None:
        path = self.directory / PINS
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(pins, fh)
        except OSError as exc:
            log.warning("slots.pins_not_saved", error=str(exc))

    def _read_pins(self) -> dict[str, int]:
        """The saved pins; nothing when the file is missing or not what was written."""
        try:
            fd = os.open(self.directory / PINS, os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(fd, encoding="utf-8") as fh:
                data: Any = json.load(fh)
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and type(v) is int}


__all__ = ["SlotFiles", "prepare", "slot_dir"]
