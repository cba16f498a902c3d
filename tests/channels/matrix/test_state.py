"""The Matrix channel's ledger and its start without a homeserver (no Synapse needed)."""

from __future__ import annotations

import socket
import stat
from pathlib import Path

import anyio
import pytest
from structlog.testing import capture_logs

from agentd.config import MatrixSettings
from agentd.engine.runtime import Runtime
from agentd.errors import MatrixError
from channels.base import Target
from channels.matrix import MatrixChannel
from channels.matrix.state import Pending, SyncLedger

pytestmark = pytest.mark.anyio

TOKEN = "syt_c2VjcmV0_notarealtokenbutsecret_0000"


def pending(event_id: str) -> Pending:
    return Pending(event_id, "!r:x", "@a:x", "matrix:@a:x", f"text {event_id}", group=False)


async def test_ledger_survives_a_reload_in_order(tmp_path: Path) -> None:
    """Accepted events, the token, generations and notices come back as saved, file 0600."""
    path = tmp_path / "mx.json"
    ledger = await SyncLedger.load(path)
    assert await ledger.accept("s1", [pending("$b"), pending("$a")]) == [
        pending("$b"),
        pending("$a"),
    ]
    assert await ledger.accept("s2", [pending("$a"), pending("$c")]) == [pending("$c")]
    assert await ledger.accept("s2", []) == []
    await ledger.finish("$a")
    await ledger.reset("!r:x")
    assert await ledger.notify_once("!r:x") and not await ledger.notify_once("!r:x")
    again = await SyncLedger.load(path)
    assert again.since == "s2"
    assert [p.event_id for p in again.replay()] == ["$b", "$c"]
    assert again.session_suffix("!r:x") == "#1" and again.session_suffix("!o:x") == ""
    assert not await again.notify_once("!r:x")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


async def test_unreadable_ledger_starts_empty(tmp_path: Path) -> None:
    """A corrupt state file is logged and replaced by an empty ledger, not a crash."""
    path = tmp_path / "mx.json"
    path.write_text("{not json")
    with capture_logs() as logs:
        ledger = await SyncLedger.load(path)
    assert ledger.since is None and not ledger.pending
    assert [e["event"] for e in logs] == ["matrix.state_unreadable"]


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


async def test_unreachable_homeserver_is_not_ready_and_retries(
    runtime: Runtime, tmp_path: Path
) -> None:
    """With nothing listening, serve starts, stays not ready, retries; the token stays out."""
    settings = MatrixSettings(
        enabled=True,
        homeserver=closed_port_url(),
        user_id="@bot:localhost",
        access_token=TOKEN,
        backoff_initial=0.01,
        backoff_max=0.05,
    )
    channel = MatrixChannel(settings, state_path=tmp_path / "mx.json")
    with capture_logs() as logs:
        async with channel, anyio.create_task_group() as tg:
            await tg.start(channel.serve, runtime)
            with anyio.fail_after(10):
                while sum(e["event"] == "matrix.unreachable" for e in logs) < 3:  # noqa: ASYNC110
                    await anyio.sleep(0.02)
            assert not channel.ready
            with pytest.raises(MatrixError) as caught:
                await channel.deliver(Target("matrix", "!r:localhost"), "hi")
            tg.cancel_scope.cancel()
    assert TOKEN not in repr(logs) and TOKEN not in str(caught.value)
    assert caught.value.__cause__ is None
    with pytest.raises(ValueError, match="room id"):
        await MatrixChannel(settings, state_path=tmp_path / "x.json").deliver(
            Target("matrix", "@someone:x"), "hi"
        )
