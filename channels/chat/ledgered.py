"""A channel with a durable ledger and a readiness of its own (the chat channels, email).

Entering the channel (``async with``) reads its ledger from its state file and opens what the
channel needs; leaving it closes that. ``ready`` says whether the channel is connected to its
service: the daemon's ``/readyz`` reads it (False until the channel says otherwise, and again
once it is left).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Generic, Self, TypeVar

from channels.chat.ledger import ChatLedger

L = TypeVar("L", bound=ChatLedger[Any, Any])


class LedgerChannel(ABC, Generic[L]):
    """A channel keeping its state in a ledger ``L``; use as ``async with``."""

    name: ClassVar[str]

    def __init__(self, *, state_path: Path) -> None:
        self.state_path = state_path
        self._ledger: L | None = None
        self._ready = False

    async def __aenter__(self) -> Self:
        self._ledger = await self._load_ledger(self.state_path.expanduser())
        await self._open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._ready = False
        await self._close()

    @property
    def ready(self) -> bool:
        """True while the service answers; False before its first answer and while retrying."""
        return self._ready

    @property
    def ledger(self) -> L:
        if self._ledger is None:
            raise RuntimeError(f"use the channel as `async with {type(self).__name__}(...)` first")
        return self._ledger

    @abstractmethod
    async def _load_ledger(self, path: Path) -> L:
        """The channel's ledger, read from ``path``."""

    async def _open(self) -> None:
        """Open the connection to the service (no request yet); nothing by default."""

    async def _close(self) -> None:
        """Close what :meth:`_open` opened."""
