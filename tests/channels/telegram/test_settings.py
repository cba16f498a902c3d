"""Telegram settings: the token from the environment, masked when shown; the ledger file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from agentd.config import Settings, TelegramSettings, describe, load_settings
from agentd.errors import ConfigError
from channels.telegram import TelegramChannel
from channels.telegram.state import UpdateLedger

pytestmark = pytest.mark.anyio


def test_token_from_flat_env_is_masked() -> None:
    """TELEGRAM_BOT_TOKEN sets channels.telegram.token, and `config show` masks it."""
    loaded = load_settings(environ={"TELEGRAM_BOT_TOKEN": "1:secret"})
    token = loaded.settings.channels.telegram.token
    assert token is not None and token.get_secret_value() == "1:secret"
    rows = {key: (shown, src) for key, shown, src in describe(loaded)}
    assert rows["channels.telegram.token"] == ("********", "env TELEGRAM_BOT_TOKEN")


def test_allow_from_and_parse_mode_from_nested_env() -> None:
    """allow_from takes ids and usernames; a bad parse_mode names the key."""
    env = {"AGENTD_CHANNELS__TELEGRAM__ALLOW_FROM": '[42, "@alice"]'}
    assert load_settings(environ=env).settings.channels.telegram.allow_from == [42, "@alice"]
    with pytest.raises(ConfigError, match=r"channels\.telegram\.parse_mode"):
        load_settings(environ={"AGENTD_CHANNELS__TELEGRAM__PARSE_MODE": "bbcode"})


def test_state_file_defaults_under_state_dir(tmp_path: Path) -> None:
    """Without state_file the ledger lives in state_dir/telegram.json."""
    settings = Settings(state_dir=tmp_path, channels={"telegram": {"token": "1:x"}})  # type: ignore[arg-type]
    assert TelegramChannel.from_settings(settings).state_path == tmp_path / "telegram.json"


async def test_ledger_survives_reload(tmp_path: Path) -> None:
    """Accepted updates stay pending until finished; old ids are not accepted again."""
    path = tmp_path / "sub" / "tg.json"
    ledger = await UpdateLedger.load(path)
    accepted = await ledger.accept([{"update_id": 11}, {"update_id": 10}])
    assert [u["update_id"] for u in accepted] == [10, 11]
    await ledger.finish(10)
    await ledger.reset("42")
    again = await UpdateLedger.load(path)
    assert again.offset == 12 and [u["update_id"] for u in again.replay()] == [11]
    assert await again.accept([{"update_id": 11}, {"update_id": 9}]) == []
    assert again.session_suffix("42") == "#1" and again.session_suffix("7") == ""


async def test_unreadable_ledger_starts_empty(tmp_path: Path) -> None:
    """A corrupt state file is ignored (Telegram re-offers what it was never told to forget)."""
    path = tmp_path / "tg.json"
    path.write_text("{not json")
    ledger = await UpdateLedger.load(path)
    assert ledger.offset is None and ledger.replay() == []
    await ledger.accept([{"update_id": 1}])
    assert json.loads(path.read_text())["offset"] == 2


@pytest.mark.parametrize(
    "allow_from",
    [
        pytest.param([42, {"user": 42, "tenant": "family"}], id="id"),
        pytest.param(["@Alice", {"user": "alice", "tenant": "family"}], id="username"),
    ],
)
def test_one_tenant_per_sender(allow_from: list[object]) -> None:
    """A sender listed twice with different tenants is refused, usernames in any case."""
    with pytest.raises(ValidationError, match="listed twice with different tenants"):
        TelegramSettings(allow_from=allow_from)  # type: ignore[arg-type]


def test_same_sender_twice_with_one_tenant() -> None:
    """A sender listed twice with the same tenant is allowed."""
    assert TelegramSettings(allow_from=[42, {"user": 42}]).allow_from  # type: ignore[list-item]
