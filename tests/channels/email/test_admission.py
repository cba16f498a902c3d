"""Admission: the allowlist plus a proof (trusted DMARC/DKIM result, or the secret address)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from agentd.config import EmailSettings
from channels.email.admission import Admission, Admitted, Refused, parse_auth_results
from channels.email.mail import Mail

SECRET = "abcdefghij0123456789"


def _settings(**overrides: Any) -> EmailSettings:
    values: dict[str, Any] = {
        "address": "agent@agent.test",
        "allow_from": [
            "alice@example.org",
            {"address": "bob@example.net", "secret": SECRET, "tenant": "family"},
        ],
        "trusted_authserv_ids": ["mx.agent.test"],
    }
    values.update(overrides)
    return EmailSettings(**values)


def _mail(sender: str = "alice@example.org", *auth: str, **changes: Any) -> Mail:
    mail = Mail(
        sender=sender,
        sender_domain=sender.rsplit("@", 1)[-1],
        recipients=("agent@agent.test",),
        message_id="m@x",
        in_reply_to=(),
        references=(),
        subject="s",
        text="t",
        auth_results=auth,
        automatic=False,
    )
    return replace(mail, **changes)


def test_parse_auth_results() -> None:
    """The authserv-id and each method's result and properties are read; comments ignored."""
    found = parse_auth_results(
        "MX.agent.test 1; dkim=pass (good sig) header.d=example.org header.s=s1;\n"
        " spf=fail smtp.mailfrom=x@y; dmarc=pass (p=reject) header.from=Example.org"
    )
    assert found == (
        "mx.agent.test",
        [
            ("dkim", "pass", {"header.d": "example.org", "header.s": "s1"}),
            ("spf", "fail", {"smtp.mailfrom": "x@y"}),
            ("dmarc", "pass", {"header.from": "example.org"}),
        ],
    )


@pytest.mark.parametrize(
    ("header", "admitted"),
    [
        pytest.param("mx.agent.test; dmarc=pass header.from=example.org", True, id="dmarc"),
        pytest.param("mx.agent.test; dkim=pass header.d=example.org", True, id="dkim"),
        pytest.param("mx.agent.test; dkim=pass header.d=org", False, id="dkim-tld"),
        pytest.param("mx.agent.test; dkim=pass header.d=evil.example.org", False, id="dkim-sub"),
        pytest.param("mx.agent.test; dkim=pass header.d=attacker.test", False, id="dkim-other"),
        pytest.param("mx.agent.test; dmarc=fail header.from=example.org", False, id="fail"),
        pytest.param("mx.agent.test; dmarc=pass header.from=evil.test", False, id="dmarc-other"),
        pytest.param("mx.evil.test; dmarc=pass header.from=example.org", False, id="untrusted"),
        pytest.param("mx.agent.test; spf=pass smtp.mailfrom=alice@example.org", False, id="spf"),
        pytest.param("mx.agent.test.evil; dmarc=pass", False, id="lookalike-id"),
    ],
)
def test_authentication_results(header: str, admitted: bool) -> None:
    """Only a trusted server's DMARC pass or aligned DKIM pass proves the sender."""
    verdict = Admission(_settings()).check(_mail("alice@example.org", header))
    assert isinstance(verdict, Admitted) is admitted


def test_secret_address_admits_its_sender_only() -> None:
    """The secret address proves bob, not alice; a wrong secret proves nobody."""
    admission = Admission(_settings())
    right = (f"agent+{SECRET}@agent.test",)
    verdict = admission.check(_mail("bob@example.net", recipients=right))
    assert verdict == Admitted("bob@example.net", "family", ("secret_address",))
    assert isinstance(admission.check(_mail("alice@example.org", recipients=right)), Refused)
    wrong = (f"agent+{SECRET[:-1]}x@agent.test",)
    assert isinstance(admission.check(_mail("bob@example.net", recipients=wrong)), Refused)
    other_domain = (f"agent+{SECRET}@evil.test",)
    assert isinstance(admission.check(_mail("bob@example.net", recipients=other_domain)), Refused)


def test_require_both() -> None:
    """With require_both, one proof is not enough."""
    admission = Admission(_settings(require_both=True))
    dmarc = "mx.agent.test; dmarc=pass header.from=example.net"
    secret = (f"agent+{SECRET}@agent.test",)
    assert isinstance(admission.check(_mail("bob@example.net", dmarc)), Refused)
    assert isinstance(admission.check(_mail("bob@example.net", recipients=secret)), Refused)
    both = admission.check(_mail("bob@example.net", dmarc, recipients=secret))
    assert isinstance(both, Admitted) and both.proofs == ("authenticated", "secret_address")


@pytest.mark.parametrize(
    ("mail", "reason"),
    [
        pytest.param(_mail("mallory@example.org"), "not in allow_from", id="stranger"),
        pytest.param(_mail("agent@agent.test"), "own address", id="self"),
        pytest.param(_mail(automatic=True), "program", id="automatic"),
        pytest.param(_mail(sender="", sender_domain=""), "From", id="no-sender"),
        pytest.param(_mail(), "no proof", id="no-proof"),
    ],
)
def test_refusals_say_why(mail: Mail, reason: str) -> None:
    """Refused mail carries a reason, never a secret."""
    verdict = Admission(_settings()).check(mail)
    assert isinstance(verdict, Refused) and reason in verdict.reason
    assert SECRET not in verdict.reason


def test_tenants() -> None:
    """A sender without a tenant gets its own; a mapped one gets the mapping."""
    admission = Admission(_settings())
    assert admission.tenant_of("Alice@Example.org") == "email:alice@example.org"
    assert admission.tenant_of("bob@example.net") == "family"
    assert admission.tenant_of("x@y.z") is None


def test_dkim_of_a_parent_domain_is_aligned() -> None:
    """A signature by example.org speaks for mail from a subdomain of it."""
    settings = _settings(allow_from=["boss@mail.example.org"])
    verdict = Admission(settings).check(
        _mail("boss@mail.example.org", "mx.agent.test; dkim=pass header.d=example.org")
    )
    assert isinstance(verdict, Admitted)
