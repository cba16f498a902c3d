"""The Telegram channel: long polling of the Bot API, replies from the runtime, cron deliveries.

``serve`` reports started at once and then polls ``getUpdates`` for ever; while Telegram cannot
be reached it retries with backoff (honouring ``retry_after``) and ``ready`` is False, so a dead
network never blocks the daemon or its other channels. Each update is accepted durably before
Telegram forgets it (see ``telegram_state``); chats are answered concurrently, the messages of
one chat in order, at most ``max_pending`` updates at once.

Access is denied by default: only senders in ``allow_from`` (user ids or ``@usernames``) are
answered; refused senders get nothing. Each message runs in its sender's tenant (see
:mod:`channels.telegram.senders`), in the session ``telegram:<chat id>`` of that tenant. In
groups the bot answers only when it is mentioned or replied to, and a message runs in its
sender's tenant too: members of different tenants each continue their own conversation of the
group and never see each other's. ``/reset`` starts a new session for the chat, ``/status``
answers without the model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import anyio
import httpx
import structlog
from anyio.abc import TaskGroup, TaskStatus

from agentd import scope as scopes
from agentd.backoff import Backoff
from agentd.config import Settings, TelegramSettings
from agentd.errors import ConfigError, TelegramError
from channels.base import InboundMessage, Target
from channels.chat.commands import answer_command
from channels.chat.queues import ChatQueues
from channels.chat.turn import run_turn
from channels.telegram.api import BotAPI, with_retries
from channels.telegram.format import render_parts
from channels.telegram.senders import Senders
from channels.telegram.state import Update, UpdateLedger

if TYPE_CHECKING:
    from agentd.engine.runtime import Runtime

log = structlog.get_logger("channels.telegram")

#: How many times one reply part is tried when Telegram fails transiently.
SEND_ATTEMPTS = 6
#: Telegram shows "typing..." for about 5 seconds; it is renewed a little sooner.
TYPING_EVERY = 4.5
GROUP_TYPES = frozenset({"group", "supergroup"})
HELP = "Send me a message. /reset starts a new conversation, /status tells how I am."


@dataclass(frozen=True, slots=True)
class _Reply:
    chat_id: str
    text: str
    reply_to: int | None


class TelegramChannel:
    """A Telegram bot. Use as ``async with TelegramChannel(...) as tg:`` then serve or deliver."""

    name = "telegram"

    def __init__(
        self,
        settings: TelegramSettings,
        *,
        state_path: Path,
        http: httpx.AsyncClient | None = None,
    ) -> None:
        if settings.token is None or not settings.token.get_secret_value():
            raise ConfigError(
                "channels.telegram.token",
                "default",
                "not set: put the token from @BotFather in TELEGRAM_BOT_TOKEN",
            )
        self.settings = settings
        self.state_path = state_path
        self._token = settings.token.get_secret_value()
        self._given_http = http
        self._http: httpx.AsyncClient | None = None
        self._api_client: BotAPI | None = None
        self._senders = Senders(settings.allow_from)
        self._ledger: UpdateLedger | None = None
        self._bot_id: int | None = None
        self._mention: re.Pattern[str] | None = None
        self._ready = False

    @classmethod
    def from_settings(cls, settings: Settings) -> TelegramChannel:
        """The channel configured by ``settings.channels.telegram``."""
        tg = settings.channels.telegram
        return cls(tg, state_path=(tg.state_file or settings.state_dir / "telegram.json"))

    async def __aenter__(self) -> Self:
        self._ledger = await UpdateLedger.load(self.state_path.expanduser())
        self._http = self._given_http or httpx.AsyncClient(
            timeout=httpx.Timeout(30.0, connect=10.0)
        )
        self._api_client = BotAPI(self._http, base_url=self.settings.base_url, token=self._token)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._ready = False
        self._api_client = None
        http, self._http = self._http, None
        if http is not None and http is not self._given_http:
            with anyio.move_on_after(5, shield=True):
                await http.aclose()

    @property
    def ready(self) -> bool:
        """True while the Bot API answers; False before the first answer and while retrying."""
        return self._ready

    @property
    def ledger(self) -> UpdateLedger:
        if self._ledger is None:
            raise RuntimeError("use the channel as `async with TelegramChannel(...)` first")
        return self._ledger

    @property
    def _api(self) -> BotAPI:
        if self._api_client is None:
            raise RuntimeError("use the channel as `async with TelegramChannel(...)` first")
        return self._api_client

    async def deliver(self, target: Target, text: str) -> None:
        """Send ``text`` to ``telegram:<chat_id>`` (split and formatted like a reply).

        Raises TelegramError when Telegram refuses it or stays unreachable.
        """
        if target.channel != self.name:
            raise ValueError(f"{target} is not a telegram target")
        if text.strip():
            await self._send(target.address, text)

    async def serve(
        self, runtime: Runtime, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED
    ) -> None:
        """Answer messages until cancelled."""
        ledger = self.ledger
        # A restarted serve starts afresh: the ledger still holds what was not answered.
        queues = ChatQueues(self.settings.max_pending, _chat_of, partial(self._answer, runtime))
        async with anyio.create_task_group() as tg:
            task_status.started()
            await self._identify()
            for update in ledger.replay():
                await queues.put(tg, update)
            await self._poll(tg, queues)

    async def _identify(self) -> None:
        backoff = Backoff(self.settings.backoff_initial, self.settings.backoff_max)
        while True:
            try:
                me = await self._api.call("getMe")
                break
            except TelegramError as exc:
                log.warning("telegram.unreachable", error=str(exc), hint=_hint(exc))
                await anyio.sleep(backoff.next_delay(retry_after=exc.retry_after))
        self._bot_id = int(me["id"])
        username = str(me.get("username") or "")
        self._mention = re.compile(rf"@{re.escape(username)}\b", re.I) if username else None
        self._ready = True
        log.info("telegram.ready", bot=username)

    async def _poll(self, tg: TaskGroup, queues: ChatQueues[Update]) -> None:
        ledger = self.ledger
        backoff = Backoff(self.settings.backoff_initial, self.settings.backoff_max)
        timeout = self.settings.poll_timeout
        while True:
            await queues.acquire()  # room for at least one more update
            try:
                updates = await self._api.call(
                    "getUpdates",
                    http_timeout=timeout + 15.0,
                    offset=ledger.offset,
                    timeout=timeout,
                    limit=min(100, queues.free + 1),
                    allowed_updates=["message"],
                )
            except TelegramError as exc:
                queues.release()
                # The first failure is a warning; while it lasts, each retry is an info line.
                level = log.warning if self._ready else log.info
                level("telegram.unreachable", error=str(exc), hint=_hint(exc))
                self._ready = False
                await anyio.sleep(backoff.next_delay(retry_after=exc.retry_after))
                continue
            if not self._ready:
                log.info("telegram.reconnected")
            self._ready = True
            backoff.reset()
            await queues.put_polled(tg, await ledger.accept(updates or []))

    async def _answer(self, runtime: Runtime, update: Update) -> None:
        """Answer one update and record it; a shutdown may cut the turn but not the reply."""
        update_id = int(update["update_id"])
        reply: _Reply | None = None
        try:
            reply = await self._prepare(runtime, update)
        except Exception:
            # One bad update must not stop the chat or the channel. It is not retried: a
            # poison message would otherwise come back after every restart.
            log.exception("telegram.update_failed", update_id=update_id)
        # From the first byte of the reply on, finish sending and record it even when
        # cancelled: a reply cut off by shutdown would be sent again after the restart.
        with anyio.CancelScope(shield=True):
            if reply is not None:
                with anyio.move_on_after(self.settings.reply_timeout) as timer:
                    try:
                        await self._send(reply.chat_id, reply.text, reply_to=reply.reply_to)
                    except TelegramError as exc:
                        log.warning("telegram.reply_failed", update_id=update_id, error=str(exc))
                if timer.cancelled_caught:
                    log.warning("telegram.reply_abandoned", update_id=update_id)
            await self.ledger.finish(update_id)

    async def _prepare(self, runtime: Runtime, update: Update) -> _Reply | None:
        """What to answer ``update`` with (running the turn), or None when it gets no answer."""
        message = update.get("message")
        if not isinstance(message, dict):
            return None
        inbound = self._admit(message)
        if inbound is None:
            return None
        reply_to = inbound.meta["message_id"] if inbound.meta["group"] else None
        session = inbound.session_id + self.ledger.session_suffix(inbound.chat_id)
        scope = scopes.Scope(tenant=inbound.meta["tenant"])
        with (
            structlog.contextvars.bound_contextvars(chat=inbound.chat_id, tenant=scope.tenant),
            scopes.use(scope),
        ):
            answer = await self._command(runtime, inbound, session)
            if answer is None:
                answer = await self._turn(runtime, inbound, session, scope)
        return _Reply(inbound.chat_id, answer, reply_to)

    def _admit(self, message: dict[str, Any]) -> InboundMessage | None:
        """The message as an InboundMessage, or None when it is not for the bot to answer."""
        chat = message.get("chat") or {}
        sender = message.get("from") or {}
        text = str(message.get("text") or message.get("caption") or "")
        group = chat.get("type") in GROUP_TYPES
        if group and not self._addressed(message, text):
            return None
        sender_id = str(sender.get("id", ""))
        username = str(sender.get("username") or "")
        tenant = self._senders.tenant_of(sender_id, username)
        if tenant is None:
            log.info("telegram.refused", chat=chat.get("id"), sender=sender_id, username=username)
            return None
        if group and self._mention is not None:
            text = self._mention.sub("", text).strip()
        if not text.strip():
            return None
        meta = {
            "message_id": message.get("message_id"),
            "group": group,
            "username": username,
            "tenant": tenant,
        }
        return InboundMessage(self.name, str(chat.get("id")), sender_id, text, meta)

    def _addressed(self, message: dict[str, Any], text: str) -> bool:
        replied = (message.get("reply_to_message") or {}).get("from") or {}
        if self._bot_id is not None and replied.get("id") == self._bot_id:
            return True
        if self._mention is not None and self._mention.search(text):
            return True
        entities = message.get("entities") or message.get("caption_entities") or []
        return any(
            e.get("type") == "text_mention" and (e.get("user") or {}).get("id") == self._bot_id
            for e in entities
        )

    async def _command(self, runtime: Runtime, inbound: InboundMessage, session: str) -> str | None:
        """The answer to a command (``/status``, ``/reset@bot``), or None when the text is for
        the model."""
        if not inbound.text.startswith("/"):
            return None
        word = inbound.text.split(maxsplit=1)[0].split("@", 1)[0].lower().removeprefix("/")
        return await answer_command(
            "help" if word == "start" else word,
            runtime,
            inbound,
            session,
            ledger=self.ledger,
            help_text=HELP,
        )

    async def _turn(
        self, runtime: Runtime, inbound: InboundMessage, session: str, scope: scopes.Scope
    ) -> str:
        return await run_turn(
            runtime,
            inbound,
            session,
            scope,
            # A group chat is anyone in it: the policy's narrower rule (no exec).
            audience="telegram_group" if inbound.meta.get("group") else "telegram_private",
            typing=partial(self._typing, inbound.chat_id),
        )

    async def _typing(self, chat_id: str) -> None:
        while True:
            try:
                await self._api.call("sendChatAction", chat_id=chat_id, action="typing")
            except TelegramError as exc:
                log.debug("telegram.typing_failed", error=str(exc))
            await anyio.sleep(TYPING_EVERY)

    async def _send(self, chat_id: str, text: str, *, reply_to: int | None = None) -> None:
        backoff = Backoff(self.settings.backoff_initial, self.settings.backoff_max)
        for part in render_parts(text, self.settings.parse_mode):
            params: dict[str, Any] = {"chat_id": chat_id, "text": part.text}
            if reply_to is not None:
                params["reply_parameters"] = {
                    "message_id": reply_to,
                    "allow_sending_without_reply": True,
                }
            try:
                await self._send_part(params, part.parse_mode, backoff)
            except TelegramError as exc:
                if not _bad_entities(exc):
                    raise
                log.info("telegram.plain_fallback", error=str(exc))
                await self._send_part({**params, "text": part.source}, None, backoff)
            reply_to = None  # only the first part quotes the question

    async def _send_part(
        self, params: dict[str, Any], parse_mode: str | None, backoff: Backoff
    ) -> None:
        async def send() -> None:
            await self._api.call("sendMessage", parse_mode=parse_mode, **params)

        await with_retries(send, backoff=backoff, attempts=SEND_ATTEMPTS)


def _chat_of(update: Update) -> str:
    message = update.get("message")
    return str(message["chat"]["id"]) if isinstance(message, dict) else ""


def _bad_entities(exc: TelegramError) -> bool:
    return exc.status == 400 and "parse entities" in exc.description.lower()


def _hint(exc: TelegramError) -> str:
    if exc.status in (401, 404):
        return "the bot token is rejected: check channels.telegram.token / TELEGRAM_BOT_TOKEN"
    if exc.status == 409:
        return "another getUpdates poller or a webhook is active for this bot"
    return "retrying with backoff"
