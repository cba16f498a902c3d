"""A Matrix event replayed after a crash (accepted, answered, not recorded) is stored once,
asks the model once, and its reply is not repeated in the room."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import anyio
import pytest

from agentd import scope as scopes
from agentd.config.matrix import OWN_TENANT
from agentd.engine.runtime import Runtime
from channels.matrix.state import Pending
from tests.channels.matrix.conftest import (
    Accounts,
    mx_settings,
    people,
    serving,
    wait_for_texts,
    wait_joined,
    wait_until,
)
from tests.support.stub_llm import StubLLM
from tests.support.synapse import Synapse

pytestmark = pytest.mark.anyio


async def test_replayed_event_is_one_stored_message_and_one_reply(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """An event left pending by a crash after its turn is answered from the stored answer
    (no second model call, no second user message), and the homeserver drops the repeat."""
    bot, state = accounts.bot.user_id, tmp_path / "mx.json"
    settings = mx_settings(synapse, accounts)
    async with people(synapse, accounts.alice) as [alice]:
        async with serving(settings, runtime, state) as channel:
            room = await alice.room(bot)
            await wait_joined(alice, room, bot)
            event_id = await alice.send(room, "hello")
            await wait_for_texts(alice, room, bot, 1)
            await wait_until(lambda: not channel.ledger.pending)
        # The ledger as a crash before the event was recorded answered would leave it.
        tenant = OWN_TENANT.format(user_id=accounts.alice.user_id)
        pending = Pending(event_id, room, accounts.alice.user_id, tenant, "hello", group=False)
        data = json.loads(state.read_text())
        data["pending"] = [asdict(pending)]
        state.write_text(json.dumps(data))
        async with serving(settings, runtime, state) as channel:
            await wait_until(lambda: not channel.ledger.pending)
            await anyio.sleep(0.5)
        said = await alice.said_by(room, bot)
    assert [e["content"]["body"] for e in said] == ["echo: hello"]
    assert len([r for r in stub_llm.requests if "hello" in json.dumps(r["messages"][-1])]) == 1
    with scopes.use(scopes.Scope(tenant=tenant)):
        history = await runtime.history(f"matrix:{room}")
    assert [(m.role, m.content) for m in history[1:]] == [
        ("user", "hello"),
        ("assistant", "echo: hello"),
    ]
