"""The channel protocol: how messages reach the runtime and how replies leave.

A channel is an async context manager (it owns its connections) with ``serve(runtime, *,
task_status)``, which calls ``task_status.started()`` once it accepts messages and then runs until
cancelled. A channel that can send unprompted (for heartbeat deliveries) also has
``deliver(target, text)``; targets are written ``"<channel>:<address>"``, e.g. ``telegram:42``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, Self, runtime_checkable

from anyio.abc import TaskStatus

if TYPE_CHECKING:
    from agentd.engine.runtime import Runtime


@dataclass(frozen=True, slots=True)
class InboundMessage:
    """A message a channel received from a sender it has already allowed."""

    channel: str
    chat_id: str
    sender: str
    text: str
    meta: dict[str, Any] = field(default_factory=dict)
    #: The service's own id of this message (Telegram's update id, Matrix's event id): what
    #: makes the same message, received again after a crash, recognisable. Empty when none.
    message_id: str = ""

    @property
    def session_id(self) -> str:
        return f"{self.channel}:{self.chat_id}"

    @property
    def request_key(self) -> str | None:
        """The turn's idempotency key: the message id in its channel and chat (ids of two
        chats or two channels never collide), or None without a message id."""
        if not self.message_id:
            return None
        return f"{self.channel}:{self.chat_id}:{self.message_id}"


@dataclass(frozen=True, slots=True)
class Target:
    """Where a delivery goes: a channel name and an address inside it."""

    channel: str
    address: str

    @classmethod
    def parse(cls, text: str) -> Target:
        channel, sep, address = text.partition(":")
        if not sep or not channel or not address:
            raise ValueError(f"delivery target {text!r} must look like 'channel:address'")
        return cls(channel, address)

    def __str__(self) -> str:
        return f"{self.channel}:{self.address}"


@runtime_checkable
class Channel(Protocol):
    """What every channel provides."""

    name: str

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None: ...

    async def serve(self, runtime: Runtime, *, task_status: TaskStatus[None]) -> None: ...


@runtime_checkable
class Deliverer(Protocol):
    """A channel that can send a message nobody asked for (cron deliveries)."""

    name: str

    async def deliver(self, target: Target, text: str) -> None: ...
