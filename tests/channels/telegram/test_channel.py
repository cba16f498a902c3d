"""The Telegram channel against the fake Bot API on loopback, with a real Runtime and stub LLM."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import anyio.lowlevel
import pytest
from structlog.testing import capture_logs

from agentd import scope as scopes
from agentd.daemon.logging import Redact
from agentd.engine.runtime import Runtime
from agentd.errors import TelegramError
from channels.base import Target
from channels.chat.replies import MODEL_ERROR
from channels.telegram.channel import TelegramChannel
from channels.telegram.senders import OWN_TENANT
from tests.channels.conftest import serving, tg_settings, wait_until
from tests.support.fake_telegram import TOKEN, FakeTelegram, Fault
from tests.support.stub_llm import Reply, StubLLM, echo

pytestmark = pytest.mark.anyio


def texts(fake: FakeTelegram, chat: int) -> list[str]:
    return [p["text"] for p in fake.sent(chat)]


async def test_allowed_message_gets_one_reply_and_typing(
    fake_tg: FakeTelegram, runtime: Runtime, tmp_path: Path
) -> None:
    """An allowed sender gets exactly one answer, and sees "typing" while the model works."""
    fake_tg.message(42, "hello")
    async with serving(fake_tg, runtime, tmp_path / "tg.json") as channel:
        await wait_until(lambda: fake_tg.sent(42))
        assert channel.ready
        await wait_until(lambda: fake_tg.confirmed > 0)
    assert texts(fake_tg, 42) == ["echo: hello"]
    typing = fake_tg.called("sendChatAction")
    assert typing and typing[0].params == {"chat_id": "42", "action": "typing"}


async def test_refused_sender_gets_nothing(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A sender outside allow_from is logged at info and gets no reply; the model never sees it."""
    fake_tg.message(7, "let me in", username="mallory")
    fake_tg.message(42, "after")
    with capture_logs() as logs:
        async with serving(fake_tg, runtime, tmp_path / "tg.json"):
            await wait_until(lambda: fake_tg.sent(42))
            await wait_until(lambda: any(e["event"] == "telegram.refused" for e in logs))
    assert fake_tg.sent(7) == []
    assert not fake_tg.called("sendChatAction") or all(
        c.params["chat_id"] == "42" for c in fake_tg.called("sendChatAction")
    )
    assert all("let me in" not in json.dumps(r) for r in stub_llm.requests)
    refused = [e for e in logs if e["event"] == "telegram.refused"]
    assert refused == [
        {
            "event": "telegram.refused",
            "log_level": "info",
            "chat": 7,
            "sender": "7",
            "username": "mallory",
        }
    ]


async def test_username_in_allow_from_is_allowed(
    fake_tg: FakeTelegram, runtime: Runtime, tmp_path: Path
) -> None:
    """A sender listed by @username (any case) is answered."""
    fake_tg.message(55, "hi", username="Alice")
    async with serving(fake_tg, runtime, tmp_path / "tg.json"):
        await wait_until(lambda: fake_tg.sent(55))
    assert texts(fake_tg, 55) == ["echo: hi"]


async def test_group_answers_only_when_mentioned_or_replied_to(
    fake_tg: FakeTelegram, runtime: Runtime, tmp_path: Path
) -> None:
    """In a group, chatter is ignored; a mention or a reply to the bot is answered in thread."""
    group = -1001
    fake_tg.message(group, "just chatting", user_id=42, chat_type="supergroup")
    fake_tg.message(group, "@Agentd_Bot what time is it?", user_id=42, chat_type="supergroup")
    fake_tg.message(group, "and now?", user_id=42, chat_type="supergroup", reply_to_bot=True)
    fake_tg.message(group, "@agentd_bot me too", user_id=8, chat_type="supergroup")
    fake_tg.message(group, "last @agentd_bot", user_id=42, chat_type="supergroup")
    fake_tg.message(42, "done")
    async with serving(fake_tg, runtime, tmp_path / "tg.json"):
        await wait_until(lambda: fake_tg.sent(42) and len(fake_tg.sent(group)) >= 3)
    assert texts(fake_tg, group) == ["echo: what time is it?", "echo: and now?", "echo: last"]
    for params in fake_tg.sent(group):
        assert params["reply_parameters"]["allow_sending_without_reply"] is True
    assert "reply_parameters" not in fake_tg.sent(42)[0]


async def test_one_chat_in_order_other_chats_not_blocked(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """Messages of one chat are answered in order; a slow turn does not hold up another chat."""

    def answer(body: dict[str, Any]) -> Reply:
        if "one" in json.dumps(body["messages"][-1]):
            return Reply(text="slow first", delay=1.0)
        return echo(body)

    stub_llm.fallback = answer
    fake_tg.message(42, "one")
    fake_tg.message(42, "two")
    fake_tg.message(55, "other", username="alice")
    async with serving(fake_tg, runtime, tmp_path / "tg.json"):
        await wait_until(lambda: len(fake_tg.sent(42)) == 2)
    order = [(p["chat_id"], p["text"]) for p in fake_tg.sent()]
    assert order.index(("55", "echo: other")) < order.index(("42", "slow first"))
    assert texts(fake_tg, 42) == ["slow first", "echo: two"]


async def test_restart_neither_loses_nor_repeats(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """After a restart only new messages are answered, each once."""
    state = tmp_path / "tg.json"
    fake_tg.message(42, "first")
    fake_tg.message(42, "second")
    async with serving(fake_tg, runtime, state):
        await wait_until(lambda: len(fake_tg.sent(42)) == 2)
    fake_tg.message(42, "third")
    async with serving(fake_tg, runtime, state):
        await wait_until(lambda: len(fake_tg.sent(42)) == 3)
        await wait_until(lambda: not json.loads(state.read_text())["pending"])
    assert texts(fake_tg, 42) == ["echo: first", "echo: second", "echo: third"]
    assert len(stub_llm.requests) == 3


async def test_answered_but_unconfirmed_updates_are_not_repeated(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """Updates Telegram still offers (never confirmed) but the ledger passed are skipped."""
    old = fake_tg.message(42, "answered before the crash")
    state = tmp_path / "tg.json"
    state.write_text(json.dumps({"offset": old + 1, "pending": [], "generations": {}}))
    fake_tg.message(42, "new")
    async with serving(fake_tg, runtime, state):
        await wait_until(lambda: fake_tg.sent(42))
    assert texts(fake_tg, 42) == ["echo: new"]
    assert len(stub_llm.requests) == 1


async def test_update_interrupted_mid_turn_is_answered_after_restart(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A turn cut off by shutdown leaves its update pending; the next run answers it once."""
    state = tmp_path / "tg.json"
    stub_llm.add(Reply(text="never sent", delay=3.0))
    update = fake_tg.message(42, "interrupted")
    async with serving(fake_tg, runtime, state):
        await wait_until(lambda: stub_llm.requests and fake_tg.confirmed > update)
    assert fake_tg.sent(42) == []
    assert [u["update_id"] for u in json.loads(state.read_text())["pending"]] == [update]
    async with serving(fake_tg, runtime, state):
        await wait_until(lambda: fake_tg.sent(42))
        await wait_until(lambda: not json.loads(state.read_text())["pending"])
    assert texts(fake_tg, 42) == ["echo: interrupted"]


async def test_failures_are_retried_and_reply_arrives_once(
    fake_tg: FakeTelegram, runtime: Runtime, tmp_path: Path
) -> None:
    """500s, dropped connections and 429s (retry_after honoured) end in exactly one reply."""
    fake_tg.fail("getUpdates", Fault("500"), Fault("drop"), Fault("429", retry_after=0.3))
    fake_tg.fail("sendMessage", Fault("drop"), Fault("500"), Fault("429", retry_after=0.3))
    fake_tg.message(42, "despite it all")
    async with serving(fake_tg, runtime, tmp_path / "tg.json") as channel:
        await wait_until(lambda: fake_tg.sent(42))
        await wait_until(lambda: channel.ready)
    assert texts(fake_tg, 42) == ["echo: despite it all"]
    for method in ("getUpdates", "sendMessage"):
        calls = fake_tg.called(method)
        assert len(calls) >= 4
        assert calls[3].at - calls[2].at >= 0.3  # the wait Telegram asked for, not the backoff


async def test_unreachable_telegram_is_not_ready_and_retries(
    runtime: Runtime, tmp_path: Path
) -> None:
    """With nothing listening, serve still starts, reports not ready, and keeps retrying."""
    fake = FakeTelegram()
    fake.start()
    fake.stop()  # the port is now closed
    with capture_logs() as logs:
        async with serving(fake, runtime, tmp_path / "tg.json") as channel:
            assert not channel.ready
            await wait_until(lambda: sum(e["event"] == "telegram.unreachable" for e in logs) >= 3)
            assert not channel.ready
    assert TOKEN not in repr(logs)
    assert TOKEN.split(":")[1] not in repr(logs)


async def test_becomes_ready_after_failures(
    fake_tg: FakeTelegram, runtime: Runtime, tmp_path: Path
) -> None:
    """Failed getMe calls are retried until the Bot API answers; then the channel is ready."""
    fake_tg.fail("getMe", Fault("500"), Fault("drop"))
    async with serving(fake_tg, runtime, tmp_path / "tg.json") as channel:
        await wait_until(lambda: channel.ready)
    assert len(fake_tg.called("getMe")) == 3


async def test_long_reply_is_split_in_order(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """A 20,000-character answer arrives as several messages under 4,096, at paragraph ends."""
    paragraphs = [f"Paragraph {i}: " + " ".join(["word"] * 120) for i in range(30)]
    stub_llm.add(Reply(text="\n\n".join(paragraphs)))
    fake_tg.message(42, "tell me everything")
    async with serving(fake_tg, runtime, tmp_path / "tg.json"):
        await wait_until(lambda: fake_tg.sent(42))
        await wait_until(lambda: "Paragraph 29" in texts(fake_tg, 42)[-1])
    parts = texts(fake_tg, 42)
    assert len(parts) >= 5
    assert all(len(p) <= 4096 for p in parts)
    assert "\n\n".join(parts) == "\n\n".join(paragraphs)
    assert all(p.startswith("Paragraph") for p in parts)


async def test_formatting_is_sent_as_html(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """Markdown in the answer becomes Telegram HTML that Telegram accepts."""
    stub_llm.add(Reply(text="**Sure** a<b & `x<y`"))
    fake_tg.message(42, "format")
    async with serving(fake_tg, runtime, tmp_path / "tg.json"):
        await wait_until(lambda: fake_tg.sent(42))
    [sent] = fake_tg.sent(42)
    assert sent["parse_mode"] == "HTML"
    assert sent["text"] == "<b>Sure</b> a&lt;b &amp; <code>x&lt;y</code>"


async def test_rejected_entities_fall_back_to_plain_text(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """When Telegram cannot parse the entities, the same part is sent once as plain text."""
    stub_llm.add(Reply(text="**bold** claim"))
    fake_tg.fail("sendMessage", Fault("parse"))
    fake_tg.message(42, "x")
    async with serving(fake_tg, runtime, tmp_path / "tg.json", parse_mode="MarkdownV2"):
        await wait_until(lambda: fake_tg.sent(42))
    [sent] = fake_tg.sent(42)
    assert sent["text"] == "**bold** claim"
    assert "parse_mode" not in sent
    assert fake_tg.called("sendMessage")[0].params["text"] == "*bold* claim"


async def test_reset_starts_a_new_session(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """/reset answers without the model, and the next turn does not see the old messages."""
    state = tmp_path / "tg.json"
    fake_tg.message(42, "remember apples")
    fake_tg.message(42, "/reset")
    fake_tg.message(42, "what fruit?")
    async with serving(fake_tg, runtime, state):
        await wait_until(lambda: len(fake_tg.sent(42)) == 3)
    assert texts(fake_tg, 42)[1] == "Started a new conversation."
    assert len(stub_llm.requests) == 2
    assert "apples" not in json.dumps(stub_llm.requests[1]["messages"])
    assert json.loads(state.read_text())["generations"] == {"42": 1}


async def test_status_answers_without_the_model(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """/status reports the session and is answered without calling the model."""
    fake_tg.message(42, "/status")
    async with serving(fake_tg, runtime, tmp_path / "tg.json"):
        await wait_until(lambda: fake_tg.sent(42))
    [status] = texts(fake_tg, 42)
    assert "Session: telegram:42" in status
    assert "Context last turn: not measured yet" in status
    assert stub_llm.requests == []


async def test_status_says_how_full_the_context_was(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """After a turn, /status gives the prompt tokens of the last model call and the context."""
    fake_tg.message(42, "hello")
    fake_tg.message(42, "/status")
    async with serving(fake_tg, runtime, tmp_path / "tg.json"):
        await wait_until(lambda: len(fake_tg.sent(42)) == 2)
    status = texts(fake_tg, 42)[1]
    with scopes.use(scopes.Scope(tenant=OWN_TENANT.format(user_id=42))):
        tokens = runtime.status("telegram:42").context_tokens
    assert tokens > 0 and f"Context last turn: {tokens:,} of 4,096 tokens" in status


async def test_model_failure_gets_an_apology(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """When the model server fails, the sender gets one short apology, not silence."""
    stub_llm.add(Reply(status=500, text="boom"))
    fake_tg.message(42, "hi")
    async with serving(fake_tg, runtime, tmp_path / "tg.json"):
        await wait_until(lambda: fake_tg.sent(42))
    assert texts(fake_tg, 42) == [MODEL_ERROR]


async def test_deliver_sends_to_a_chat(fake_tg: FakeTelegram, tmp_path: Path) -> None:
    """deliver(telegram:42, text) sends the text there, formatted, without serving."""
    channel = TelegramChannel(tg_settings(fake_tg), state_path=tmp_path / "tg.json")
    async with channel:
        await channel.deliver(Target.parse("telegram:42"), "Heartbeat: **all good**")
        await channel.deliver(Target("telegram", "42"), "   ")
        with pytest.raises(ValueError, match="not a telegram target"):
            await channel.deliver(Target("http", "42"), "x")
    assert texts(fake_tg, 42) == ["Heartbeat: <b>all good</b>"]


@pytest.mark.parametrize(
    "token", [pytest.param(TOKEN, id="reachable"), pytest.param("1:wrong", id="rejected")]
)
async def test_errors_never_contain_the_token(
    fake_tg: FakeTelegram, tmp_path: Path, token: str
) -> None:
    """Delivery errors (refused token, closed port) name the method, never the token."""
    fake_tg.fail("sendMessage", *[Fault("500")] * 10)
    settings = tg_settings(fake_tg, token=token)
    async with TelegramChannel(settings, state_path=tmp_path / "tg.json") as channel:
        with pytest.raises(TelegramError) as caught:
            await channel.deliver(Target("telegram", "42"), "hi")
    assert "sendMessage" in str(caught.value)
    assert token not in str(caught.value) and caught.value.__cause__ is None
    fake_tg.stop()
    async with TelegramChannel(settings, state_path=tmp_path / "tg.json") as channel:
        with pytest.raises(TelegramError) as caught:
            await channel.deliver(Target("telegram", "42"), "hi")
    assert caught.value.status == 0 and token not in str(caught.value)


def test_redact_masks_a_bot_url() -> None:
    """The log redaction processor masks a bot token inside a URL."""
    event = Redact()(None, "info", {"event": "x", "url": f"https://h/bot{TOKEN}/getMe"})
    assert TOKEN not in event["url"] and event["url"] == "https://h/bot[redacted]/getMe"


def test_missing_token_is_a_config_error(fake_tg: FakeTelegram, tmp_path: Path) -> None:
    """Enabled without a token: config loading fails (exit 78) and says where to put one."""
    from agentd.config import load_settings
    from agentd.errors import ConfigError

    with pytest.raises(ConfigError, match="TELEGRAM_BOT_TOKEN") as err:
        load_settings(environ={"AGENTD_CHANNELS__TELEGRAM__ENABLED": "true"})
    assert err.value.key == "channels.telegram"
    settings = tg_settings(fake_tg).model_copy(update={"token": None})
    with pytest.raises(ConfigError, match="TELEGRAM_BOT_TOKEN"):
        TelegramChannel(settings, state_path=tmp_path / "x.json")


async def test_serve_is_cancelled_cleanly(
    fake_tg: FakeTelegram, runtime: Runtime, tmp_path: Path
) -> None:
    """Cancelling the task group mid long-poll ends serve without errors."""
    async with serving(fake_tg, runtime, tmp_path / "tg.json") as channel:
        await wait_until(lambda: fake_tg.called("getUpdates"))
        await anyio.lowlevel.checkpoint()
    assert not channel.ready


def test_channel_satisfies_the_protocols(fake_tg: FakeTelegram, tmp_path: Path) -> None:
    """TelegramChannel is a Channel and a Deliverer named "telegram"."""
    from channels.base import Channel, Deliverer

    channel = TelegramChannel(tg_settings(fake_tg), state_path=tmp_path / "tg.json")
    assert isinstance(channel, Channel) and isinstance(channel, Deliverer)
    assert channel.name == "telegram"


async def test_serve_again_after_a_crash_on_the_same_channel(
    fake_tg: FakeTelegram, runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """The same channel object can be entered and served again (a restart by its supervision)."""
    channel = TelegramChannel(tg_settings(fake_tg), state_path=tmp_path / "tg.json")
    stub_llm.add(Reply(text="never sent", delay=3.0))
    update = fake_tg.message(42, "one")
    async with channel, anyio.create_task_group() as tg:
        await tg.start(channel.serve, runtime)
        await wait_until(lambda: stub_llm.requests and fake_tg.confirmed > update)
        tg.cancel_scope.cancel()
    async with channel, anyio.create_task_group() as tg:
        await tg.start(channel.serve, runtime)
        await wait_until(lambda: fake_tg.sent(42) and not channel.ledger.pending)
        tg.cancel_scope.cancel()
    assert texts(fake_tg, 42) == ["echo: one"]
    with pytest.raises(RuntimeError, match="async with"):
        await channel.deliver(Target("telegram", "42"), "closed")
