"""The email channel: mail read over IMAP (IDLE, else polling), answered over SMTP submission.

``serve`` reports started at once, then follows the mailbox for ever: while the IMAP server
cannot be reached it retries with backoff and ``ready`` is False. New mail (UIDs past the
ledger's ``last_uid``) is fetched, taken into the ledger (:mod:`channels.email.ledger`) and
answered; threads are answered concurrently, the mail of one thread in order, at most
``max_pending`` at once. The first start follows the mailbox from its next UID: mail that was
there before is not answered.

Each mail is checked by :mod:`channels.email.admission` (the From header proves nothing);
refused mail is logged and never answered. Admitted mail runs in its sender's tenant, in the
session ``email:<thread>`` of that tenant, where the thread is the one its In-Reply-To and
References name (so an answer to the agent's reply continues the conversation). The model sees
the subject, the text (plain text preferred, HTML as text) and the attachments, saved into the
tenant's workdir within the size limit. The turn's request key is the mail's ledger key, so a
mail taken again after a crash mid-turn is stored and answered once. The reply is threaded
(``Re:``, In-Reply-To, References). ``deliver`` sends reminders and heartbeat output to
``email:<address>`` of an allowed sender.

With ``confirm_sent`` every mail the agent sends also goes to its own address; after a
restart, a reply cut off mid-send is done when its copy is in the folder, else sent again
(:mod:`channels.email.confirm`). The copies are fetched like any mail (so flagged \\Seen), kept,
and never answered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import structlog
from anyio.abc import TaskGroup, TaskStatus

from agentd import origin as origins
from agentd import scope as scopes
from agentd.backoff import Backoff
from agentd.config import EmailSettings, Settings
from agentd.errors import ConfigError, EmailError
from channels.base import InboundMessage, Target
from channels.chat.ledgered import LedgerChannel
from channels.chat.queues import ChatQueues
from channels.chat.turn import run_turn
from channels.email import smtp
from channels.email.admission import Admission, Refused
from channels.email.attachments import Saved, save_attachments
from channels.email.compose import build, notice, reply_to
from channels.email.confirm import confirmed
from channels.email.imap import Mailbox, Selected
from channels.email.ledger import MailLedger
from channels.email.mail import Mail, parse_mail

if TYPE_CHECKING:
    from email.message import EmailMessage

    from agentd.engine.runtime import Runtime

log = structlog.get_logger("channels.email")

Send = Callable[[EmailSettings, "EmailMessage", Callable[[], None]], None]
WorkdirOf = Callable[[str], Path]


@dataclass(frozen=True, slots=True)
class _Item:
    key: str
    thread: str
    mail: Mail | None  # None: the reply is stored already, only sending is left


async def _no_typing() -> None:
    """Mail has no typing notice."""


class EmailChannel(LedgerChannel[MailLedger]):
    """A mailbox the agent answers. Use as ``async with EmailChannel(...) as ch:``."""

    name = "email"

    def __init__(
        self,
        settings: EmailSettings,
        *,
        state_path: Path,
        workdir_of: WorkdirOf | None = None,
        send: Send = smtp.send,
    ) -> None:
        if not settings.address:
            raise ConfigError("channels.email.address", "default", "not set: the agent's address")
        super().__init__(state_path=state_path)
        self.settings = settings
        self._workdir_of = workdir_of
        self._send_now = send
        self._admission = Admission(settings)
        self._own = settings.address.lower()
        self._idle_refused = False
        self._replayed = False
        self._confirmed = False
        self.woken = 0
        """How many times an IDLE ended because the server announced mail (for tests)."""

    @classmethod
    def from_settings(
        cls, settings: Settings, *, workdir_of: WorkdirOf | None = None
    ) -> EmailChannel:
        """The channel configured by ``settings.channels.email``."""
        cfg = settings.channels.email
        return cls(
            cfg,
            state_path=cfg.state_file or settings.state_dir / "email.json",
            workdir_of=workdir_of,
        )

    async def _load_ledger(self, path: Path) -> MailLedger:
        return await MailLedger.load(path)

    async def deliver(self, target: Target, text: str) -> None:
        """Send ``text`` to ``email:<address>``, an address of ``allow_from`` (else EmailError:
        the channel writes only to people who may write to it)."""
        if target.channel != self.name:
            raise ValueError(f"{target} is not an email target")
        address = target.address.strip().lower()
        if not self._admission.allows(address):
            raise EmailError(
                "deliver", "the address is not in channels.email.allow_from", permanent=True
            )
        if not text.strip():
            return
        with anyio.move_on_after(self.settings.reply_timeout) as timer:
            await self._send(notice(address, text, own_address=self.settings.address))
        if timer.cancelled_caught:
            raise EmailError("deliver", "the SMTP server did not take the mail in time")

    async def serve(
        self, runtime: Runtime, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED
    ) -> None:
        """Answer mail until cancelled."""
        ledger = self.ledger
        queues: ChatQueues[_Item] = ChatQueues(
            self.settings.max_pending, lambda item: item.thread, partial(self._answer, runtime)
        )
        async with anyio.create_task_group() as tg:
            task_status.started()
            self._confirmed = not self.settings.confirm_sent
            if not self.settings.confirm_sent:
                for key, _ in ledger.in_state("sending"):
                    # It may have left before the restart: sending it again could answer twice.
                    log.warning("email.reply_unconfirmed", key=key)
                    await ledger.finish(key)
            for key, entry in ledger.in_state("answered"):
                await queues.put(tg, _Item(key, str(entry["reply"].get("thread", key)), None))
            backoff = Backoff(self.settings.backoff_initial, self.settings.backoff_max)
            self._replayed = False
            while True:
                try:
                    await self._follow(tg, queues, backoff)
                except EmailError as exc:
                    level = log.warning if self._ready else log.info
                    level("email.unreachable", error=str(exc))
                self._ready = False
                await anyio.sleep(backoff.next_delay())

    async def _follow(self, tg: TaskGroup, queues: ChatQueues[_Item], backoff: Backoff) -> None:
        """Take and dispatch new mail until the connection fails (EmailError); on the first
        connection, first the mail taken before a restart and not answered."""
        box = Mailbox(self.settings)
        try:
            selected = await anyio.to_thread.run_sync(box.open)
            if not self._confirmed:
                await self._confirm(box, tg, queues)
                self._confirmed = True
            replay = [] if self._replayed else self.ledger.in_state("new")
            self._replayed = True
            await self._check_validity(box, selected, tg, queues)
            if not self._ready:
                log.info("email.ready", uidvalidity=selected.uidvalidity, idle=selected.idle)
            self._ready = True
            backoff.reset()
            for key, entry in replay:
                if key in self.ledger.pending:  # not dropped by a UIDVALIDITY change
                    await self._take(box, tg, queues, int(entry["uid"]), again=key)
            while True:
                for uid in await anyio.to_thread.run_sync(box.uids_after, self.ledger.last_uid):
                    await self._take(box, tg, queues, uid)
                await self._wait(box, selected)
        finally:
            with anyio.move_on_after(5, shield=True):
                await anyio.to_thread.run_sync(box.close)

    async def _confirm(self, box: Mailbox, tg: TaskGroup, queues: ChatQueues[_Item]) -> None:
        """Finish each reply cut off mid-send before the restart whose copy is in the folder;
        queue the others to be sent again. Nothing changes until every search is done, so a
        connection lost meanwhile leaves all of them to the next attempt."""
        ledger = self.ledger
        left = ledger.in_state("sending")
        if not left:
            return
        ids = {key: str(entry["reply"].get("message_id", "")) for key, entry in left}
        found = await confirmed(box, ids, self.settings.confirm_wait)
        for key, entry in left:
            if key in found:
                log.info("email.reply_confirmed", key=key)
                await ledger.finish(key)
            else:
                log.warning("email.reply_resent", key=key)
                await queues.put(tg, _Item(key, str(entry["reply"].get("thread", key)), None))

    async def _check_validity(
        self, box: Mailbox, selected: Selected, tg: TaskGroup, queues: ChatQueues[_Item]
    ) -> None:
        """Follow the mailbox from its next UID on a first start; after a UIDVALIDITY change
        (the mailbox's UIDs started over), take its unseen mail not taken before."""
        ledger = self.ledger
        if ledger.uidvalidity == selected.uidvalidity:
            return
        first = ledger.uidvalidity is None
        old = [k for k, _ in ledger.in_state("new")]
        for key in old:
            await ledger.finish(key)  # its UID means nothing under the new UIDVALIDITY
        await ledger.start(selected.uidvalidity, selected.uidnext - 1)
        if first:
            return
        log.warning(
            "email.uidvalidity_changed", uidvalidity=selected.uidvalidity, unanswered_lost=len(old)
        )
        for uid in await anyio.to_thread.run_sync(box.unseen):
            await self._take(box, tg, queues, uid)

    async def _take(
        self,
        box: Mailbox,
        tg: TaskGroup,
        queues: ChatQueues[_Item],
        uid: int,
        *,
        again: str | None = None,
    ) -> None:
        """Fetch mail ``uid``, take it into the ledger (``again``: taken before a restart) and
        queue it for an answer."""
        ledger = self.ledger
        size = await anyio.to_thread.run_sync(box.size, uid)
        raw = None
        if size is not None and size <= self.settings.max_message_bytes:
            raw = await anyio.to_thread.run_sync(box.fetch, uid)
        if raw is None:
            if size is not None:
                log.warning("email.too_large", uid=uid, size=size)
            if again is not None:
                await ledger.finish(again)
            else:
                ledger.last_uid = max(ledger.last_uid, uid)
                await ledger.save()
            return
        try:
            # A large mail takes a while to parse: not in the event loop.
            mail = await anyio.to_thread.run_sync(parse_mail, raw)
        except Exception:
            log.exception("email.unreadable", uid=uid)
            mail = None
        if again is None and mail is not None and mail.sender == self._own:
            # The copy of the agent's own mail (confirm_sent): kept, flagged seen by the fetch.
            log.debug("email.own_copy", uid=uid)
            ledger.last_uid = max(ledger.last_uid, uid)
            await ledger.save()
            return
        key = again
        if key is None:
            key = await ledger.take(uid, mail.message_id if mail is not None else "")
            if key is None:
                log.info("email.duplicate", uid=uid)
                return
        if mail is None:
            await ledger.finish(key)
            return
        thread = ledger.thread_of(mail.thread_ids, mail.message_id)
        await queues.put(tg, _Item(key, thread, mail))

    async def _wait(self, box: Mailbox, selected: Selected) -> None:
        """Wait for new mail: IDLE while the server keeps it, else ``poll_interval``."""
        cfg = self.settings.imap
        if selected.idle and cfg.idle and not self._idle_refused:
            try:
                sock = await anyio.to_thread.run_sync(box.idle_start)
            except EmailError as exc:
                if not exc.permanent:
                    raise
                log.warning("email.idle_refused", error=str(exc), fallback="polling")
                self._idle_refused = True
            else:
                if not await anyio.to_thread.run_sync(box.pending):
                    with anyio.move_on_after(cfg.idle_timeout):
                        await anyio.wait_readable(sock)
                if await anyio.to_thread.run_sync(box.idle_done):
                    self.woken += 1
                return
        await anyio.sleep(cfg.poll_interval)
        await anyio.to_thread.run_sync(box.noop)

    async def _answer(self, runtime: Runtime, item: _Item) -> None:
        """Answer one mail and record each step; a shutdown may cut the turn, not the send."""
        ledger = self.ledger
        if item.mail is not None:
            try:
                reply = await self._prepare(runtime, item.key, item.thread, item.mail)
            except Exception:
                # One bad mail must not stop the thread or the channel; not retried, or a
                # poison mail would come back after every restart.
                log.exception("email.mail_failed", key=item.key)
                reply = None
            if reply is None:
                await ledger.finish(item.key)
                return
            await ledger.answered(item.key, {**reply, "thread": item.thread})
        with anyio.CancelScope(shield=True):
            stored = dict(ledger.pending[item.key]["reply"])

            def committing() -> None:  # in the sending thread, before the mail's end leaves
                anyio.from_thread.run(ledger.sending, item.key)

            with anyio.move_on_after(self.settings.reply_timeout) as timer:
                try:
                    await self._send(stored, committing)
                    log.info("email.replied", key=item.key, thread=item.thread)
                except EmailError as exc:
                    log.warning("email.reply_failed", key=item.key, error=str(exc))
            if timer.cancelled_caught:
                log.warning("email.reply_abandoned", key=item.key)
            await ledger.finish(item.key)

    async def _prepare(
        self, runtime: Runtime, key: str, thread: str, mail: Mail
    ) -> dict[str, Any] | None:
        """The stored form of the reply to ``mail`` (running the turn), or None: no answer."""
        verdict = self._admission.check(mail)
        if isinstance(verdict, Refused):
            # The recipient address may hold a sender's secret: it is never logged.
            log.info("email.refused", key=key, sender=mail.sender, reason=verdict.reason)
            return None
        ledger = self.ledger
        ledger.join(thread, mail.message_id)
        scope = scopes.Scope(tenant=verdict.tenant)
        session = f"{self.name}:{thread}"
        saved = await self._save_attachments(mail, verdict.tenant, key)
        text = _prompt(mail, saved, self.settings.max_text_chars)
        # The ledger key is the turn's request key: a mail taken again after a crash mid-turn
        # is stored once and answered once (the first attempt's answer, when it has one).
        inbound = InboundMessage(
            self.name, thread, mail.sender, text, {"tenant": verdict.tenant}, message_id=key
        )
        origin = origins.Origin(self.name, mail.sender, session)
        log.info("email.admitted", key=key, tenant=scope.tenant, proofs=",".join(verdict.proofs))
        with (
            structlog.contextvars.bound_contextvars(thread=thread, tenant=scope.tenant),
            scopes.use(scope),
            origins.use(origin),
        ):
            answer = await run_turn(
                runtime, inbound, session, scope, audience="email", typing=_no_typing
            )
        reply = reply_to(mail, answer, own_address=self.settings.address)
        ledger.join(thread, str(reply["message_id"]))
        return reply

    async def _save_attachments(self, mail: Mail, tenant: str, key: str) -> list[Saved]:
        if not mail.attachments:
            return []
        limit = self.settings.max_attachment_bytes
        if self._workdir_of is None or limit == 0:
            limit = -1  # listed, none saved
        workdir = self._workdir_of(tenant) if self._workdir_of is not None else Path()
        return await anyio.to_thread.run_sync(
            partial(
                save_attachments,
                mail.attachments,
                workdir,
                self.settings.attachments_dir,
                prefix=key.replace(":", "-"),
                max_bytes=limit,
            )
        )

    async def _send(
        self, stored: dict[str, Any], committing: Callable[[], None] = smtp.nothing
    ) -> None:
        """Submit a stored mail; failures before it may have left are retried with backoff
        (``committing`` runs, in the sending thread, before that point: see :mod:`.smtp`)."""
        message = build(stored, own_address=self.settings.address)
        backoff = Backoff(self.settings.backoff_initial, self.settings.backoff_max)
        while True:
            try:
                await anyio.to_thread.run_sync(self._send_now, self.settings, message, committing)
                return
            except EmailError as exc:
                if exc.permanent:
                    raise
                log.info("email.send_retry", error=str(exc))
            await anyio.sleep(backoff.next_delay())


def _prompt(mail: Mail, saved: list[Saved], limit: int) -> str:
    """What the model reads of a mail: subject, text (cut at ``limit``), attachments."""
    text = mail.text
    if len(text) > limit:
        text = text[:limit] + f"\n[... the mail's text is cut here: {len(mail.text)} characters]"
    parts = [f"Subject: {mail.subject}" if mail.subject else "", text]
    if saved:
        parts.append("Attachments:\n" + "\n".join(f"- {s.describe()}" for s in saved))
    return "\n\n".join(p for p in parts if p) or "(empty mail)"
