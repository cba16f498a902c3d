"""The polling chat channel: what every chat app polled for messages (Telegram, Matrix) shares.

An adapter says how to log in, how to fetch the next messages (accepting them durably in its
ledger before the service forgets them), how to read one as an :class:`InboundMessage`, how to
send a reply and how to show the bot typing. This base does the rest:

``serve`` reports started at once, then logs in, retrying with backoff (honouring the service's
``retry_after``) while the service cannot be reached; ``ready`` is False meanwhile, so a dead
network never blocks the daemon or its other channels. It answers first what the ledger still
holds from before a restart, then polls for ever. Chats are answered concurrently, the messages
of one chat in order, at most ``max_pending`` at once (:mod:`channels.chat.queues`).

Each message runs in its sender's tenant, in the session ``<channel>:<chat id>`` of that tenant
(plus the generation its ``reset`` reached). Commands are answered without the model
(:mod:`channels.chat.commands`); the model's turn carries the message's platform id as its
request key, so a message answered again after a crash is stored and answered once
(:mod:`channels.chat.turn`). The reply, once begun, is sent and recorded even when the channel
is cancelled; a reply cut off by shutdown would otherwise be sent again after the restart.
"""

from __future__ import annotations

from abc import abstractmethod
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

import anyio
import structlog
from anyio.abc import TaskGroup, TaskStatus

from agentd import scope as scopes
from agentd.backoff import Backoff
from agentd.errors import ChannelError
from channels.base import InboundMessage, Target
from channels.chat.commands import answer_command
from channels.chat.ledger import ChatLedger
from channels.chat.ledgered import LedgerChannel
from channels.chat.queues import ChatQueues
from channels.chat.turn import run_turn

if TYPE_CHECKING:
    from agentd.engine.runtime import Runtime

T = TypeVar("T")
L = TypeVar("L", bound=ChatLedger[Any, Any])


class ChatSettings(Protocol):
    """What the base reads of a chat channel's settings."""

    @property
    def backoff_initial(self) -> float: ...
    @property
    def backoff_max(self) -> float: ...
    @property
    def max_pending(self) -> int: ...
    @property
    def reply_timeout(self) -> float: ...


class ChatChannel(LedgerChannel[L], Generic[T, L]):
    """A chat bot polled for items ``T`` kept in a ledger ``L``; use as ``async with``."""

    #: The answer to ``help``.
    help_text: ClassVar[str]
    #: Seconds between two typing notices while a turn runs.
    typing_every: ClassVar[float]

    def __init__(self, settings: ChatSettings, *, state_path: Path) -> None:
        super().__init__(state_path=state_path)
        self.settings = settings
        self.log = structlog.get_logger(f"channels.{self.name}")

    def _backoff(self) -> Backoff:
        return Backoff(self.settings.backoff_initial, self.settings.backoff_max)

    async def deliver(self, target: Target, text: str) -> None:
        """Send ``text`` to ``<channel>:<address>`` (split and formatted like a reply).

        Raises the channel's ChannelError when the service refuses it or stays unreachable.
        """
        if target.channel != self.name:
            raise ValueError(f"{target} is not a {self.name} target")
        self._check_address(target)
        if text.strip():
            await self._deliver(target.address, text)

    async def serve(
        self, runtime: Runtime, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED
    ) -> None:
        """Answer messages until cancelled."""
        ledger = self.ledger
        # A restarted serve starts afresh: the ledger still holds what was not answered.
        queues = ChatQueues(
            self.settings.max_pending, self._chat_of, partial(self._answer, runtime)
        )
        async with anyio.create_task_group() as tg:
            task_status.started()
            await self._connect()
            for item in ledger.replay():
                await queues.put(tg, item)
            await self._poll(tg, queues)

    async def _connect(self) -> None:
        backoff = self._backoff()
        while True:
            try:
                about = await self._login()
                break
            except ChannelError as exc:
                self.log.warning(f"{self.name}.unreachable", error=str(exc), hint=self._hint(exc))
                await anyio.sleep(backoff.next_delay(retry_after=exc.retry_after))
        self._ready = True
        self.log.info(f"{self.name}.ready", **about)

    async def _poll(self, tg: TaskGroup, queues: ChatQueues[T]) -> None:
        backoff = self._backoff()
        while True:
            if not self._logged_in():
                await self._connect()
            await queues.acquire()  # room for at least one more item
            try:
                items = await self._fetch(queues.free + 1)
            except ChannelError as exc:
                queues.release()
                # The first failure is a warning; while it lasts, each retry is an info line.
                level = self.log.warning if self._ready else self.log.info
                level(f"{self.name}.unreachable", error=str(exc), hint=self._hint(exc))
                self._ready = False
                self._fetch_failed(exc)
                await anyio.sleep(backoff.next_delay(retry_after=exc.retry_after))
                continue
            if not self._ready:
                self.log.info(f"{self.name}.reconnected")
            self._ready = True
            backoff.reset()
            await queues.put_polled(tg, items)

    async def _answer(self, runtime: Runtime, item: T) -> None:
        """Answer one item and record it; a shutdown may cut the turn but not the reply."""
        ledger = self.ledger
        with structlog.contextvars.bound_contextvars(**self._log_context(item)):
            inbound: InboundMessage | None = None
            answer: str | None = None
            try:
                inbound = self._inbound(item)
                if inbound is not None:
                    answer = await self._prepare(runtime, inbound)
            except Exception:
                # One bad item must not stop the chat or the channel. It is not retried: a
                # poison message would otherwise come back after every restart.
                self.log.exception(f"{self.name}.update_failed")
            # From the first byte of the reply on, finish sending and record it even when
            # cancelled: a reply cut off by shutdown would be sent again after the restart.
            with anyio.CancelScope(shield=True):
                if inbound is not None and answer is not None:
                    with anyio.move_on_after(self.settings.reply_timeout) as timer:
                        try:
                            await self._reply(item, inbound, answer)
                        except ChannelError as exc:
                            self.log.warning(f"{self.name}.reply_failed", error=str(exc))
                    if timer.cancelled_caught:
                        self.log.warning(f"{self.name}.reply_abandoned")
                await ledger.finish(ledger.key_of(item))

    async def _prepare(self, runtime: Runtime, inbound: InboundMessage) -> str:
        """The answer to ``inbound``: a command's, or the model's (running the turn)."""
        ledger = self.ledger
        scope = scopes.Scope(tenant=inbound.meta["tenant"])
        # In a group each member's tenant has a conversation of its own, reset on its own.
        member = scope.tenant if inbound.meta.get("group") else None
        session = inbound.session_id + ledger.session_suffix(inbound.chat_id, member)
        with (
            structlog.contextvars.bound_contextvars(
                chat=inbound.chat_id, tenant=scope.tenant, session=session
            ),
            scopes.use(scope),
        ):
            word = self._command_word(inbound.text)
            if word is not None:
                answer = await answer_command(
                    word,
                    runtime,
                    inbound,
                    session,
                    ledger=ledger,
                    help_text=self.help_text,
                    member=member,
                )
                if answer is not None:
                    return answer
            return await run_turn(
                runtime,
                inbound,
                session,
                scope,
                # A group is anyone in it: the tool policy's narrower rule (no exec).
                audience=f"{self.name}_group"
                if inbound.meta.get("group")
                else f"{self.name}_private",
                typing=partial(self._typing, inbound.chat_id),
                typing_off=partial(self._typing_off, inbound.chat_id),
            )

    async def _typing(self, chat_id: str) -> None:
        while True:
            try:
                await self._show_typing(chat_id)
            except ChannelError as exc:
                self.log.debug(f"{self.name}.typing_failed", error=str(exc))
            await anyio.sleep(self.typing_every)

    async def _typing_off(self, chat_id: str) -> None:
        """Withdraw the typing notice after an answered turn (where the service has one)."""

    # What an adapter adds.

    @abstractmethod
    async def _login(self) -> dict[str, Any]:
        """Log in or identify the bot (raising ChannelError); what the ready line says."""

    def _logged_in(self) -> bool:
        """False when the next poll must log in again first."""
        return True

    @abstractmethod
    async def _fetch(self, limit: int) -> list[T]:
        """Poll the service for at most about ``limit`` new items; accept and return those to
        answer (raising ChannelError when the service fails)."""

    def _fetch_failed(self, exc: ChannelError) -> None:
        """React to a failed poll (the wait and the log line are the base's)."""

    @abstractmethod
    def _chat_of(self, item: T) -> str:
        """The chat ``item`` belongs to: its messages are answered in order."""

    @abstractmethod
    def _log_context(self, item: T) -> dict[str, Any]:
        """What the log lines about ``item`` carry."""

    @abstractmethod
    def _inbound(self, item: T) -> InboundMessage | None:
        """``item`` as a message to answer, or None when it gets no answer."""

    @abstractmethod
    def _command_word(self, text: str) -> str | None:
        """The bare command word ``text`` starts with (``help``, ``reset``...), or None."""

    @abstractmethod
    async def _show_typing(self, chat_id: str) -> None:
        """Show the bot typing in ``chat_id`` once (the base renews it)."""

    @abstractmethod
    async def _reply(self, item: T, inbound: InboundMessage, text: str) -> None:
        """Send ``text`` as the answer to ``item``."""

    def _check_address(self, target: Target) -> None:
        """Raise ValueError when ``target``'s address cannot be a chat of this service."""

    @abstractmethod
    async def _deliver(self, address: str, text: str) -> None:
        """Send ``text`` to the chat ``address``, unprompted."""

    @abstractmethod
    def _hint(self, exc: ChannelError) -> str:
        """What to do about ``exc``, for the log."""
