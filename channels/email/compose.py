"""The mail the agent writes: a reply threaded under the mail it answers, or a new message.

A reply says ``Re:`` before the subject it answers and carries ``In-Reply-To`` (the answered
mail's id) and ``References`` (its References plus its id), so mail clients show it in the
thread and an answer to it lands in the same session. Outgoing mail is plain text, marked
``Auto-Submitted: auto-replied`` (RFC 3834) so well-behaved auto-responders do not answer it.
The stored form of a mail is a small dict (:func:`as_stored`), rebuilt by :func:`build`.
"""

from __future__ import annotations

import email.policy
import email.utils
import re
from email.message import EmailMessage
from typing import Any

from channels.email.mail import MAX_REFERENCES, Mail

_RE = re.compile(r"^\s*re\s*:", re.I)
_UNSAFE = re.compile(r"[\x00-\x1f\x7f]+")


def _clean(text: str, limit: int = 200) -> str:
    """A header value from untrusted text: one line, no control characters, bounded."""
    return _UNSAFE.sub(" ", text).strip()[:limit]


def new_message_id(own_address: str) -> str:
    """A fresh Message-ID (without brackets) in the agent's own domain."""
    domain = own_address.rsplit("@", 1)[-1] or "localhost"
    return email.utils.make_msgid(idstring="agentd", domain=domain).strip("<>")


def reply_to(mail: Mail, text: str, *, own_address: str) -> dict[str, Any]:
    """The stored form of the reply to ``mail`` saying ``text``."""
    subject = _clean(mail.subject) or "(no subject)"
    if not _RE.match(subject):
        subject = "Re: " + subject
    references = [*mail.references]
    if mail.message_id:
        references.append(mail.message_id)
    if len(references) > MAX_REFERENCES:
        references = [references[0], *references[-(MAX_REFERENCES - 1) :]]
    return {
        "to": mail.sender,
        "subject": subject,
        "in_reply_to": mail.message_id,
        "references": references,
        "message_id": new_message_id(own_address),
        "text": text,
        "auto": "auto-replied",
    }


def notice(to: str, text: str, *, own_address: str) -> dict[str, Any]:
    """The stored form of a message nobody asked for (a reminder): its first line is the
    subject."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    subject = _clean(first, 78) or "(no subject)"
    return {
        "to": to,
        "subject": subject,
        "in_reply_to": "",
        "references": [],
        "message_id": new_message_id(own_address),
        "text": text,
        "auto": "auto-generated",
    }


def build(stored: dict[str, Any], *, own_address: str) -> EmailMessage:
    """The mail to send from its stored form."""
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = own_address
    msg["To"] = _clean(str(stored["to"]), 320)
    msg["Subject"] = _clean(str(stored["subject"]), 300)
    msg["Date"] = email.utils.formatdate(localtime=False)
    msg["Message-ID"] = f"<{_clean(str(stored['message_id']), 250)}>"
    if stored.get("in_reply_to"):
        msg["In-Reply-To"] = f"<{_clean(str(stored['in_reply_to']), 250)}>"
    refs = [f"<{_clean(str(r), 250)}>" for r in stored.get("references") or []]
    if refs:
        msg["References"] = " ".join(refs)
    msg["Auto-Submitted"] = str(stored.get("auto") or "auto-replied")
    # Quoted-printable: 7-bit clean, so no server needs 8BITMIME to take it.
    msg.set_content(str(stored["text"]), subtype="plain", charset="utf-8", cte="quoted-printable")
    return msg
