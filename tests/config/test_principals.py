"""channels.http.principals: names, tenants and tokens (hashed) of the API's callers."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agentd.config import load_settings
from agentd.errors import ConfigError

DIGEST = hashlib.sha256(b"alice-secret").hexdigest()


def _load(tmp_path: Path, principals: list[dict[str, Any]]) -> Any:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"channels": {"http": {"principals": principals}}}))
    return load_settings(path, environ={}).settings.channels.http


def _refused(tmp_path: Path, principals: list[dict[str, Any]]) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, principals)
    return caught.value


def test_sha256_and_plain_tokens_give_the_same_digest(tmp_path: Path) -> None:
    """A 'sha256:<hex>' token and the plain token it hashes are compared by one digest."""
    http = _load(
        tmp_path,
        [
            {"name": "alice", "tenant": "alice", "token": f"sha256:{DIGEST}", "admin": True},
            {"name": "bob", "tenant": "bob", "token": "bob-secret"},
        ],
    )
    alice, bob = http.principals
    assert alice.digest == hashlib.sha256(b"alice-secret").digest()
    assert bob.digest == hashlib.sha256(b"bob-secret").digest()
    assert (alice.admin, bob.admin) == (True, False)
    assert bob.rate_limit is None and http.authenticated


def test_uppercase_hex_is_the_same_digest(tmp_path: Path) -> None:
    """The hex digits of a sha256: token may be written in either case."""
    http = _load(tmp_path, [{"name": "a", "tenant": "t", "token": f"sha256:{DIGEST.upper()}"}])
    assert http.principals[0].digest == bytes.fromhex(DIGEST)


def test_a_principal_may_have_its_own_rate_limit(tmp_path: Path) -> None:
    """rate_limit on a principal is kept for it (it overrides channels.http.rate_limit)."""
    limit = {"requests_per_minute": 5, "burst": 2}
    http = _load(tmp_path, [{"name": "a", "tenant": "t", "token": "x", "rate_limit": limit}])
    assert http.principals[0].rate_limit.burst == 2


@pytest.mark.parametrize(
    ("principals", "key", "says"),
    [
        pytest.param(
            [
                {"name": "alice", "tenant": "a", "token": "one"},
                {"name": "alice", "tenant": "b", "token": "two"},
            ],
            "channels.http.principals",
            "'alice' is used by entries 0 and 1",
            id="duplicate-name",
        ),
        pytest.param(
            [
                {"name": "alice", "tenant": "a", "token": "alice-secret"},
                {"name": "bob", "tenant": "b", "token": f"sha256:{DIGEST}"},
            ],
            "channels.http.principals",
            "same token",
            id="duplicate-token",
        ),
        pytest.param(
            [{"name": "alice", "tenant": "../etc", "token": "x"}],
            "channels.http.principals.0.tenant",
            "tenant name '../etc'",
            id="bad-tenant",
        ),
        pytest.param(
            [{"name": "token:0", "tenant": "a", "token": "x"}],
            "channels.http.principals.0.name",
            "should match pattern",
            id="name-with-colon",
        ),
        pytest.param(
            [{"name": "a", "tenant": "a", "token": "sha256:abc"}],
            "channels.http.principals.0.token",
            "64 hex digits",
            id="short-digest",
        ),
        pytest.param(
            [{"name": "a", "tenant": "a", "token": ""}],
            "channels.http.principals.0.token",
            "empty",
            id="empty-token",
        ),
        pytest.param(
            [{"name": "a", "tenant": "a"}],
            "channels.http.principals.0.token",
            "required",
            id="no-token",
        ),
    ],
)
def test_bad_principals_are_refused_naming_the_key(
    tmp_path: Path, principals: list[dict[str, Any]], key: str, says: str
) -> None:
    """A bad principal is a config error that names its key and says what is wrong."""
    error = _refused(tmp_path, principals)
    assert error.key == key
    assert says in error.reason


def test_a_token_may_not_also_be_a_principal(tmp_path: Path) -> None:
    """A principal's token that is also in channels.http.tokens is refused (two identities)."""
    path = tmp_path / "config.json"
    http = {"tokens": ["same"], "principals": [{"name": "a", "tenant": "a", "token": "same"}]}
    path.write_text(json.dumps({"channels": {"http": http}}))
    with pytest.raises(ConfigError) as caught:
        load_settings(path, environ={})
    assert caught.value.key == "channels.http"
    assert "also the token of principal 'a'" in caught.value.reason
    assert "same" not in caught.value.reason.replace("the token", "")


def test_a_refused_token_is_not_quoted(tmp_path: Path) -> None:
    """The error about a token never repeats the token."""
    error = _refused(tmp_path, [{"name": "a", "tenant": "a", "token": " secret-value "}])
    assert "secret-value" not in str(error)


def test_duplicate_principals_exit_78(tmp_path: Path) -> None:
    """`agentd config show` with two principals of one name exits 78 naming the key."""
    path = tmp_path / "config.json"
    twice = [
        {"name": "a", "tenant": "a", "token": "one"},
        {"name": "a", "tenant": "b", "token": "2"},
    ]
    path.write_text(json.dumps({"channels": {"http": {"principals": twice}}}))
    proc = subprocess.run(
        [sys.executable, "-m", "agentd", "--config", str(path), "config", "show"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 78
    assert "channels.http.principals" in proc.stderr
