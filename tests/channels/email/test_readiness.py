"""The email channel counts ready for ``/readyz`` only while it is logged in to its mailbox."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from pydantic import SecretStr

from agentd.daemon.app import App
from agentd.daemon.lifecycle import ChannelHealth, readiness_probe, supervise_channel
from channels.email import EmailChannel
from tests.channels.email.conftest import Mailboxes, email_settings, wait_until

pytestmark = pytest.mark.anyio


async def test_ready_once_the_imap_login_succeeds(
    boxes: Mailboxes, app: App, tmp_path: Path
) -> None:
    """While the IMAP server refuses the login the channel serves but is not ready; once the
    login succeeds it is."""
    settings = email_settings(boxes)
    settings.imap.password = SecretStr("not-yet")
    channel = EmailChannel(settings, state_path=tmp_path / "email.json")
    health = ChannelHealth("email", probe=readiness_probe(channel))
    async with channel, anyio.create_task_group() as tg:
        await tg.start(supervise_channel, channel, app.runtime, health)
        await wait_until(lambda: health.state == "serving")
        await anyio.sleep(0.3)  # a few refused logins
        assert not health.ready
        boxes.dovecot.add_user(boxes.agent_user, "not-yet")
        await wait_until(lambda: health.ready)
        tg.cancel_scope.cancel()
