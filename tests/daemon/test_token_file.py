"""The HTTP API's generated token file: created 0600 once, reused, refused when unsafe."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from agentd.config import Settings
from agentd.daemon.token_file import read_token, resolve_token, token_path, with_http_token
from agentd.errors import ConfigError


def _settings(tmp_path: Path, **http: object) -> Settings:
    return Settings(
        state_dir=tmp_path / "state",
        channels={"http": {"enabled": True, **http}},  # type: ignore[arg-type]
    )


def test_first_resolve_creates_a_private_file_and_later_ones_reuse_it(tmp_path: Path) -> None:
    """The first call writes a random token with mode 0600; the next returns the same one."""
    path = tmp_path / "state" / "http.token"
    token, created = resolve_token(path)
    assert created and len(token) >= 40
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text() == f"{token}\n"
    assert resolve_token(path) == (token, False)


def test_a_missing_file_reads_as_none(tmp_path: Path) -> None:
    """read_token (the client side) never creates the file."""
    assert read_token(tmp_path / "http.token") is None
    assert not (tmp_path / "http.token").exists()


@pytest.mark.parametrize("mode", [0o640, 0o604, 0o660])
def test_a_file_others_may_read_is_refused(tmp_path: Path, mode: int) -> None:
    """A token file readable by group or others is a config error naming the file and a fix."""
    path = tmp_path / "http.token"
    path.write_text("secret-token\n")
    path.chmod(mode)
    with pytest.raises(ConfigError, match="chmod 600") as caught:
        resolve_token(path)
    assert str(path) in str(caught.value)


def test_a_symlink_is_refused_even_to_a_good_file(tmp_path: Path) -> None:
    """The file is opened without following links: a planted symlink is refused."""
    target = tmp_path / "elsewhere"
    target.write_text("secret-token\n")
    target.chmod(0o600)
    link = tmp_path / "http.token"
    link.symlink_to(target)
    with pytest.raises(ConfigError, match="symlink"):
        resolve_token(link)
    dangling = tmp_path / "dangling.token"
    dangling.symlink_to(tmp_path / "nothing-here")
    with pytest.raises(ConfigError, match="symlink"):
        resolve_token(dangling)
    assert not (tmp_path / "nothing-here").exists()


@pytest.mark.parametrize("content", ["", "\n", "two words\n"])
def test_a_file_without_a_token_is_refused(tmp_path: Path, content: str) -> None:
    """An empty or garbled token file is refused rather than silently replaced."""
    path = tmp_path / "http.token"
    path.write_text(content)
    path.chmod(0o600)
    with pytest.raises(ConfigError, match="no token"):
        read_token(path)


def test_a_hand_written_token_is_used(tmp_path: Path) -> None:
    """A token the user put in the file (mode 0600) is the one required."""
    path = tmp_path / "http.token"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, b"my-own-token\n")
    os.close(fd)
    assert resolve_token(path) == ("my-own-token", False)


def test_the_daemon_settings_require_the_generated_token(tmp_path: Path) -> None:
    """Without configured tokens the HTTP channel gets the file's token as its only one."""
    settings, path = with_http_token(_settings(tmp_path))
    assert path == token_path(settings) == tmp_path / "state" / "http.token"
    tokens = [t.get_secret_value() for t in settings.channels.http.tokens]
    assert tokens == [path.read_text().strip()]


@pytest.mark.parametrize(
    "http",
    [
        pytest.param({"tokens": ["configured"]}, id="configured-tokens"),
        pytest.param({"no_token_on_loopback": True}, id="opt-out"),
        pytest.param({"enabled": False}, id="channel-off"),
    ],
)
def test_no_file_when_it_is_not_needed(tmp_path: Path, http: dict[str, object]) -> None:
    """Configured tokens, the loopback opt-out or a disabled channel create no file."""
    before = _settings(tmp_path, **http)
    settings, path = with_http_token(before)
    assert (settings, path) == (before, None)
    assert not (tmp_path / "state" / "http.token").exists()
