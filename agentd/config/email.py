"""The email channel's settings: the mailbox (IMAP), the submission server (SMTP), who may write.

A password is given in the config or the environment (``AGENTD_CHANNELS__EMAIL__IMAP__PASSWORD``)
or as a file read at connect (``password_file``, e.g. a systemd credential); a server reached
without TLS must be on this machine (loopback), so a password never crosses a network in clear.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from agentd.config.senders import TENANT_NAME, one_tenant_each

#: An email address as the allowlist takes it: one ``@``, no spaces or angle brackets.
ADDRESS = r"^[^@\s<>\"(),;:]+@[A-Za-z0-9.-]+\.?[A-Za-z0-9-]*$"
#: The tenant of a sender listed without one.
OWN_TENANT = "email:{address}"
#: A per-sender secret: it goes into an address (``agent+<secret>@``), so letters and digits.
SECRET = re.compile(r"^[A-Za-z0-9]{16,64}$")
_LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_default=True)


Security = Literal["tls", "starttls", "none"]


class MailServer(_Section):
    """A server the channel logs in to (IMAP or SMTP)."""

    host: str = Field("", description="Host name of the server.")
    port: int | None = Field(
        None, ge=1, le=65535, description="Port; default: by security and protocol."
    )
    security: Security = Field(
        "tls",
        description="tls: implicit TLS (IMAPS 993, SMTPS 465); starttls: plain then STARTTLS "
        "(IMAP 143, submission 587); none: no TLS, allowed only on loopback.",
    )
    username: str = Field("", description="Login name.")
    password: SecretStr | None = Field(None, description="Password (or set password_file).")
    password_file: Path | None = Field(
        None, description="A file holding the password (read at each login; one line)."
    )
    ca_file: Path | None = Field(
        None,
        description="A CA certificate (PEM) trusted for this server besides the system's: for "
        "a server whose certificate a private CA signed. Certificates are always checked.",
    )
    timeout: float = Field(30.0, gt=0, description="Seconds a connect or a command may take.")

    @pydantic.model_validator(mode="after")
    def _checked(self) -> MailServer:
        if self.password is not None and self.password_file is not None:
            raise ValueError("set password or password_file, not both")
        if self.security == "none" and self.host and self.host not in _LOOPBACK:
            raise ValueError(
                f"security 'none' sends the password in clear: only for a loopback host, "
                f"not {self.host!r} (use tls or starttls)"
            )
        return self

    def secret(self) -> str:
        """The password: the setting, else the first line of ``password_file`` (OSError)."""
        if self.password is not None:
            return self.password.get_secret_value()
        if self.password_file is not None:
            text = self.password_file.expanduser().read_text(encoding="utf-8")
            return text.splitlines()[0] if text else ""
        return ""


class ImapSettings(MailServer):
    """The mailbox incoming mail is read from."""

    mailbox: str = Field("INBOX", description="The folder read.")
    idle: bool = Field(
        True, description="Wait with IMAP IDLE when the server offers it (else poll)."
    )
    idle_timeout: float = Field(
        300.0, ge=1, le=1740, description="Seconds one IDLE lasts before it is renewed."
    )
    poll_interval: float = Field(
        30.0, gt=0, description="Seconds between checks when IDLE is off or fails."
    )


class SmtpSettings(MailServer):
    """The submission server replies are sent through."""


class EmailSender(_Section):
    """An allowed sender, its tenant and its secret."""

    address: str = Field(pattern=ADDRESS, description="The sender's address.")
    tenant: str | None = Field(
        None,
        pattern=TENANT_NAME,
        description="Tenant of this sender; default: its own, email:<address>.",
    )
    secret: SecretStr | None = Field(
        None,
        description="A secret (16-64 letters and digits) the sender writes to "
        "<local>+<secret>@<domain>: mail to that address is the sender's.",
    )

    @pydantic.field_validator("secret")
    @classmethod
    def _secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not SECRET.match(value.get_secret_value()):
            raise ValueError("must be 16-64 letters and digits")
        return value


class EmailSettings(_Section):
    """The email channel: IMAP in (IDLE or polling), SMTP submission out."""

    enabled: bool = False
    address: str = Field("", description="The agent's own address (From of its replies).")
    imap: ImapSettings = ImapSettings()
    smtp: SmtpSettings = SmtpSettings()
    allow_from: list[EmailSender | str] = Field(
        [],
        description="Senders allowed to write (empty = nobody): addresses or "
        '{"address": ..., "tenant": name, "secret": ...}. Each sender without a tenant gets '
        "its own, email:<address>.",
    )
    trusted_authserv_ids: list[str] = Field(
        [],
        description="authserv-ids of the receiving mail servers whose Authentication-Results "
        "headers are believed (your MX, e.g. mx.example.org); others are ignored.",
    )
    require_both: bool = Field(
        False,
        description="Admit mail only with both proofs (DMARC or aligned DKIM pass, and the "
        "sender's secret address); false: either one.",
    )
    state_file: Path | None = Field(
        None,
        description="JSON file of the mailbox's UIDs seen and answered; default: "
        "state_dir/email.json.",
    )
    attachments_dir: str = Field(
        "mail", description="Folder of the tenant's workdir attachments are saved to."
    )
    max_attachment_bytes: int = Field(
        10_000_000, ge=0, description="Larger attachments are listed but not saved; 0 = none."
    )
    max_message_bytes: int = Field(
        25_000_000, ge=1024, description="Larger mail is not fetched (logged and skipped)."
    )
    max_text_chars: int = Field(
        20_000, ge=200, description="Body text the model sees; the rest is cut, and said so."
    )
    backoff_initial: float = Field(1.0, gt=0, description="First retry delay, in seconds.")
    backoff_max: float = Field(60.0, gt=0, description="Longest retry delay, in seconds.")
    max_pending: int = Field(8, ge=1, description="Mail being answered at once, all threads.")
    reply_timeout: float = Field(
        60.0, gt=0, description="Seconds a reply may take to send (retries included)."
    )
    confirm_sent: bool = Field(
        True,
        description="Also send every mail to the agent's own address (envelope only, no "
        "header) and, after a restart, look for that copy in the followed folder to learn "
        "whether a reply cut off mid-send left: found, it is not sent again; not found, it "
        "is sent again (same Message-ID). The copies are kept there, flagged seen, never "
        "answered. false: such a reply is never sent again, and may be lost.",
    )
    confirm_wait: float = Field(
        3.0,
        ge=0,
        description="Seconds to keep looking for the copy of a reply cut off mid-send (its "
        "delivery may lag) before sending it again.",
    )

    @pydantic.field_validator("allow_from")
    @classmethod
    def _senders(cls, value: list[EmailSender | str]) -> list[EmailSender | str]:
        one_tenant_each(_checked(value))
        return value

    @pydantic.field_validator("attachments_dir")
    @classmethod
    def _folder(cls, value: str) -> str:
        parts = value.split("/")
        if not value or any(p in ("", ".", "..") or "\0" in p for p in parts):
            raise ValueError("must be a relative folder of the workdir, without '.' or '..'")
        return value

    @pydantic.model_validator(mode="after")
    def _complete_when_enabled(self) -> EmailSettings:
        if not self.enabled:
            return self
        if not re.fullmatch(ADDRESS, self.address):
            raise ValueError("enabled without address: set channels.email.address")
        for name, server in (("imap", self.imap), ("smtp", self.smtp)):
            if not server.host:
                raise ValueError(f"enabled without {name}.host: set channels.email.{name}.host")
        if not self.imap.username:
            raise ValueError("enabled without imap.username: set channels.email.imap.username")
        if self.imap.password is None and self.imap.password_file is None:
            raise ValueError(
                "enabled without an IMAP password: set AGENTD_CHANNELS__EMAIL__IMAP__PASSWORD "
                "or channels.email.imap.password_file"
            )
        secrets = any(isinstance(s, EmailSender) and s.secret for s in self.allow_from)
        if not self.trusted_authserv_ids and not secrets:
            raise ValueError(
                "enabled with no way to trust a sender (the From header proves nothing): set "
                "channels.email.trusted_authserv_ids or a secret for a sender in allow_from"
            )
        return self

    def port_of(self, server: Literal["imap", "smtp"]) -> int:
        """The port of ``server``: the configured one, else the usual one for its security."""
        config = self.imap if server == "imap" else self.smtp
        if config.port is not None:
            return config.port
        usual = {"imap": (993, 143, 143), "smtp": (465, 587, 25)}[server]
        return usual[("tls", "starttls", "none").index(config.security)]


def _checked(entries: list[EmailSender | str]) -> Iterator[tuple[str, str, str | None]]:
    """``entries`` as ``(lower-case address, address, tenant)``, each checked as it comes."""
    for entry in entries:
        address, tenant = (
            (entry.address, entry.tenant) if isinstance(entry, EmailSender) else (entry, None)
        )
        if not re.fullmatch(ADDRESS, address):
            raise ValueError(f"{address!r} is not an email address")
        if tenant is None and not re.fullmatch(
            TENANT_NAME, OWN_TENANT.format(address=address.lower())
        ):
            raise ValueError(
                f"{address!r} cannot be its own tenant's name (too long or unusual "
                'characters): give it one, {"address": ..., "tenant": "name"}'
            )
        yield address.lower(), address, tenant
