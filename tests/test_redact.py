"""Secrets scrubbed from text that leaves the daemon (errors to clients, logs)."""

from __future__ import annotations

import pytest

from agentd.redact import MASK, Scrubber, mask_url


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("key sk-live-1234 echoed", f"key {MASK} echoed", id="exact-value"),
        pytest.param(
            "got Authorization: Bearer abc.def", f"got Authorization: Bearer {MASK}", id="header"
        ),
        pytest.param(
            '{"authorization": "Basic eDp5"}', f'{{"authorization": "Basic {MASK}"}}', id="json"
        ),
        pytest.param("Authorization=rawtoken", f"Authorization={MASK}", id="raw-header"),
        pytest.param("bearer xyz", f"bearer {MASK}", id="bearer"),
        pytest.param("https://h/bot12:AAx/getMe", f"https://h/bot{MASK}/getMe", id="bot-token"),
        pytest.param("http://h/?api_key=zz&x=1", f"http://h/?api_key={MASK}&x=1", id="query"),
        pytest.param("at http://u:pw@h:1/v1", f"at http://u:{MASK}@h:1/v1", id="userinfo"),
        pytest.param("at https://tok@h/", f"at https://{MASK}@h/", id="lone-userinfo"),
        pytest.param("http://h:8080/v1 is down", "http://h:8080/v1 is down", id="plain-url"),
        pytest.param("nothing here", "nothing here", id="plain"),
    ],
)
def test_scrubber_masks_secrets(text: str, expected: str) -> None:
    """Known values, auth headers, bot tokens, api_key queries and URL passwords are masked."""
    assert Scrubber(["sk-live-1234"])(text) == expected


def test_longer_secret_replaced_whole() -> None:
    """A secret that contains another is replaced whole, not in pieces."""
    assert Scrubber(["abcd", "abcdefgh"])("x abcdefgh y") == f"x {MASK} y"


def test_mask_url_keeps_the_user() -> None:
    """mask_url hides the password and keeps the user, host and path."""
    assert mask_url("http://user:pass@host:1/p") == f"http://user:{MASK}@host:1/p"
    assert mask_url("http://host:1/p") == "http://host:1/p"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("postgresql://u:p@ss@host/db", "postgresql://u:***@host/db"),
        (
            "postgresql://host/db?password=SECRET&sslmode=require",
            "postgresql://host/db?password=***&sslmode=require",
        ),
        ("postgresql://host/db?sslpassword=SECRET", "postgresql://host/db?sslpassword=***"),
        ("http://u:pw@h/x?mail=a@b", "http://u:***@h/x?mail=a@b"),
    ],
)
def test_database_url_passwords_are_masked_whole(text: str, shown: str) -> None:
    """A password with an unencoded '@' is masked to its end, and a password in the query
    (PostgreSQL takes ?password=) is masked too."""
    assert Scrubber()(text) == shown


def test_mask_url_masks_a_password_query_parameter() -> None:
    """libpq and asyncpg take a database password as ``?password=``: masked like userinfo's
    (the history and tick log URLs are logged, listed by ``agentd config`` and printed)."""
    url = "postgresql://u:p@h/db?sslmode=require&password=pw1&x=1#f"
    assert mask_url(url) == f"postgresql://u:{MASK}@h/db?sslmode=require&password={MASK}&x=1#f"
    assert mask_url("postgres://h/db?PassWord=pw1") == f"postgres://h/db?PassWord={MASK}"
    assert mask_url("http://h/p?password_hint=x") == "http://h/p?password_hint=x"
