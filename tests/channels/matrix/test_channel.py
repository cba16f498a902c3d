"""The Matrix channel against a real Synapse, with a real Runtime and the stub LLM."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import anyio
import httpx
import pytest
from structlog.testing import capture_logs

from agentd.engine.runtime import Runtime
from agentd.errors import MatrixError
from channels.base import Target
from channels.matrix.channel import ENCRYPTED, MatrixChannel
from tests.channels.matrix.conftest import (
    Accounts,
    mx_settings,
    people,
    serving,
    wait_for_texts,
    wait_joined,
    wait_until,
)
from tests.support.stub_llm import Reply, StubLLM
from tests.support.synapse import Synapse
from tests.support.tool_agent import tool_agent

pytestmark = pytest.mark.anyio


async def test_dm_round_trip_one_reply_as_html(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """An allowed user's DM gets exactly one reply, Markdown as HTML, no quote in a DM."""
    bot = accounts.bot.user_id
    stub_llm.add(Reply(text="**Sure**, a<b", delay=0.5))
    async with (
        people(synapse, accounts.alice) as [alice],
        serving(mx_settings(synapse, accounts), runtime, tmp_path / "mx.json") as channel,
    ):
        room = await alice.room(bot)
        await wait_joined(alice, room, bot)
        await alice.send(room, "hello")
        [reply] = await wait_for_texts(alice, room, bot, 1)
        await wait_until(lambda: not channel.ledger.pending)
        await anyio.sleep(0.5)
        [event] = await alice.said_by(room, bot)
    assert reply == "**Sure**, a<b"
    assert event["content"]["formatted_body"] == "<p><strong>Sure</strong>, a&lt;b</p>"
    assert event["content"]["format"] == "org.matrix.custom.html"
    assert "m.relates_to" not in event["content"]
    assert len(stub_llm.requests) == 1
    assert "hello" in json.dumps(stub_llm.requests[0]["messages"][-1])


async def test_typing_notice_while_the_model_works_and_threads_kept(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """The bot is seen typing during a slow turn; a message in a thread is answered in it."""
    bot = accounts.bot.user_id
    stub_llm.add(Reply(text="slow", delay=2.0))
    async with (
        people(synapse, accounts.alice) as [alice],
        serving(mx_settings(synapse, accounts), runtime, tmp_path / "mx.json"),
    ):
        room = await alice.room(bot)
        await wait_joined(alice, room, bot)
        since = (await alice.client.sync(timeout=0)).next_batch
        root = await alice.send(room, "start a thread")
        typing: set[str] = set()
        with anyio.fail_after(10):
            while bot not in typing:
                synced = await alice.client.sync(timeout=1000, since=since)
                since = synced.next_batch
                info = synced.rooms.join.get(room)
                for event in info.ephemeral if info else []:
                    typing.update(getattr(event, "users", []))
        await wait_for_texts(alice, room, bot, 1)
        relation = {"rel_type": "m.thread", "event_id": root}
        question = await alice.send(room, "in the thread", **{"m.relates_to": relation})
        await wait_for_texts(alice, room, bot, 2)
        said = await alice.said_by(room, bot)
    assert said[1]["content"]["body"] == "echo: in the thread"
    relates = said[1]["content"]["m.relates_to"]
    assert (relates["rel_type"], relates["event_id"]) == ("m.thread", root)
    assert relates["m.in_reply_to"] == {"event_id": question}


async def test_group_room_answers_only_mentions_and_replies(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, tmp_path: Path
) -> None:
    """In a room of three, chatter is ignored; a name, a pill or a reply to the bot is answered."""
    bot = accounts.bot.user_id
    async with (
        people(synapse, accounts.alice, accounts.bob) as [alice, bob],
        serving(mx_settings(synapse, accounts), runtime, tmp_path / "mx.json"),
    ):
        room = await alice.room(bot, accounts.bob.user_id, direct=False)
        await bob.join(room)
        await wait_joined(alice, room, bot)
        await alice.send(room, "just chatting")
        await alice.send(room, f"{bot}: what time is it?")
        [first] = await wait_for_texts(alice, room, bot, 1)
        mine = (await alice.said_by(room, bot))[0]
        await bob.send(
            room,
            "and now?",
            **{"m.relates_to": {"m.in_reply_to": {"event_id": mine["event_id"]}}},
        )
        await wait_for_texts(alice, room, bot, 2)
        pill = f'<a href="https://matrix.to/#/{bot}">Bot</a> pill'
        await alice.send(room, "Bot pill", format="org.matrix.custom.html", formatted_body=pill)
        texts = await wait_for_texts(alice, room, bot, 3)
        said = await alice.said_by(room, bot)
    assert first == "echo: what time is it?"
    assert texts == ["echo: what time is it?", "echo: and now?", "echo: Bot pill"]
    for event in said:
        assert "m.in_reply_to" in event["content"]["m.relates_to"]


async def test_stranger_gets_nothing_and_invite_is_refused(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A user outside allow_from is not joined, and not answered in a room shared with others."""
    bot = accounts.bot.user_id
    async with (
        people(synapse, accounts.mallory, accounts.alice) as [mallory, alice],
        serving(mx_settings(synapse, accounts), runtime, tmp_path / "mx.json"),
    ):
        with capture_logs() as logs:
            lonely = await mallory.room(bot)
            await wait_until(lambda: any(e["event"] == "matrix.invite_refused" for e in logs))
            # In a room alice brought the bot to, mallory's mention is still refused.
            room = await alice.room(bot, accounts.mallory.user_id, direct=False)
            await mallory.join(room)
            await wait_joined(alice, room, bot)
            await mallory.send(room, f"{bot} let me in")
            await alice.send(room, f"{bot} after")
            await wait_for_texts(alice, room, bot, 1)
        assert bot not in await mallory.members(lonely)
        said = await alice.said_by(room, bot)
    assert [e["content"]["body"] for e in said] == ["echo: after"]
    assert all("let me in" not in json.dumps(r) for r in stub_llm.requests)
    assert any(e["event"] == "matrix.refused" for e in logs)


async def test_restart_neither_loses_nor_repeats(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """Stopped mid-turn, then messages sent while it is down: each answered once after restart."""
    bot = accounts.bot.user_id
    state = tmp_path / "mx.json"
    settings = mx_settings(synapse, accounts)
    stub_llm.add(Reply(text="never sent", delay=3.0))
    async with people(synapse, accounts.alice) as [alice]:
        async with serving(settings, runtime, state) as channel:
            room = await alice.room(bot)
            await wait_joined(alice, room, bot)
            await alice.send(room, "interrupted")
            await wait_until(lambda: stub_llm.requests and channel.ledger.pending)
        assert [p["text"] for p in json.loads(state.read_text())["pending"]] == ["interrupted"]
        assert await alice.said_by(room, bot) == []
        # More than a sync's default timeline (10 events) while the bot is down.
        for i in range(12):
            await alice.send(room, f"while down {i}")
        async with serving(settings, runtime, state) as channel:
            texts = await wait_for_texts(alice, room, bot, 13)
            await wait_until(lambda: not channel.ledger.pending)
        async with serving(settings, runtime, state):
            await anyio.sleep(1.0)  # a third run finds nothing to answer again
        texts = [e["content"]["body"] for e in await alice.said_by(room, bot)]
    assert texts == ["echo: interrupted"] + [f"echo: while down {i}" for i in range(12)]


async def test_message_sent_before_the_join_is_answered_but_not_the_past(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, tmp_path: Path
) -> None:
    """What was said after the invite and before the join is answered; what came before not."""
    bot = accounts.bot.user_id
    state = tmp_path / "mx.json"
    settings = mx_settings(synapse, accounts)
    async with people(synapse, accounts.alice, accounts.bob) as [alice, bob]:
        async with serving(settings, runtime, state):
            pass  # the bot has a sync token: from now on nothing is lost
        room = await alice.room(bob.user.user_id, direct=False)
        await bob.join(room)
        await alice.send(room, f"{bot} before the invite")
        await alice.invite(room, bot)
        await alice.send(room, f"{bot} after the invite")
        async with serving(settings, runtime, state):
            texts = await wait_for_texts(alice, room, bot, 1)
            await anyio.sleep(1.0)
        texts = [e["content"]["body"] for e in await alice.said_by(room, bot)]
    assert texts == ["echo: after the invite"]


async def test_edit_is_a_new_message_and_redaction_is_ignored(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, tmp_path: Path
) -> None:
    """An m.replace edit is answered with its new text; a redaction gets no answer."""
    bot = accounts.bot.user_id
    async with (
        people(synapse, accounts.alice) as [alice],
        serving(mx_settings(synapse, accounts), runtime, tmp_path / "mx.json"),
    ):
        room = await alice.room(bot)
        await wait_joined(alice, room, bot)
        original = await alice.send(room, "helo")
        await wait_for_texts(alice, room, bot, 1)
        await alice.send_content(
            room,
            {
                "msgtype": "m.text",
                "body": "* hello",
                "m.new_content": {"msgtype": "m.text", "body": "hello"},
                "m.relates_to": {"rel_type": "m.replace", "event_id": original},
            },
        )
        await wait_for_texts(alice, room, bot, 2)
        await alice.client.room_redact(room, original)
        await alice.send(room, "last")
        texts = await wait_for_texts(alice, room, bot, 3)
        await anyio.sleep(0.5)
        texts = [e["content"]["body"] for e in await alice.said_by(room, bot)]
    assert texts == ["echo: helo", "echo: hello", "echo: last"]


async def test_encrypted_room_is_said_once_never_read(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """In an encrypted room the bot says once (across restarts) that it cannot read it."""
    bot = accounts.bot.user_id
    state = tmp_path / "mx.json"
    settings = mx_settings(synapse, accounts)
    async with people(synapse, accounts.alice) as [alice]:
        async with serving(settings, runtime, state):
            room = await alice.room(bot, encrypted=True)
            await wait_joined(alice, room, bot)
            await alice.send_content(
                room,
                {"algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "AAAA", "session_id": "x"},
                kind="m.room.encrypted",
            )
            await wait_for_texts(alice, room, bot, 1)
            await alice.send(room, f"{bot} plain text in an encrypted room")
            await anyio.sleep(1.0)
        async with serving(settings, runtime, state):
            await anyio.sleep(1.0)
        texts = [e["content"]["body"] for e in await alice.said_by(room, bot)]
    assert texts == [ENCRYPTED]
    assert stub_llm.requests == []


async def test_reset_and_status(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """!status answers without the model; !reset starts a session that forgot the old one."""
    bot = accounts.bot.user_id
    state = tmp_path / "mx.json"
    async with (
        people(synapse, accounts.alice) as [alice],
        serving(mx_settings(synapse, accounts), runtime, state),
    ):
        room = await alice.room(bot)
        await wait_joined(alice, room, bot)
        await alice.send(room, "remember apples")
        await alice.send(room, "!status")
        await alice.send(room, "!reset")
        await alice.send(room, "what fruit?")
        texts = await wait_for_texts(alice, room, bot, 4)
    assert texts[0] == "echo: remember apples"
    assert f"Session: matrix:{room}\n" in texts[1]
    assert f"Tenant: matrix:{accounts.alice.user_id}" in texts[1]
    assert texts[2] == "Started a new conversation."
    assert len(stub_llm.requests) == 2
    assert "apples" not in json.dumps(stub_llm.requests[1]["messages"])
    assert json.loads(state.read_text())["generations"] == {room: 1}


async def test_deliver_reaches_a_room(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, tmp_path: Path
) -> None:
    """deliver(matrix:!room:server) posts there, formatted, split when long."""
    bot = accounts.bot.user_id
    settings = mx_settings(synapse, accounts, max_message_chars=300)
    long = "\n\n".join(f"Paragraph {i}: " + " ".join(["word"] * 30) for i in range(5))
    async with people(synapse, accounts.alice) as [alice]:
        async with serving(settings, runtime, tmp_path / "mx.json"):
            room = await alice.room(bot)
            await wait_joined(alice, room, bot)
        async with MatrixChannel(settings, state_path=tmp_path / "mx.json") as channel:
            await channel.deliver(Target.parse(f"matrix:{room}"), "Heartbeat: **all good**")
            await channel.deliver(Target("matrix", room), long)
            with pytest.raises(ValueError, match="not a matrix target"):
                await channel.deliver(Target("telegram", room), "x")
            with pytest.raises(MatrixError) as refused:
                await channel.deliver(Target("matrix", "!nowhere:localhost"), "x")
        said = await alice.said_by(room, bot)
    assert said[0]["content"]["formatted_body"] == "<p>Heartbeat: <strong>all good</strong></p>"
    parts = [e["content"]["body"] for e in said[1:]]
    assert len(parts) >= 4 and all(len(p) <= 300 for p in parts)
    assert "\n\n".join(parts) == long
    assert accounts.bot.access_token not in str(refused.value)


async def test_tenants_are_isolated_between_users(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """Two users in one group room each continue their own conversation (their own tenant)."""
    bot = accounts.bot.user_id
    async with (
        people(synapse, accounts.alice, accounts.bob) as [alice, bob],
        serving(mx_settings(synapse, accounts), runtime, tmp_path / "mx.json"),
    ):
        room = await alice.room(bot, accounts.bob.user_id, direct=False)
        await bob.join(room)
        await wait_joined(alice, room, bot)
        await alice.send(room, f"{bot} alice secret is plums")
        await wait_for_texts(alice, room, bot, 1)
        await bob.send(room, f"{bot} what is the secret?")
        await wait_for_texts(alice, room, bot, 2)
        await alice.send(room, f"{bot} !status")
        await wait_for_texts(alice, room, bot, 3)
        await bob.send(room, f"{bot}: !status")
        texts = await wait_for_texts(alice, room, bot, 4)
    assert "plums" not in json.dumps(stub_llm.requests[1]["messages"])
    assert f"Tenant: matrix:{accounts.alice.user_id}" in texts[2]
    assert f"Tenant: matrix:{accounts.bob.user_id}" in texts[3]
    assert "Messages in this session: 2" in texts[3]


async def test_password_login_stores_token_privately_and_secrets_stay_out(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, tmp_path: Path
) -> None:
    """A password login stores its token 0600 and reuses it; neither secret reaches the logs."""
    bot = accounts.bot
    settings = mx_settings(synapse, accounts, access_token=None, password=bot.password)
    state = tmp_path / "mx.json"
    session = tmp_path / "matrix-session.json"
    with capture_logs() as logs:
        async with people(synapse, accounts.alice) as [alice]:
            async with serving(settings, runtime, state):
                room = await alice.room(bot.user_id)
                await wait_joined(alice, room, bot.user_id)
                await alice.send(room, "hi")
                await wait_for_texts(alice, room, bot.user_id, 1)
            stored = json.loads(session.read_text())
            assert stat.S_IMODE(session.stat().st_mode) == 0o600
            assert stat.S_IMODE(state.stat().st_mode) == 0o600
            async with serving(settings, runtime, state):
                await alice.send(room, "again")
                await wait_for_texts(alice, room, bot.user_id, 2)
                assert json.loads(session.read_text()) == stored  # reused, no second login
                assert sum(e["event"] == "matrix.logged_in" for e in logs) == 1
                # The token revoked while the bot runs: it logs in again with the password.
                headers = {"Authorization": f"Bearer {stored['access_token']}"}
                async with httpx.AsyncClient() as http:
                    out = await http.post(
                        f"{synapse.url}/_matrix/client/v3/logout", headers=headers, json={}
                    )
                    assert out.status_code == 200
                await alice.send(room, "after logout")
                await wait_for_texts(alice, room, bot.user_id, 3)
            renewed = json.loads(session.read_text())
    assert renewed["access_token"] != stored["access_token"]
    assert stat.S_IMODE(session.stat().st_mode) == 0o600
    text = repr(logs)
    for secret in (stored["access_token"], renewed["access_token"], bot.password, bot.access_token):
        assert secret not in text


async def test_homeserver_restart_reconnects_and_answers(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, tmp_path: Path
) -> None:
    """Synapse stopped and started while the channel runs: it reconnects and answers."""
    bot = accounts.bot.user_id
    async with people(synapse, accounts.alice) as [alice]:
        async with serving(mx_settings(synapse, accounts), runtime, tmp_path / "mx.json") as ch:
            room = await alice.room(bot)
            await wait_joined(alice, room, bot)
            with capture_logs() as logs:
                await anyio.to_thread.run_sync(synapse.stop)
                await wait_until(lambda: not ch.ready)
                await anyio.to_thread.run_sync(synapse.start)
                await alice.send(room, "after the outage")
                texts = await wait_for_texts(alice, room, bot, 1)
    assert texts == ["echo: after the outage"]
    assert any(e["event"] == "matrix.reconnected" for e in logs)
    assert accounts.bot.access_token not in repr(logs)


ASK_EXEC = "TOOL:exec " + json.dumps({"command": "echo from-the-sandbox"})


def _offered(stub: StubLLM, text: str) -> set[str]:
    """The tools offered in the model requests whose last user message ends with ``text``."""
    return {
        t["function"]["name"]
        for body in stub.requests
        if any(str(m.get("content") or "").endswith(text) for m in body["messages"][-1:])
        for t in body.get("tools") or ()
    }


async def test_a_group_room_never_sees_exec_and_a_dm_does(
    synapse: Synapse, accounts: Accounts, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A room of three is the policy's matrix_group (no exec); a direct room matrix_private."""
    stub_llm.fallback = tool_agent
    bot = accounts.bot.user_id
    async with (
        people(synapse, accounts.alice, accounts.bob) as [alice, bob],
        serving(mx_settings(synapse, accounts), runtime, tmp_path / "mx.json"),
    ):
        group = await alice.room(bot, accounts.bob.user_id, direct=False)
        await bob.join(group)
        await wait_joined(alice, group, bot)
        await alice.send(group, f"{bot}: {ASK_EXEC}")
        [in_group] = await wait_for_texts(alice, group, bot, 1)
        offered_in_group = _offered(stub_llm, ASK_EXEC)
        stub_llm.requests.clear()
        direct = await alice.room(bot)
        await wait_joined(alice, direct, bot)
        await alice.send(direct, ASK_EXEC)
        await wait_for_texts(alice, direct, bot, 1)
    assert "exec" not in offered_in_group and "read_file" in offered_in_group
    assert "unknown tool 'exec'" in in_group
    assert "exec" in _offered(stub_llm, ASK_EXEC)
