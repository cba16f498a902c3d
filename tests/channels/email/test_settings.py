"""The email channel's settings: a bad value stops agentd with the key in the message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentd.config import EmailSettings, load_settings
from agentd.errors import ConfigError


def _enabled(**overrides: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "enabled": True,
        "address": "agent@example.org",
        "imap": {"host": "imap.example.org", "username": "agent", "password": "pw"},
        "smtp": {"host": "smtp.example.org", "username": "agent", "password": "pw"},
        "allow_from": ["me@example.org"],
        "trusted_authserv_ids": ["mx.example.org"],
    }
    values.update(overrides)
    return values


def _load(tmp_path: Path, email: dict[str, Any], env: dict[str, str] | None = None) -> Any:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"channels": {"email": email}}))
    return load_settings(path, env or {})


@pytest.mark.parametrize(
    ("change", "key", "words"),
    [
        pytest.param({"address": ""}, "channels.email", "address", id="no-address"),
        pytest.param(
            {"trusted_authserv_ids": []}, "channels.email", "From header proves", id="no-proof"
        ),
        pytest.param(
            {"imap": {"host": "imap.example.org", "username": "a", "security": "none"}},
            "channels.email.imap",
            "loopback",
            id="plain-remote",
        ),
        pytest.param(
            {"imap": {"host": "h", "username": "a"}}, "channels.email", "IMAP password", id="no-pw"
        ),
        pytest.param({"allow_from": ["not-an-address"]}, "channels.email.allow_from", "", id="bad"),
        pytest.param(
            {"allow_from": [{"address": "a@b.org", "secret": "short"}]},
            "channels.email.allow_from",
            "letters and digits",
            id="short-secret",
        ),
        pytest.param(
            {"attachments_dir": "../out"}, "channels.email.attachments_dir", "", id="escape"
        ),
    ],
)
def test_bad_config_names_the_key(
    tmp_path: Path, change: dict[str, Any], key: str, words: str
) -> None:
    """Each mistake is one ConfigError naming the key (the CLI exits 78 on it)."""
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, _enabled(**change))
    assert caught.value.key.startswith(key)
    assert words in caught.value.reason
    assert "pw" not in str(caught.value).split("from")[-1].replace("password", "")


def test_password_from_env_and_file(tmp_path: Path) -> None:
    """The IMAP password may come from the environment; the SMTP one from a file."""
    secret = tmp_path / "smtp.pw"
    secret.write_text("from-file\n")
    email = _enabled(
        imap={"host": "imap.example.org", "username": "agent"},
        smtp={"host": "smtp.example.org", "username": "agent", "password_file": str(secret)},
    )
    loaded = _load(tmp_path, email, {"AGENTD_CHANNELS__EMAIL__IMAP__PASSWORD": "from-env"})
    cfg = loaded.settings.channels.email
    assert cfg.imap.secret() == "from-env"
    assert cfg.smtp.secret() == "from-file"


def test_ports_follow_security() -> None:
    """Unset ports are the usual ones for the chosen security."""
    cfg = EmailSettings(
        imap={"security": "starttls"},  # type: ignore[arg-type]
        smtp={"security": "tls"},  # type: ignore[arg-type]
    )
    assert (cfg.port_of("imap"), cfg.port_of("smtp")) == (143, 465)
