"""The Telegram channel: long polling of the Bot API, on the chat channels' base.

The base (:mod:`channels.chat.channel`) logs in, polls, answers and records; this adapter says
how: ``getMe`` identifies the bot, ``getUpdates`` long-polls (each update accepted durably before
Telegram forgets it: :mod:`channels.telegram.state`), replies are split and formatted
(:mod:`channels.telegram.format`) and sent with ``sendMessage``.

Access is denied by default: only senders in ``allow_from`` (user ids or ``@usernames``) are
answered; refused senders get nothing. Each message runs in its sender's tenant (see
:mod:`channels.telegram.senders`), in the session ``telegram:<chat id>`` of that tenant. In
groups the bot answers only when it is mentioned or replied to, and a message runs in its
sender's tenant too: members of different tenants each continue their own conversation of the
group and never see each other's. ``/reset`` starts a new session, ``/status`` answers without
the model.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import anyio
import httpx

from agentd.backoff import Backoff
from agentd.config import Settings, TelegramSettings
from agentd.errors import ChannelError, ConfigError, TelegramError
from channels.base import InboundMessage
from channels.chat.channel import ChatChannel
from channels.telegram.api import BotAPI, with_retries
from channels.telegram.format import render_parts
from channels.telegram.senders import Senders
from channels.telegram.state import Update, UpdateLedger

#: How many times one reply part is tried when Telegram fails transiently.
SEND_ATTEMPTS = 6
#: Telegram shows "typing..." for about 5 seconds; it is renewed a little sooner.
TYPING_EVERY = 4.5
GROUP_TYPES = frozenset({"group", "supergroup"})
HELP = "Send me a message. /reset starts a new conversation, /status tells how I am."


class TelegramChannel(ChatChannel[Update, UpdateLedger]):
    """A Telegram bot. Use as ``async with TelegramChannel(...) as tg:`` then serve or deliver."""

    name = "telegram"
    help_text = HELP
    typing_every = TYPING_EVERY
    settings: TelegramSettings

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
        super().__init__(settings, state_path=state_path)
        self._token = settings.token.get_secret_value()
        self._given_http = http
        self._http: httpx.AsyncClient | None = None
        self._api_client: BotAPI | None = None
        self._senders = Senders(settings.allow_from)
        self._bot_id: int | None = None
        self._mention: re.Pattern[str] | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> TelegramChannel:
        """The channel configured by ``settings.channels.telegram``."""
        tg = settings.channels.telegram
        return cls(tg, state_path=(tg.state_file or settings.state_dir / "telegram.json"))

    async def _load_ledger(self, path: Path) -> UpdateLedger:
        return await UpdateLedger.load(path)

    async def _open(self) -> None:
        self._http = self._given_http or httpx.AsyncClient(
            timeout=httpx.Timeout(30.0, connect=10.0)
        )
        self._api_client = BotAPI(self._http, base_url=self.settings.base_url, token=self._token)

    async def _close(self) -> None:
        self._api_client = None
        http, self._http = self._http, None
        if http is not None and http is not self._given_http:
            with anyio.move_on_after(5, shield=True):
                await http.aclose()

    @property
    def _api(self) -> BotAPI:
        if self._api_client is None:
            raise RuntimeError("use the channel as `async with TelegramChannel(...)` first")
        return self._api_client

    async def _login(self) -> dict[str, Any]:
        me = await self._api.call("getMe")
        self._bot_id = int(me["id"])
        username = str(me.get("username") or "")
        self._mention = re.compile(rf"@{re.escape(username)}\b", re.I) if username else None
        return {"bot": username}

    async def _fetch(self, limit: int) -> list[Update]:
        timeout = self.settings.poll_timeout
        updates = await self._api.call(
            "getUpdates",
            http_timeout=timeout + 15.0,
            offset=self.ledger.offset,
            timeout=timeout,
            limit=min(100, limit),
            allowed_updates=["message"],
        )
        return await self.ledger.accept(updates or [])

    def _chat_of(self, item: Update) -> str:
        message = item.get("message")
        return str(message["chat"]["id"]) if isinstance(message, dict) else ""

    def _log_context(self, item: Update) -> dict[str, Any]:
        return {"update_id": int(item["update_id"])}

    def _inbound(self, item: Update) -> InboundMessage | None:
        """The update as an InboundMessage, or None when it is not for the bot to answer."""
        message = item.get("message")
        if not isinstance(message, dict):
            return None
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
            self.log.info(
                "telegram.refused", chat=chat.get("id"), sender=sender_id, username=username
            )
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
        # Update ids may start again after a long silence; a message id never repeats in its
        # chat: together they name this message for good.
        message_id = f"{int(item['update_id'])}.{message.get('message_id')}"
        return InboundMessage(self.name, str(chat.get("id")), sender_id, text, meta, message_id)

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

    def _command_word(self, text: str) -> str | None:
        """``/status``, ``/reset@bot``: the bare word (``/start`` is ``help``)."""
        if not text.startswith("/"):
            return None
        word = text.split(maxsplit=1)[0].split("@", 1)[0].lower().removeprefix("/")
        return "help" if word == "start" else word

    async def _show_typing(self, chat_id: str) -> None:
        await self._api.call("sendChatAction", chat_id=chat_id, action="typing")

    async def _reply(self, item: Update, inbound: InboundMessage, text: str) -> None:
        # In a group the reply quotes the question, so it is clear whom it answers.
        reply_to = inbound.meta["message_id"] if inbound.meta["group"] else None
        await self._send(inbound.chat_id, text, reply_to=reply_to)

    async def _deliver(self, address: str, text: str) -> None:
        await self._send(address, text)

    def _hint(self, exc: ChannelError) -> str:
        status = exc.status if isinstance(exc, TelegramError) else 0
        if status in (401, 404):
            return "the bot token is rejected: check channels.telegram.token / TELEGRAM_BOT_TOKEN"
        if status == 409:
            return "another getUpdates poller or a webhook is active for this bot"
        return "retrying with backoff"

    async def _send(self, chat_id: str, text: str, *, reply_to: int | None = None) -> None:
        backoff = self._backoff()
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
                self.log.info("telegram.plain_fallback", error=str(exc))
                await self._send_part({**params, "text": part.source}, None, backoff)
            reply_to = None  # only the first part quotes the question

    async def _send_part(
        self, params: dict[str, Any], parse_mode: str | None, backoff: Backoff
    ) -> None:
        async def send() -> None:
            await self._api.call("sendMessage", parse_mode=parse_mode, **params)

        await with_retries(send, backoff=backoff, attempts=SEND_ATTEMPTS)


def _bad_entities(exc: TelegramError) -> bool:
    return exc.status == 400 and "parse entities" in exc.description.lower()
