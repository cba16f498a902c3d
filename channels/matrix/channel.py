"""The Matrix channel: ``/sync`` long polling, on the chat channels' base.

The base (:mod:`channels.chat.channel`) logs in, polls, answers and records; this adapter says
how: a login (:mod:`channels.matrix.client`), ``/sync`` long polls whose events the bot will
answer are accepted durably with the next sync token (:mod:`channels.matrix.state`), replies
are sent as HTML with a plain body (:mod:`channels.matrix.format`), in the message's thread.

Access is denied by default: only users in ``allow_from`` are answered, and only their invites
are accepted (others are rejected). Each message runs in its sender's tenant (see
:mod:`channels.matrix.senders`), in the session ``matrix:<room id>`` of that tenant. In a room
of more than two members the bot answers only when named (pill, user id or display name) or
replied to; in a direct room, always. An edit (``m.replace``) is answered as a new message,
redactions and the bot's own messages are ignored, and on the very first start (no sync token
yet) the rooms' past is not answered. ``!reset`` starts a new session, ``!status`` answers
without the model.

End-to-end encryption is not supported: the bot cannot read encrypted messages, and says so
once in each encrypted room instead of pretending to answer.
"""

from __future__ import annotations

import hashlib
import uuid
from collections import OrderedDict
from functools import partial
from pathlib import Path
from typing import Any

from agentd.config import MatrixSettings, Settings
from agentd.errors import ChannelError, MatrixError
from channels.base import InboundMessage, Target
from channels.chat.channel import ChatChannel
from channels.matrix.client import BAD_TOKEN, Homeserver
from channels.matrix.events import Mentions, Message, parse_message
from channels.matrix.format import render_parts
from channels.matrix.senders import Senders
from channels.matrix.state import Pending, SyncLedger

#: The typing notice is asked for this long and renewed before it runs out.
TYPING_MS = 30_000
TYPING_EVERY = 20.0
HELP = "Send me a message. !reset starts a new conversation, !status tells how I am."
ENCRYPTED = (
    "This room is end-to-end encrypted, and I cannot read encrypted messages: I will not "
    "answer here. Talk to me in a room without encryption."
)
#: Events of our own sending remembered, to recognise replies to the bot without a lookup.
_MINE_KEPT = 1024
#: Synapse gives a room's timeline only its last 10 events per sync unless asked for more: a
#: bot that was down while a room talked would otherwise miss messages.
SYNC_FILTER = {"room": {"timeline": {"limit": 200}}}


class MatrixChannel(ChatChannel[Pending, SyncLedger]):
    """A Matrix bot. Use as ``async with MatrixChannel(...) as mx:`` then serve or deliver."""

    name = "matrix"
    help_text = HELP
    typing_every = TYPING_EVERY
    settings: MatrixSettings

    def __init__(
        self, settings: MatrixSettings, *, state_path: Path, session_path: Path | None = None
    ) -> None:
        super().__init__(settings, state_path=state_path)
        self.session_path = session_path or state_path.with_name("matrix-session.json")
        self._senders = Senders(settings.allow_from)
        self._hs: Homeserver | None = None
        self._mentions = Mentions(settings.user_id, None)
        self._mine: OrderedDict[str, bool] = OrderedDict()
        self._full_state = True

    @classmethod
    def from_settings(cls, settings: Settings) -> MatrixChannel:
        """The channel configured by ``settings.channels.matrix``."""
        mx = settings.channels.matrix
        return cls(
            mx,
            state_path=(mx.state_file or settings.state_dir / "matrix.json"),
            session_path=settings.state_dir / "matrix-session.json",
        )

    async def _load_ledger(self, path: Path) -> SyncLedger:
        return await SyncLedger.load(path)

    async def _open(self) -> None:
        self._hs = Homeserver(self.settings, session_path=self.session_path.expanduser())

    async def _close(self) -> None:
        hs, self._hs = self._hs, None
        if hs is not None:
            await hs.aclose()

    @property
    def _server(self) -> Homeserver:
        if self._hs is None:
            raise RuntimeError("use the channel as `async with MatrixChannel(...)` first")
        return self._hs

    async def _login(self) -> dict[str, Any]:
        await self._server.login()
        name = await self._server.display_name()
        self._mentions = Mentions(self.settings.user_id, name)
        # The first sync after a login asks for the rooms' full state, so who is in each room
        # and whether it is encrypted are known after a restart, not only after they change.
        self._full_state = True
        return {"user": self.settings.user_id, "display_name": name}

    def _logged_in(self) -> bool:
        return self._server.logged_in

    async def _fetch(self, limit: int) -> list[Pending]:
        # A sync brings every room's news at once: ``limit`` is for the queues to hold back.
        response = await self._server.call(
            "sync",
            self._server.client.sync(
                timeout=self.settings.poll_timeout * 1000,
                since=self.ledger.since,
                full_state=self._full_state,
                sync_filter=SYNC_FILTER,
            ),
        )
        self._full_state = False
        admitted = await self._admit_sync(response)
        return await self.ledger.accept(response.next_batch, admitted)

    def _fetch_failed(self, exc: ChannelError) -> None:
        if isinstance(exc, MatrixError) and exc.code in BAD_TOKEN:
            self._server.token_rejected()  # a password login logs in again

    def _chat_of(self, item: Pending) -> str:
        return item.room_id

    def _log_context(self, item: Pending) -> dict[str, Any]:
        return {"channel": self.name, "room": item.room_id, "event": item.event_id}

    def _inbound(self, item: Pending) -> InboundMessage | None:
        return InboundMessage(
            self.name,
            item.room_id,
            item.sender,
            item.text,
            {"group": item.group, "tenant": item.tenant, "event_id": item.event_id},
            message_id=item.event_id,
        )

    def _command_word(self, text: str) -> str | None:
        """``!status``: the bare word."""
        if not text.startswith("!"):
            return None
        return text.split(maxsplit=1)[0].lower().removeprefix("!")

    async def _show_typing(self, chat_id: str) -> None:
        client = self._server.client
        await self._server.call("typing", client.room_typing(chat_id, True, timeout=TYPING_MS))

    async def _typing_off(self, chat_id: str) -> None:
        try:
            await self._server.call("typing", self._server.client.room_typing(chat_id, False))
        except MatrixError as exc:
            self.log.debug("matrix.typing_failed", error=str(exc))

    async def _reply(self, item: Pending, inbound: InboundMessage, text: str) -> None:
        # The transaction id comes from the event answered: the homeserver drops a repeat.
        await self._send(item.room_id, text, txn=_txn(item.event_id, 0), relates=_relation(item))

    def _check_address(self, target: Target) -> None:
        if not target.address.startswith("!"):
            raise ValueError(f"{target}: a matrix target is a room id, matrix:!room:server")

    async def _deliver(self, address: str, text: str) -> None:
        await self._server.login()
        await self._send(address, text, txn=uuid.uuid4().hex)

    def _hint(self, exc: ChannelError) -> str:
        code = exc.code if isinstance(exc, MatrixError) else ""
        if code in BAD_TOKEN:
            return "the access token is rejected: check channels.matrix.access_token"
        if code == "M_FORBIDDEN":
            return "the homeserver refused the login: check channels.matrix.user_id and password"
        return "retrying with backoff"

    async def _admit_sync(self, response: Any) -> list[Pending]:
        """The messages of one sync to answer; invites and encrypted rooms are handled here."""
        first_ever = self.ledger.since is None
        for room_id, info in response.rooms.invite.items():
            await self._invited(room_id, info.invite_state)
        admitted: list[Pending] = []
        for room_id, info in response.rooms.join.items():
            room = self._server.client.rooms.get(room_id)
            if room is not None and room.encrypted:
                await self._encrypted(room_id)
                continue
            if first_ever:
                if info.timeline.events:
                    self.log.info(
                        "matrix.history_skipped", room=room_id, events=len(info.timeline.events)
                    )
                continue
            events = [e.source for e in info.timeline.events]
            fresh = _after_own_join(events, self._me)
            if info.timeline.limited and len(fresh) == len(events):
                # More than SYNC_FILTER's limit since the last sync: the oldest were cut.
                self.log.warning("matrix.timeline_gap", room=room_id, kept=len(events))
            for event in fresh:
                pending = await self._admit(room_id, room, event)
                if pending is not None:
                    admitted.append(pending)
        return admitted

    @property
    def _me(self) -> str:
        return self.settings.user_id

    async def _invited(self, room_id: str, state: list[Any]) -> None:
        # nio's invite events (it takes "content" out of their source): who invited the bot.
        inviter = next(
            (
                str(e.sender)
                for e in state
                if getattr(e, "state_key", None) == self._me
                and getattr(e, "membership", None) == "invite"
            ),
            "",
        )
        client = self._server.client
        try:
            if self._senders.allows(inviter):
                await self._server.retrying("join", partial(client.join, room_id))
                self.log.info("matrix.joined", room=room_id, inviter=inviter)
            else:
                await self._server.retrying("leave", partial(client.room_leave, room_id))
                self.log.info("matrix.invite_refused", room=room_id, inviter=inviter)
        except MatrixError as exc:
            self.log.warning("matrix.invite_failed", room=room_id, error=str(exc))

    async def _encrypted(self, room_id: str) -> None:
        """Say once in ``room_id`` that the bot cannot read it."""
        if not await self.ledger.notify_once(room_id):
            return
        self.log.info("matrix.encrypted_room", room=room_id)
        try:
            await self._send(room_id, ENCRYPTED, txn=_txn(f"encrypted:{room_id}", 0))
        except MatrixError as exc:
            self.log.warning("matrix.notice_failed", room=room_id, error=str(exc))

    async def _admit(self, room_id: str, room: Any, event: dict[str, Any]) -> Pending | None:
        """``event`` as a message to answer, or None when it is not for the bot to answer."""
        if event.get("sender") == self._me:
            return None
        if event.get("type") == "m.room.encrypted":
            await self._encrypted(room_id)
            return None
        message = parse_message(event)
        if message is None or not message.event_id:
            return None
        group = room is None or room.member_count > 2
        if group and not await self._addressed(room_id, message):
            return None
        tenant = self._senders.tenant_of(message.sender)
        if tenant is None:
            self.log.info("matrix.refused", room=room_id, sender=message.sender)
            return None
        text = self._mentions.remove(message.text) if group else message.text.strip()
        if not text:
            return None
        return Pending(
            event_id=message.event_id,
            room_id=room_id,
            sender=message.sender,
            tenant=tenant,
            text=text,
            group=group,
            thread=message.thread,
            quote=group or message.reply_to is not None,
        )

    async def _addressed(self, room_id: str, message: Message) -> bool:
        if self._mentions.named(message):
            return True
        if message.reply_to is None:
            return False
        if message.reply_to in self._mine:
            return True
        try:
            replied = await self._server.call(
                "event", self._server.client.room_get_event(room_id, message.reply_to)
            )
        except MatrixError as exc:
            self.log.info("matrix.reply_lookup_failed", room=room_id, error=str(exc))
            return False
        return bool(replied.event.sender == self._me)

    async def _send(
        self, room_id: str, text: str, *, txn: str, relates: dict[str, Any] | None = None
    ) -> None:
        """Send ``text`` in parts; each part's transaction id is ``txn`` and its index, so a
        repeat of the same send (a retry, a restart) is dropped by the homeserver."""
        client = self._server.client
        for index, part in enumerate(render_parts(text, self.settings.max_message_chars)):
            content = part.content()
            if relates is not None:
                content["m.relates_to"] = relates
            part_txn = f"{txn}.{index}"
            send = partial(client.room_send, room_id, "m.room.message", content, part_txn)
            response = await self._server.retrying("send", send)
            self._remember(response.event_id)
            # Only the first part quotes the question; a thread keeps every part.
            relates = _thread_only(relates)

    def _remember(self, event_id: str) -> None:
        self._mine[event_id] = True
        while len(self._mine) > _MINE_KEPT:
            self._mine.popitem(last=False)


def _relation(pending: Pending) -> dict[str, Any] | None:
    """The reply's ``m.relates_to``: in the message's thread, quoting it where it should."""
    if pending.thread is not None:
        return {
            "rel_type": "m.thread",
            "event_id": pending.thread,
            "is_falling_back": False,
            "m.in_reply_to": {"event_id": pending.event_id},
        }
    if pending.quote:
        return {"m.in_reply_to": {"event_id": pending.event_id}}
    return None


def _thread_only(relates: dict[str, Any] | None) -> dict[str, Any] | None:
    if relates is None or relates.get("rel_type") != "m.thread":
        return None
    return {"rel_type": "m.thread", "event_id": relates["event_id"]}


def _after_own_join(events: list[dict[str, Any]], me: str) -> list[dict[str, Any]]:
    """The events after the bot was invited to (or joined) the room, of ``events``.

    A room's first sync after joining brings some of its past: what was written before the bot
    was invited is not addressed to it; what came between the invite and the join is (a direct
    chat's first message is often sent before the bot has accepted).
    """

    def membership(event: dict[str, Any]) -> str | None:
        if event.get("type") != "m.room.member" or event.get("state_key") != me:
            return None
        now = (event.get("content") or {}).get("membership")
        before = ((event.get("unsigned") or {}).get("prev_content") or {}).get("membership")
        return str(now) if now != before else None

    for index in range(len(events) - 1, -1, -1):
        if membership(events[index]) == "join":
            for earlier in range(index - 1, -1, -1):
                if membership(events[earlier]) == "invite":
                    return [e for e in events[earlier + 1 :] if e is not events[index]]
            return events[index + 1 :]
    return events


def _txn(event_id: str, salt: int) -> str:
    return hashlib.sha256(f"agentd:{event_id}:{salt}".encode()).hexdigest()[:32]
