"""TLS to the mail servers: implicit TLS and STARTTLS, certificates always checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from structlog.testing import capture_logs

from agentd.daemon.app import App
from channels.email import EmailChannel
from tests.channels.email.conftest import Mailboxes, email_settings, mail, serving, wait_until
from tests.support.submission import Submission

pytestmark = pytest.mark.anyio


def _tls_settings(boxes: Mailboxes, submission: Submission, imap: str, **extra: Any) -> Any:
    base = email_settings(boxes)
    port = boxes.dovecot.tls_port if imap == "tls" else boxes.dovecot.port
    return base.model_copy(
        update={
            "imap": base.imap.model_copy(update={"security": imap, "port": port, **extra}),
            "smtp": base.smtp.model_copy(
                update={"security": "starttls", "port": submission.port, **extra}
            ),
        }
    )


@pytest.mark.parametrize("imap", ["tls", "starttls"])
async def test_mail_over_tls_with_a_private_ca(
    boxes: Mailboxes, submission_tls: Submission, app: App, tmp_path: Path, imap: str
) -> None:
    """IMAPS or IMAP with STARTTLS in, SMTP with STARTTLS out, the server's CA in ca_file."""
    settings = _tls_settings(boxes, submission_tls, imap, ca_file=boxes.dovecot.cert)
    async with serving(settings, app, tmp_path / "email.json"):
        boxes.send(mail(boxes.alice, boxes.agent, "over TLS"))
        await wait_until(lambda: len(boxes.replies_to(boxes.alice)) == 1)


async def test_an_unknown_certificate_is_refused(
    boxes: Mailboxes, submission_tls: Submission, app: App, tmp_path: Path
) -> None:
    """Without the server's CA the connection fails (not ready, logged), nothing is sent."""
    settings = _tls_settings(boxes, submission_tls, "tls")
    channel = EmailChannel(settings, state_path=tmp_path / "email.json")
    with capture_logs() as logs:
        async with channel, anyio.create_task_group() as tg:
            await tg.start(channel.serve, app.runtime)
            await wait_until(lambda: any(e["event"] == "email.unreachable" for e in logs))
            assert not channel.ready
            tg.cancel_scope.cancel()
    errors = [e["error"] for e in logs if e["event"] == "email.unreachable"]
    assert "CERTIFICATE_VERIFY_FAILED" in errors[0]
