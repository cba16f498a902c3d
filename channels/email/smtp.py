"""Sending mail through the submission server: the standard library's ``smtplib``, in a thread.

One connection per mail (replies are rare and a kept-open connection would time out between
them): implicit TLS (``tls``, port 465), ``STARTTLS`` (port 587; refused if the server does not
offer it), or plain on loopback only (``none``).

Until the line that ends the mail's data (``.``) reaches the server, nothing is sent: a
connection that breaks before it leaves no mail behind. So :func:`send` calls ``committing``
just before that line, and the caller records there, durably, that the mail may have left; a
failure before that point may be retried, one after it may not (the mail may be on its way).

With ``confirm_sent`` the agent's own address is one more recipient of the envelope (a Bcc that
no header shows): the copy in its mailbox later proves that the server took the mail
(:mod:`channels.email.confirm`). A server refusing that recipient does not stop the mail.

Errors leave as :class:`~agentd.errors.EmailError`: ``permanent`` when the server refused the
mail or the login (5xx), or when the mail may have left, so the caller does not try again.
"""

from __future__ import annotations

import re
import smtplib
from collections.abc import Callable
from email.message import EmailMessage

import structlog

from agentd.config import EmailSettings
from agentd.errors import EmailError
from channels.email.tls import tls_context

_LEADING_DOT = re.compile(rb"(?m)^\.")

log = structlog.get_logger("channels.email")


def nothing() -> None:
    """No record to make before the mail leaves."""


def send(
    settings: EmailSettings, message: EmailMessage, committing: Callable[[], None] = nothing
) -> None:
    """Submit ``message`` (blocking: run it in a worker thread)."""
    cfg = settings.smtp
    port = settings.port_of("smtp")
    committed = False

    def commit() -> None:
        nonlocal committed
        committing()
        committed = True

    try:
        if cfg.security == "tls":
            conn: smtplib.SMTP = smtplib.SMTP_SSL(
                cfg.host, port, timeout=cfg.timeout, context=tls_context(cfg)
            )
        else:
            conn = smtplib.SMTP(cfg.host, port, timeout=cfg.timeout)
        with conn:
            conn.ehlo()
            if cfg.security == "starttls":
                conn.starttls(context=tls_context(cfg))
                conn.ehlo()
            if cfg.username:
                conn.login(cfg.username, cfg.secret())
            copy_to = settings.address if settings.confirm_sent else ""
            _submit(conn, message, commit, copy_to)
    except smtplib.SMTPNotSupportedError:
        raise EmailError(
            "smtp", "the server offers no STARTTLS: use security tls", permanent=True
        ) from None
    except smtplib.SMTPAuthenticationError:
        raise EmailError(
            "smtp login",
            f"login as {cfg.username!r} refused: check channels.email.smtp.username/password",
            permanent=True,
        ) from None
    except smtplib.SMTPResponseException as exc:
        error = exc.smtp_error
        reason = (error.decode("utf-8", "replace") if isinstance(error, bytes) else error)[:200]
        raise EmailError(
            "smtp", f"{exc.smtp_code} {reason}", permanent=committed or exc.smtp_code >= 500
        ) from None
    except smtplib.SMTPRecipientsRefused:
        raise EmailError("smtp", "the recipient was refused", permanent=True) from None
    except (smtplib.SMTPException, OSError) as exc:
        reason = str(exc) or type(exc).__name__
        if committed:
            reason += " (after the mail's end was sent: it may have left)"
        raise EmailError("smtp", reason, permanent=committed) from None


def _submit(
    conn: smtplib.SMTP, message: EmailMessage, commit: Callable[[], None], copy_to: str = ""
) -> None:
    """MAIL, RCPT (and one for ``copy_to``, when given), DATA; ``commit`` is called before the
    line that ends the data."""
    sender, recipient = str(message["From"]), str(message["To"])
    code, reply = conn.mail(sender)
    if code != 250:
        raise smtplib.SMTPSenderRefused(code, reply, sender)
    code, reply = conn.rcpt(recipient)
    if code not in (250, 251):
        raise smtplib.SMTPRecipientsRefused({recipient: (code, reply)})
    if copy_to and copy_to.lower() != recipient.lower():
        code, _ = conn.rcpt(copy_to)
        if code not in (250, 251):
            log.warning("email.copy_refused", code=code)
    code, reply = conn.docmd("DATA")
    if code != 354:
        raise smtplib.SMTPDataError(code, reply)
    data = _LEADING_DOT.sub(b"..", message.as_bytes())
    if not data.endswith(b"\r\n"):
        data += b"\r\n"
    conn.send(data)
    commit()
    conn.send(b".\r\n")
    code, reply = conn.getreply()
    if code != 250:
        raise smtplib.SMTPDataError(code, reply)
