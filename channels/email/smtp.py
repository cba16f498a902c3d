"""Sending mail through the submission server: the standard library's ``smtplib``, in a thread.

One connection per mail (replies are rare and a kept-open connection would time out between
them): implicit TLS (``tls``, port 465), ``STARTTLS`` (port 587; refused if the server does not
offer it), or plain on loopback only (``none``). Errors leave as
:class:`~agentd.errors.EmailError`; ``permanent`` when the server refused the mail or the login
(5xx), so the caller does not retry what cannot succeed.
"""

from __future__ import annotations

import smtplib
from email.message import EmailMessage

from agentd.config import EmailSettings
from agentd.errors import EmailError
from channels.email.tls import tls_context


def send(settings: EmailSettings, message: EmailMessage) -> None:
    """Submit ``message`` (blocking: run it in a worker thread)."""
    cfg = settings.smtp
    port = settings.port_of("smtp")
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
            conn.send_message(message)
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
            "smtp", f"{exc.smtp_code} {reason}", permanent=exc.smtp_code >= 500
        ) from None
    except smtplib.SMTPRecipientsRefused as exc:
        raise EmailError(
            "smtp", f"recipient refused ({len(exc.recipients)})", permanent=True
        ) from None
    except (smtplib.SMTPException, OSError) as exc:
        raise EmailError("smtp", str(exc) or type(exc).__name__) from None
