"""Telegram senders run in tenants: their own by default, a shared one when configured."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from agentd.config import Settings, TelegramSender, TelegramSettings, load_settings
from agentd.daemon.app import open_app
from agentd.daemon.workdirs import Workdirs
from agentd.engine.runtime import Runtime
from agentd.errors import ConfigError
from channels.telegram.senders import Senders
from tests.channels.conftest import serving, wait_until
from tests.support.fake_telegram import FakeTelegram
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio


@pytest.fixture
def settings(stub_llm: StubLLM, tmp_path: Path) -> Settings:
    """Settings of a daemon on the stub LLM whose family tenant has its own AGENTS.md."""
    (tmp_path / "workdir").mkdir()
    settings = Settings(
        workdir=tmp_path / "workdir",
        state_dir=tmp_path / "state",
        llm={"base_url": stub_llm.url, "max_retries": 0},  # type: ignore[arg-type]
        memory={"embed": False},  # type: ignore[arg-type]
    )
    Workdirs(settings)("family")
    (Workdirs(settings).path("family") / "AGENTS.md").write_text("Family rules.")
    return settings


@pytest.fixture
async def app_runtime(settings: Settings) -> AsyncIterator[Runtime]:
    async with open_app(settings) as app:
        yield app.runtime


def rows(settings: Settings) -> list[tuple[str, str, str]]:
    """(tenant, session, content) of every stored message, oldest first."""
    with sqlite3.connect(settings.history_path) as db:
        found = db.execute("SELECT tenant, session_id, body FROM messages ORDER BY id").fetchall()
    return [(t, s, json.loads(b)["content"]) for t, s, b in found]


def requests_with(stub_llm: StubLLM, text: str) -> list[dict[str, Any]]:
    """The model requests whose last user message contains ``text``."""
    found = []
    for body in stub_llm.requests:
        users = [m for m in body["messages"] if m["role"] == "user"]
        if users and text in str(users[-1]["content"]):
            found.append(body)
    return found


async def test_two_senders_get_two_tenants(
    fake_tg: FakeTelegram,
    app_runtime: Runtime,
    settings: Settings,
    stub_llm: StubLLM,
    tmp_path: Path,
) -> None:
    """By default each sender is its own tenant: separate history rows, and the second
    sender's turn does not show the model anything of the first's."""
    fake_tg.message(42, "my pin is 4711")
    async with serving(fake_tg, app_runtime, tmp_path / "tg.json"):
        await wait_until(lambda: fake_tg.sent(42))
        fake_tg.message(55, "what is my pin?", username="alice")
        await wait_until(lambda: fake_tg.sent(55))
    stored = rows(settings)
    assert {(t, s) for t, s, _ in stored} == {
        ("telegram:42", "telegram:42"),
        ("telegram:55", "telegram:55"),
    }
    assert all("4711" not in c for t, _, c in stored if t == "telegram:55")
    [second] = requests_with(stub_llm, "what is my pin?")
    assert "4711" not in json.dumps(second)
    assert "Family rules." not in json.dumps(stub_llm.requests)


async def test_senders_configured_into_one_tenant_share_it(
    fake_tg: FakeTelegram,
    app_runtime: Runtime,
    settings: Settings,
    stub_llm: StubLLM,
    tmp_path: Path,
) -> None:
    """Two senders mapped to 'family' both run there (its prompt, its history); a third,
    unmapped sender does not."""
    allow = [{"user": 42, "tenant": "family"}, {"user": "@alice", "tenant": "family"}, 77]
    fake_tg.message(42, "from 42")
    fake_tg.message(55, "from alice", username="alice")
    fake_tg.message(77, "from 77")
    async with serving(fake_tg, app_runtime, tmp_path / "tg.json", allow_from=allow):
        await wait_until(lambda: fake_tg.sent(42) and fake_tg.sent(55) and fake_tg.sent(77))
    assert {(t, s) for t, s, _ in rows(settings)} == {
        ("family", "telegram:42"),
        ("family", "telegram:55"),
        ("telegram:77", "telegram:77"),
    }
    for text, has_rules in (("from 42", True), ("from alice", True), ("from 77", False)):
        [body] = requests_with(stub_llm, text)
        assert ("Family rules." in body["messages"][0]["content"]) is has_rules, text


async def test_group_message_runs_in_its_senders_tenant(
    fake_tg: FakeTelegram,
    app_runtime: Runtime,
    settings: Settings,
    tmp_path: Path,
) -> None:
    """In a group, each member's message is stored in the member's own tenant."""
    group = -1001
    fake_tg.message(group, "@agentd_bot one", user_id=42, chat_type="supergroup")
    fake_tg.message(group, "@agentd_bot two", user_id=55, username="alice", chat_type="group")
    async with serving(fake_tg, app_runtime, tmp_path / "tg.json"):
        await wait_until(lambda: len(fake_tg.sent(group)) == 2)
    stored = {(t, s, c) for t, s, c in rows(settings) if c in ("one", "two")}
    assert stored == {
        ("telegram:42", "telegram:-1001", "one"),
        ("telegram:55", "telegram:-1001", "two"),
    }


async def test_group_members_of_two_tenants_do_not_see_each_other(
    fake_tg: FakeTelegram, app_runtime: Runtime, stub_llm: StubLLM, tmp_path: Path
) -> None:
    """In one group, a member of another tenant continues its own conversation, not the first's."""
    group = -1001
    fake_tg.message(group, "@agentd_bot my pin is 4711", user_id=42, chat_type="supergroup")
    async with serving(fake_tg, app_runtime, tmp_path / "tg.json", allow_from=[42, 55]):
        await wait_until(lambda: fake_tg.sent(group))
        fake_tg.message(group, "@agentd_bot pin?", user_id=55, chat_type="supergroup")
        await wait_until(lambda: len(fake_tg.sent(group)) == 2)
    [second] = requests_with(stub_llm, "pin?")
    assert "4711" not in json.dumps(second)


async def test_pending_update_replays_in_its_senders_tenant(
    fake_tg: FakeTelegram,
    app_runtime: Runtime,
    settings: Settings,
    stub_llm: StubLLM,
    tmp_path: Path,
) -> None:
    """An update cut off by a shutdown is answered after the restart, in the same tenant."""
    state = tmp_path / "tg.json"
    allow = [{"user": 42, "tenant": "family"}]
    stub_llm.add(Reply(text="never sent", delay=3.0))
    update = fake_tg.message(42, "interrupted")
    async with serving(fake_tg, app_runtime, state, allow_from=allow):
        await wait_until(lambda: stub_llm.requests and fake_tg.confirmed > update)
    assert fake_tg.sent(42) == []
    async with serving(fake_tg, app_runtime, state, allow_from=allow):
        await wait_until(lambda: fake_tg.sent(42))
    assert {t for t, _, c in rows(settings) if c == "interrupted"} == {"family"}
    assert all("Family rules." in r["messages"][0]["content"] for r in stub_llm.requests)


async def test_status_names_the_tenant(
    fake_tg: FakeTelegram, app_runtime: Runtime, tmp_path: Path
) -> None:
    """/status tells the sender which tenant its messages run in."""
    fake_tg.message(42, "/status")
    async with serving(fake_tg, app_runtime, tmp_path / "tg.json"):
        await wait_until(lambda: fake_tg.sent(42))
    assert "Tenant: telegram:42" in fake_tg.sent(42)[0]["text"]


@pytest.mark.parametrize(
    ("user_id", "username", "tenant"),
    [
        pytest.param("42", "", "telegram:42", id="id-own-tenant"),
        pytest.param("7", "Alice", "fam", id="username-any-case"),
        pytest.param("8", "bob", "telegram:8", id="username-own-tenant"),
        pytest.param("9", "carol", "work", id="id-before-username"),
        pytest.param("10", "", None, id="not-listed"),
        pytest.param("", "alice", None, id="no-sender-id"),
        pytest.param("-100", "", None, id="not-a-user"),
    ],
)
def test_senders_lookup(user_id: str, username: str, tenant: str | None) -> None:
    """A sender is matched by id first, then by username (any case); others are refused."""
    senders = Senders(
        [
            42,
            "@bob",
            "",
            TelegramSender(user="@alice", tenant="fam"),
            TelegramSender(user=9, tenant="work"),
            TelegramSender(user="@carol", tenant="home"),
        ]
    )
    assert senders.tenant_of(user_id, username) == tenant


def test_allow_from_entries_name_tenants() -> None:
    """allow_from mixes plain ids and usernames with {"user", "tenant"} entries."""
    tg = TelegramSettings(allow_from=[1, "@a", {"user": 2, "tenant": "fam"}])  # type: ignore[list-item]
    assert tg.allow_from == [1, "@a", TelegramSender(user=2, tenant="fam")]


@pytest.mark.parametrize(
    "allow",
    [
        pytest.param([1, {"user": 1, "tenant": "fam"}], id="id-twice"),
        pytest.param(
            [{"user": "@A", "tenant": "x"}, {"user": "a", "tenant": "y"}], id="name-twice"
        ),
        pytest.param([{"user": 1, "tenant": "bad/name"}], id="bad-tenant"),
        pytest.param([{"user": "@", "tenant": "x"}], id="no-user"),
    ],
)
def test_allow_from_refuses_ambiguous_or_bad_entries(tmp_path: Path, allow: list[Any]) -> None:
    """A sender listed with two tenants, a bad tenant name or no user is a config error."""
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"channels": {"telegram": {"allow_from": allow}}}))
    with pytest.raises(ConfigError, match="allow_from"):
        load_settings(path, environ={})
