"""One received mail, read from its raw bytes: who it claims to be from, its thread, its text.

Everything here is what the sender wrote, so nothing is trusted: a header that does not parse
is treated as absent, the body's text is the ``text/plain`` part when there is one, else the
HTML part turned into text (:mod:`channels.email.html`), and attachments are listed with the
name the sender gave them (made safe only when saved, :mod:`channels.email.attachments`).
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import re
from dataclasses import dataclass, field
from email.message import EmailMessage, Message

from channels.email.html import html_to_text

#: A Message-ID as it appears in headers (``<local@domain>``), without the angle brackets.
_MSGID = re.compile(r"<([^<>\s]{1,250})>")
#: How many ids of a References header are kept (the first, the root, always is).
MAX_REFERENCES = 30
#: HTML read into text at most (the text the model sees is cut far shorter).
MAX_HTML_CHARS = 1_000_000


@dataclass(frozen=True, slots=True)
class Attachment:
    """A part of the mail that is a file: its given name, type and bytes."""

    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Mail:
    """The parts of a received mail the channel uses."""

    sender: str
    """The one address of From, lower-cased ("" when there is not exactly one)."""
    sender_domain: str
    recipients: tuple[str, ...]
    message_id: str
    in_reply_to: tuple[str, ...]
    references: tuple[str, ...]
    subject: str
    text: str
    auth_results: tuple[str, ...]
    automatic: bool
    """Sent by a program (auto-reply, bounce, list): never answered, so mail loops cannot form."""
    attachments: tuple[Attachment, ...] = field(default=())

    @property
    def thread_ids(self) -> tuple[str, ...]:
        """The ids this mail answers, oldest first (References, then In-Reply-To)."""
        seen = dict.fromkeys((*self.references, *self.in_reply_to))
        return tuple(seen)


def message_ids(value: str | None) -> tuple[str, ...]:
    """The Message-IDs in a header value, in order."""
    return tuple(_MSGID.findall(value or ""))


def _header(msg: Message, name: str) -> str:
    try:
        value = msg.get(name)
    except (ValueError, TypeError, IndexError, AttributeError):
        return ""  # a header the parser cannot make sense of counts as missing
    return " ".join(str(value).split()) if value is not None else ""


def _all(msg: Message, name: str) -> list[str]:
    try:
        return [" ".join(str(v).split()) for v in msg.get_all(name) or []]
    except (ValueError, TypeError, IndexError, AttributeError):
        return []


def _addresses(msg: Message, *names: str) -> list[str]:
    values = [v for name in names for v in _all(msg, name)]
    return [addr.lower() for _, addr in email.utils.getaddresses(values) if "@" in addr]


def _automatic(msg: Message) -> bool:
    auto = _header(msg, "Auto-Submitted").lower()
    precedence = _header(msg, "Precedence").lower()
    return (
        (bool(auto) and auto != "no")
        or precedence in ("bulk", "junk", "list", "auto_reply")
        or bool(_header(msg, "List-Id"))
        or bool(_header(msg, "X-Autoreply"))
        or _header(msg, "Content-Type").lower().startswith("multipart/report")
    )


def _decoded(part: Message) -> str:
    try:
        content = part.get_content()  # type: ignore[attr-defined]
    except (LookupError, ValueError, AssertionError, AttributeError):
        payload = part.get_payload(decode=True)
        content = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
    return content if isinstance(content, str) else ""


def _body(msg: EmailMessage) -> str:
    try:
        part = msg.get_body(preferencelist=("plain", "html"))
    except (ValueError, TypeError, IndexError, AttributeError):
        part = None
    if part is None:
        return ""
    text = _decoded(part)
    if part.get_content_type() == "text/html":
        return html_to_text(text[:MAX_HTML_CHARS])
    return text.replace("\r\n", "\n")


def _attachments(msg: EmailMessage) -> tuple[Attachment, ...]:
    found: list[Attachment] = []
    try:
        parts = list(msg.iter_attachments())
    except (ValueError, TypeError, IndexError, AttributeError, KeyError):
        return ()
    for part in parts:
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True)
        try:
            name = part.get_filename() or ""
        except (ValueError, TypeError, IndexError, AttributeError):
            name = ""
        found.append(
            Attachment(
                str(name), part.get_content_type(), payload if isinstance(payload, bytes) else b""
            )
        )
    return tuple(found)


def without_quote(text: str) -> str:
    """``text`` without the quoted mail at its end (the ``>`` lines a reply carries below)."""
    lines = text.rstrip().split("\n")
    end = len(lines)
    while end > 0 and (lines[end - 1].startswith(">") or not lines[end - 1].strip()):
        end -= 1
    return "\n".join(lines[:end]).rstrip() if end else text.strip()


def parse_mail(raw: bytes) -> Mail:
    """The mail in ``raw`` (RFC 5322 bytes), read leniently."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    senders = _addresses(msg, "From")
    sender = senders[0] if len(senders) == 1 else ""
    references = message_ids(_header(msg, "References"))
    if len(references) > MAX_REFERENCES:
        references = (references[0], *references[-(MAX_REFERENCES - 1) :])
    own_id = message_ids(_header(msg, "Message-ID"))
    return Mail(
        sender=sender,
        sender_domain=sender.rsplit("@", 1)[-1] if sender else "",
        recipients=tuple(
            _addresses(msg, "To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")
        ),
        message_id=own_id[0] if own_id else "",
        in_reply_to=message_ids(_header(msg, "In-Reply-To"))[:1],
        references=references,
        subject=_header(msg, "Subject")[:300],
        text=without_quote(_body(msg)),
        auth_results=tuple(_all(msg, "Authentication-Results")),
        automatic=_automatic(msg),
        attachments=_attachments(msg),
    )
