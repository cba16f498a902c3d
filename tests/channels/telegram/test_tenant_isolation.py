"""A property: however two or three Telegram senders' messages interleave, nothing crosses tenants.

Each example runs in process: the Telegram channel polls the fake Bot API through an
``httpx.MockTransport``, a real Runtime with SQLite history, per-tenant workdirs, file tools and
prompts runs each turn, and a scripted model appends the message to ``log.txt``, reads the file
back and answers with it. Every message is a token naming its sender; a token of another
tenant in a model request, a stored row, a tenant's files or a reply is a cross-tenant read or
write.
"""

from __future__ import annotations

import json
import re
import sqlite3
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentd.config import AgentDefaults, Settings, TelegramSettings
from agentd.daemon.prompt import TenantPrompts
from agentd.daemon.workdirs import Workdirs
from agentd.engine.loop import AgentLoop
from agentd.engine.notes import ANSWER_NOW, REMINDER_HEAD
from agentd.engine.policy import SessionPolicy
from agentd.engine.runtime import Runtime
from agentd.memory.history import SQLiteHistory
from agentd.messages import Message
from agentd.model.client import ChatResult
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.registry import ToolRegistry
from channels.telegram.channel import TelegramChannel
from tests.support.fake_model import FakeModel, answer
from tests.support.fake_telegram import TOKEN, FakeTelegram

TOKEN_RE = re.compile(r"tok-(\d+)-\d+")
RULES_RE = re.compile(r"rules-of-(\S+)")
SENDERS = (101, 102, 103)
EXAMPLES = 200
#: How a found crossing starts (other findings: a lost write, a failed turn).
CROSSED = "crossed"


def script(messages: Sequence[Message]) -> ChatResult:
    """Append the user's message to log.txt, then read log.txt, then answer with it."""
    asked = max(
        i
        for i, m in enumerate(messages)
        if m.role == "user"
        and not m.content.startswith(REMINDER_HEAD)
        and not m.content.startswith(ANSWER_NOW)
    )
    calls = [m for m in messages[asked:] if m.role == "assistant" and m.tool_calls]
    if not calls:
        args = json.dumps({"path": "log.txt", "text": messages[asked].content})
        return answer("", ("append_file", args))
    if len(calls) == 1:
        return answer("", ("read_file", json.dumps({"path": "log.txt"})))
    results = [m.content for m in messages[asked:] if m.role == "tool"]
    return answer("seen: " + results[-1].replace("\n", " "))


def bot_api(fake: FakeTelegram) -> httpx.MockTransport:
    """The fake Bot API's answers, served in process (no socket, no thread)."""

    async def handle(request: httpx.Request) -> httpx.Response:
        method = request.url.path.rsplit("/", 1)[-1]
        params = json.loads(request.content or b"{}")
        params["timeout"] = 0  # never block the event loop in the fake's long poll
        status, body = fake.answer(method, params)
        if method == "getUpdates" and not body["result"]:
            await anyio.sleep(0.002)
        return httpx.Response(status, json=body)

    return httpx.MockTransport(handle)


async def run_case(root: Path, tenants: dict[int, str | None], order: list[int]) -> list[str]:
    """Chat ``order`` (sender ids) through the channel; the crossings found, described."""
    allow: list[Any] = [
        {"user": s, "tenant": t} if t else (s if s % 2 else f"@user{s}") for s, t in tenants.items()
    ]
    config = Settings(workdir=root / "workdir", state_dir=root / "state")
    tg = TelegramSettings(
        enabled=True, token=TOKEN, base_url="http://bot.test", allow_from=allow, poll_timeout=0
    )
    tenant_of = {s: t or f"telegram:{s}" for s, t in tenants.items()}
    workdirs = Workdirs(config)
    for tenant in set(tenant_of.values()):
        (workdirs(tenant) / "AGENTS.md").write_text(f"rules-of-{tenant}")
    fake = FakeTelegram()
    texts: dict[str, int] = {}
    for i, sender in enumerate(order):
        text = f"tok-{sender}-{i}"
        texts[text] = sender
        fake.message(sender, text, username=f"user{sender}")
    model = FakeModel(fallback=script)
    tools = ToolRegistry()
    register_builtin_tools(tools, workdirs)
    async with (
        SQLiteHistory.open(config.history_path) as history,
        Runtime(
            AgentLoop(model, tools, max_steps=4),
            system_prompt="unused",
            prompt_for=TenantPrompts(workdirs),
            defaults=AgentDefaults(),
            sessions=SessionPolicy(history=history),
        ) as runtime,
        httpx.AsyncClient(transport=bot_api(fake)) as http,
        TelegramChannel(tg, state_path=root / "tg.json", http=http) as channel,
        anyio.create_task_group() as tg_group,
    ):
        await tg_group.start(channel.serve, runtime)
        with anyio.fail_after(20):
            # The fake records replies in plain code, which cannot set an anyio Event.
            while len(fake.sent()) < len(order):  # noqa: ASYNC110
                await anyio.sleep(0.005)
        tg_group.cancel_scope.cancel()
    return crossings(config, tenant_of, texts, model, fake)


def crossings(
    config: Settings,
    tenant_of: dict[int, str],
    texts: dict[str, int],
    model: FakeModel,
    fake: FakeTelegram,
) -> list[str]:
    """Every place where a token or rules of one tenant reached another (or a chat its own
    history missed), described."""
    found: list[str] = []

    def foreign(text: str, tenant: str, where: str) -> None:
        senders = {int(s) for s in TOKEN_RE.findall(text)}
        found.extend(
            f"{CROSSED} {where}: {tenant} saw a token of {tenant_of[s]}"
            for s in senders
            if tenant_of[s] != tenant
        )
        found.extend(
            f"{CROSSED} {where}: {tenant} saw rules-of-{rules}"
            for rules in RULES_RE.findall(text)
            if rules != tenant
        )

    for request in model.requests:
        users = [m for m in request.messages if m.role == "user" and TOKEN_RE.fullmatch(m.content)]
        sender = int(TOKEN_RE.fullmatch(users[-1].content).group(1))  # type: ignore[union-attr]
        tenant = tenant_of[sender]
        foreign(" ".join(m.content for m in request.messages), tenant, "model request")
        if f"rules-of-{tenant}" not in request.messages[0].content:
            found.append(f"model request: {tenant} missed its own AGENTS.md")
        # A session is one chat: no other sender's messages in its history.
        chats = {int(TOKEN_RE.fullmatch(m.content).group(1)) for m in users}  # type: ignore[union-attr]
        if chats != {sender}:
            found.append(f"{CROSSED} model request: chat {sender} saw chats {sorted(chats)}")
    with sqlite3.connect(config.history_path) as db:
        for tenant, session, body in db.execute("SELECT tenant, session_id, body FROM messages"):
            foreign(json.loads(body)["content"], tenant, "stored row")
            sender = int(session.removeprefix("telegram:"))
            if tenant_of[sender] != tenant:
                found.append(f"{CROSSED} stored row: session {session} stored under {tenant}")
    workdirs = Workdirs(config)
    for tenant in set(tenant_of.values()):
        log = workdirs.path(tenant) / "log.txt"
        written = log.read_text() if log.exists() else ""
        foreign(written, tenant, "workdir")
        mine = {text for text, s in texts.items() if tenant_of[s] == tenant}
        if set(written.split()) != mine:
            found.append(f"workdir: {tenant} holds {written.split()}, not {sorted(mine)}")
    for params in fake.sent():
        foreign(params["text"], tenant_of[int(params["chat_id"])], "reply")
        if not params["text"].startswith("seen: "):
            found.append(f"reply: a turn failed ({params['text'][:80]!r})")
    return found


@pytest.mark.timeout(300)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    st.integers(min_value=2, max_value=3).flatmap(
        lambda n: st.tuples(
            st.lists(st.sampled_from([None, "family", "work"]), min_size=n, max_size=n),
            st.lists(st.integers(0, n - 1), min_size=1, max_size=8),
        )
    )
)
def test_no_reads_or_writes_cross_tenants(case: tuple[list[str | None], list[int]]) -> None:
    """Random senders-to-tenants maps and message orders: 0 cross-tenant reads or writes."""
    mapping, picks = case
    tenants = {SENDERS[i]: t for i, t in enumerate(mapping)}
    order = [SENDERS[i] for i in picks]
    with tempfile.TemporaryDirectory() as tmp:
        found = anyio.run(run_case, Path(tmp), tenants, order)
    assert found == []
