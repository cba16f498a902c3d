"""A real Dovecot and a real SMTP submission server for the email tests, fresh mailboxes per test.

Skipped when Dovecot is not installed, unless AGENTD_REQUIRE_DOVECOT=1 (``make test``), where a
missing server is a failure.
"""

from __future__ import annotations

import itertools
import os
import ssl
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentd.config import EmailSettings, Settings
from agentd.daemon.app import App, open_app
from agentd.daemon.workdirs import Workdirs
from channels.email import EmailChannel
from tests.support.dovecot import Dovecot, missing_reason
from tests.support.stub_llm import StubLLM
from tests.support.submission import Submission

REQUIRED = os.environ.get("AGENTD_REQUIRE_DOVECOT") == "1"
HANG_GUARD = 15.0
MX = "mx.example.org"
_serial = itertools.count()


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    """One Dovecot on 127.0.0.1 for the whole session (it starts in a fraction of a second)."""
    reason = missing_reason()
    if reason is not None:
        if REQUIRED:
            pytest.fail(f"Dovecot is required (AGENTD_REQUIRE_DOVECOT=1): {reason}")
        pytest.skip(reason)
    server = Dovecot()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def submission(dovecot: Dovecot) -> Iterator[Submission]:
    """One SMTP submission server (aiosmtpd) delivering into Dovecot's mailboxes."""
    server = Submission(dovecot)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Mailboxes:
    """A fresh agent mailbox and two people for one test: alice and bob allowed, mallory not."""

    dovecot: Dovecot
    submission: Submission
    agent: str
    alice: str
    bob: str
    mallory: str
    bob_secret: str

    @property
    def agent_user(self) -> str:
        return self.agent.split("@")[0]

    def inbox(self, address: str) -> list[EmailMessage]:
        """The mail ``address`` has received."""
        return self.dovecot.received(address.split("@")[0])

    def replies_to(self, address: str) -> list[EmailMessage]:
        """The agent's mail in ``address``'s inbox."""
        return [m for m in self.inbox(address) if self.agent in str(m["From"])]

    def send(self, raw: bytes) -> None:
        """Deliver ``raw`` into the agent's inbox, as the receiving mail server would."""
        self.dovecot.deliver(self.agent_user, raw)


@pytest.fixture
def boxes(dovecot: Dovecot, submission: Submission) -> Mailboxes:
    n = next(_serial)
    names = {who: f"{who}{n}" for who in ("agent", "alice", "bob", "mallory")}
    for name in names.values():
        dovecot.add_user(name, f"pw-{name}")
    return Mailboxes(
        dovecot,
        submission,
        agent=f"{names['agent']}@agent.test",
        alice=f"{names['alice']}@example.org",
        bob=f"{names['bob']}@example.net",
        mallory=f"{names['mallory']}@example.org",
        bob_secret=f"Sekrit{n:04d}abcdefghijk",
    )


def email_settings(boxes: Mailboxes, **overrides: Any) -> EmailSettings:
    user = boxes.agent_user
    values: dict[str, Any] = {
        "enabled": True,
        "address": boxes.agent,
        "imap": {
            "host": "127.0.0.1",
            "port": boxes.dovecot.port,
            "security": "none",
            "username": user,
            "password": f"pw-{user}",
            "poll_interval": 0.2,
        },
        "smtp": {
            "host": "127.0.0.1",
            "port": boxes.submission.port,
            "security": "none",
            "username": boxes.submission.username,
            "password": boxes.submission.password,
        },
        "allow_from": [
            boxes.alice,
            {"address": boxes.bob, "secret": boxes.bob_secret, "tenant": "bobs"},
        ],
        "trusted_authserv_ids": [MX],
        "backoff_initial": 0.05,
        "backoff_max": 0.5,
    }
    values.update(overrides)
    return EmailSettings(**values)


def mail(
    frm: str,
    to: str,
    text: str = "hello",
    *,
    subject: str = "A question",
    auth: str | None = MX,
    message_id: str | None = None,
    reply_to: EmailMessage | None = None,
    html: str | None = None,
    attachments: Sequence[tuple[str, bytes]] = (),
    headers: dict[str, str] | None = None,
) -> bytes:
    """A mail as the receiving server stores it; ``auth``: the authserv-id vouching for DMARC
    (None: no Authentication-Results)."""
    msg = EmailMessage()
    domain = frm.split("@")[1]
    if auth is not None:
        msg["Authentication-Results"] = (
            f"{auth}; dkim=pass header.d={domain} header.s=s1; spf=pass "
            f"smtp.mailfrom={frm}; dmarc=pass (p=reject) header.from={domain}"
        )
    msg["From"] = frm
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = message_id or make_msgid(domain=domain)
    if reply_to is not None:
        msg["In-Reply-To"] = str(reply_to["Message-ID"])
        refs = str(reply_to.get("References", ""))
        msg["References"] = f"{refs} {reply_to['Message-ID']}".strip()
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    for name, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    return bytes(msg)


@pytest.fixture
async def app(stub_llm: StubLLM, tmp_path: Path) -> AsyncIterator[App]:
    """The daemon's app (tenants, policy, SQLite history) on the stub LLM."""
    (tmp_path / "workdir").mkdir()
    settings = Settings(
        workdir=tmp_path / "workdir",
        state_dir=tmp_path / "state",
        llm={"base_url": stub_llm.url, "max_retries": 0},  # type: ignore[arg-type]
        memory={"embed": False},  # type: ignore[arg-type]
    )
    async with open_app(settings) as opened:
        yield opened


@asynccontextmanager
async def serving(
    settings: EmailSettings, app: App, state: Path, **kwargs: Any
) -> AsyncIterator[EmailChannel]:
    """The channel serving in a task group, following the mailbox; cancelled on exit."""
    channel = EmailChannel(settings, state_path=state, workdir_of=Workdirs(app.settings), **kwargs)
    async with channel, anyio.create_task_group() as tg:
        await tg.start(channel.serve, app.runtime)
        await wait_until(lambda: channel.ready)
        yield channel
        tg.cancel_scope.cancel()


async def wait_until(check: Callable[[], object], timeout: float = HANG_GUARD) -> float:  # noqa: ASYNC109
    """Poll ``check`` until it is truthy; the seconds it took (the deadline guards a hang)."""
    started = time.monotonic()
    with anyio.fail_after(timeout):
        # The mail servers run in other threads and processes: nothing to wait on but time.
        while not check():  # noqa: ASYNC110
            await anyio.sleep(0.02)
    return time.monotonic() - started


@pytest.fixture(scope="session")
def submission_tls(dovecot: Dovecot) -> Iterator[Submission]:
    """A submission server that requires STARTTLS (Dovecot's certificate) before a login."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(dovecot.cert, dovecot.key)
    server = Submission(dovecot, tls=context)
    server.start()
    try:
        yield server
    finally:
        server.stop()
