"""A real SMTP submission server for tests: ``aiosmtpd`` on loopback, delivering into Dovecot.

It requires a login before ``MAIL FROM`` (``AUTH PLAIN``/``LOGIN`` with the one account it
knows; TLS is not asked for on loopback) and delivers each accepted mail into the Maildir of the
Dovecot user named by the recipient's local part, so a test reads the agent's replies where a
person would. Every
accepted mail is also kept in :attr:`Submission.accepted` with its envelope.
"""

from __future__ import annotations

import logging
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from tests.support.dovecot import Dovecot
from tests.support.postgres import free_port


@dataclass
class Accepted:
    """One mail the server took: its envelope and bytes."""

    mail_from: str
    rcpt_tos: list[str]
    data: bytes


@dataclass
class Submission:
    """The server's account, where it delivers, and what it accepted."""

    dovecot: Dovecot
    username: str = "agent-smtp"
    password: str = "smtp-pass-0123"
    accepted: list[Accepted] = field(default_factory=list)
    on_data: Callable[[Accepted], None] | None = None
    port: int = 0
    #: With a context: STARTTLS is offered and required before a login.
    tls: ssl.SSLContext | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _controller: Controller | None = None

    async def handle_MAIL(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        # Submission needs a login. (aiosmtpd's own auth_required warns without TLS, and the
        # tests talk over loopback without TLS.)
        if not session.authenticated:
            return "530 5.7.0 Authentication required"
        envelope.mail_from = address
        envelope.mail_options.extend(options)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        data = envelope.original_content or b""
        if isinstance(data, str):
            data = data.encode()
        item = Accepted(str(envelope.mail_from), list(envelope.rcpt_tos), data)
        for rcpt in envelope.rcpt_tos:
            user = rcpt.split("@", 1)[0].split("+", 1)[0].lower()
            if (self.dovecot.maildir(user) / "new").is_dir():
                self.dovecot.deliver(user, data)
        with self._lock:
            self.accepted.append(item)
        if self.on_data is not None:
            self.on_data(item)
        return "250 OK"

    def _authenticate(
        self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: Any
    ) -> AuthResult:
        ok = (
            isinstance(data, LoginPassword)
            and data.login == self.username.encode()
            and data.password == self.password.encode()
        )
        return AuthResult(success=ok, handled=False)

    def start(self) -> None:
        # aiosmtpd warns of its own deprecated attribute at each login; nothing to act on here.
        logging.getLogger("mail.log").setLevel(logging.ERROR)
        self.port = free_port()
        self._controller = Controller(
            self,
            hostname="127.0.0.1",
            port=self.port,
            authenticator=self._authenticate,
            auth_require_tls=self.tls is not None,
            tls_context=self.tls,
            require_starttls=self.tls is not None,
        )
        self._controller.start()

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None
