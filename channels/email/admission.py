"""Who may write to the agent: the From header proves nothing, so a mail needs a proof.

A mail is admitted when its From address is in ``allow_from`` and it carries a proof:

- **authenticated**: an ``Authentication-Results`` header (RFC 8601) written by a receiving
  server the config trusts (``trusted_authserv_ids``) says ``dmarc=pass`` for From's domain, or
  ``dkim=pass`` by a signer aligned with it (``header.d`` is From's domain or a parent of it
  other than a top-level domain).
  Headers of any other ``authserv-id`` are ignored: anyone can write one. The trusted server
  must remove such headers carrying its own id from incoming mail (RFC 8601 section 5; Postfix
  with OpenDMARC, Rspamd and Exim do);
- **secret address**: the mail was sent to ``<local>+<secret>@<domain>`` of the agent's
  address, with the secret configured for that sender (compared in constant time, without
  case).

Either proof admits (``require_both`` asks for both). Mail written by a program (auto-replies,
bounces, lists) and mail from the agent's own address are never admitted, so no loop forms.
A refusal says why in words that never contain a secret; the refused mail gets no answer.
"""

from __future__ import annotations

import hmac
import re
from dataclasses import dataclass

from agentd.config import EmailSender, EmailSettings
from agentd.config.email import OWN_TENANT
from channels.email.mail import Mail

_COMMENT = re.compile(r"\([^()]*\)")
_RESULT = re.compile(r"^([A-Za-z0-9_-]+)\s*=\s*([A-Za-z0-9_-]+)")
_PROPERTY = re.compile(r"([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\s*=\s*(\"[^\"]*\"|[^\s;]+)")


@dataclass(frozen=True, slots=True)
class Admitted:
    """A mail to answer: its sender, the sender's tenant and the proofs it carried."""

    sender: str
    tenant: str
    proofs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Refused:
    """A mail not to answer, and why (safe to log)."""

    reason: str


@dataclass(frozen=True, slots=True)
class _Entry:
    tenant: str | None
    secret: str | None


def parse_auth_results(value: str) -> tuple[str, list[tuple[str, str, dict[str, str]]]]:
    """An Authentication-Results value as ``(authserv-id, [(method, result, properties)])``."""
    while _COMMENT.search(value):
        value = _COMMENT.sub(" ", value)
    head, *clauses = value.split(";")
    words = head.split()
    authserv_id = words[0].lower() if words else ""
    results = []
    for clause in clauses:
        found = _RESULT.match(clause.strip())
        if found is None:
            continue
        props = {k.lower(): v.strip('"').lower() for k, v in _PROPERTY.findall(clause)}
        results.append((found.group(1).lower(), found.group(2).lower(), props))
    return authserv_id, results


def _aligned(signer: str, domain: str) -> bool:
    """Whether a DKIM signature by ``signer`` speaks for ``domain``: the same domain, or a
    parent of it that is more than a top-level domain."""
    if "." not in signer.strip("."):
        return False
    return domain == signer or domain.endswith("." + signer)


def authenticated(mail: Mail, trusted: frozenset[str]) -> bool:
    """Whether a trusted Authentication-Results header vouches for the From domain."""
    if not mail.sender_domain or not trusted:
        return False
    domain = mail.sender_domain
    for value in mail.auth_results:
        authserv_id, results = parse_auth_results(value)
        if authserv_id not in trusted:
            continue
        for method, result, props in results:
            if result != "pass":
                continue
            if method == "dmarc" and props.get("header.from", domain) == domain:
                return True
            if method == "dkim" and _aligned(props.get("header.d", ""), domain):
                return True
    return False


class Admission:
    """The allowlist, the trusted servers and the agent's address: who gets an answer."""

    __slots__ = ("_both", "_by_address", "_domain", "_local", "_own", "_trusted")

    def __init__(self, settings: EmailSettings) -> None:
        self._own = settings.address.lower()
        self._local, _, self._domain = self._own.partition("@")
        self._trusted = frozenset(i.lower() for i in settings.trusted_authserv_ids)
        self._both = settings.require_both
        self._by_address: dict[str, _Entry] = {}
        for entry in settings.allow_from:
            if isinstance(entry, EmailSender):
                secret = entry.secret.get_secret_value() if entry.secret else None
                self._by_address[entry.address.lower()] = _Entry(entry.tenant, secret)
            else:
                self._by_address.setdefault(entry.lower(), _Entry(None, None))

    def allows(self, address: str) -> bool:
        """Whether ``address`` is in the allowlist (deliveries go only there)."""
        return address.lower() in self._by_address

    def tenant_of(self, address: str) -> str | None:
        """The tenant of an allowed ``address``, or None."""
        entry = self._by_address.get(address.lower())
        if entry is None:
            return None
        return entry.tenant or OWN_TENANT.format(address=address.lower())

    def _secret_given(self, mail: Mail, secret: str | None) -> bool:
        if not secret:
            return False
        # Mail systems may change the case of an address: compared without case (a secret of
        # 16 or more letters and digits keeps over 80 bits).
        want = f"{self._local}+{secret}@{self._domain}".lower().encode()
        return any(hmac.compare_digest(r.lower().encode(), want) for r in mail.recipients)

    def check(self, mail: Mail) -> Admitted | Refused:
        """Whether to answer ``mail``, and as whom."""
        if mail.automatic:
            return Refused("sent by a program (auto-reply, bounce or list)")
        if not mail.sender:
            return Refused("no single From address")
        if mail.sender == self._own:
            return Refused("from the agent's own address")
        entry = self._by_address.get(mail.sender)
        if entry is None:
            return Refused("sender not in allow_from")
        proofs = []
        if authenticated(mail, self._trusted):
            proofs.append("authenticated")
        if self._secret_given(mail, entry.secret):
            proofs.append("secret_address")
        if not proofs or (self._both and len(proofs) < 2):
            return Refused(
                "no proof of the sender: needs DMARC or aligned DKIM pass from a trusted "
                "authserv-id" + (" and" if self._both else " or") + " the sender's secret address"
            )
        tenant = entry.tenant or OWN_TENANT.format(address=mail.sender)
        return Admitted(mail.sender, tenant, tuple(proofs))
