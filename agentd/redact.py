"""Scrubbing secrets out of text that leaves the daemon: errors sent to clients, log lines.

A model server may echo the request (its ``Authorization`` header included) in an error, and a
URL may carry a password in its userinfo. :class:`Scrubber` replaces, in any text:

- every known secret value (the LLM API key, HTTP tokens, bot tokens... see
  :func:`agentd.config.secret_values`), wherever it appears;
- the credentials of an ``Authorization:`` header and of a ``Bearer <token>``;
- a Telegram bot token in a URL path (``/bot123:ABC``) and an ``api_key=`` query value;
- URL userinfo: ``http://user:pass@host`` keeps the user, ``http://token@host`` keeps nothing;
  and a ``password=`` query value (libpq and asyncpg take a database password there).

Patterns catch secrets the daemon does not know; exact values catch those the patterns miss.
Scrub whole texts before truncating them, or a secret cut in half escapes both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: What a scrubbed secret is shown as.
MASK = "***"

# The header's credentials (its scheme word kept): "Authorization: Bearer sk-x",
# {"authorization": "Basic eDp5"}, "authorization=sk-x".
_AUTH_HEADER = re.compile(
    r"""(authorization["']?\s*[:=]\s*["']?(?:[A-Za-z]+\s+)?)[^"'\s,;}]+""", re.IGNORECASE
)
_BEARER = re.compile(r"(bearer\s+)[A-Za-z0-9._~+/=-]+", re.IGNORECASE)
_BOT_TOKEN = re.compile(r"(/bot)\d+:[A-Za-z0-9_-]+")
_API_KEY_QUERY = re.compile(r"(api_?key=)[^&\s\"']+", re.IGNORECASE)
# ?password=... or &password=... (a database URL's other way to carry its password; libpq's
# sslpassword too).
_QUERY_PASSWORD = re.compile(r"([?&](?:ssl)?password=)[^&#\s\"']*", re.IGNORECASE)
# scheme://user:password@ or scheme://token@. The user has no '/', '@' or ':'; a password runs
# to the last '@' before the host (an unencoded '@' in it must not leave its tail visible).
_USERINFO = re.compile(r"([a-z][a-z0-9+.-]*://)([^/@\s:\"']*)(:[^/\s\"']*)?@", re.IGNORECASE)


def _userinfo(match: re.Match[str], mask: str) -> str:
    scheme, user, password = match.group(1), match.group(2), match.group(3)
    if password is None:
        # A lone userinfo is usually a token (https://TOKEN@host): hide it whole.
        return f"{scheme}{mask}@" if user else match.group(0)
    return f"{scheme}{user}:{mask}@"


def mask_url(url: str, mask: str = MASK) -> str:
    """``url`` with its userinfo's password (or lone token) and its ``password=`` query value
    replaced by ``mask``."""
    masked = _USERINFO.sub(lambda m: _userinfo(m, mask), url)
    return _QUERY_PASSWORD.sub(lambda m: m.group(1) + mask, masked)


class Scrubber:
    """Replaces secrets in text; see the module docstring for what counts as one."""

    __slots__ = ("_mask", "_secrets")

    def __init__(self, secrets: Iterable[str] = (), *, mask: str = MASK) -> None:
        # Longest first, so a secret that contains another is replaced whole.
        self._secrets = tuple(sorted({s for s in secrets if s}, key=len, reverse=True))
        self._mask = mask

    @property
    def secrets(self) -> tuple[str, ...]:
        """The exact values this scrubber replaces."""
        return self._secrets

    def __call__(self, text: str) -> str:
        mask = self._mask
        for secret in self._secrets:
            text = text.replace(secret, mask)
        text = _AUTH_HEADER.sub(lambda m: m.group(1) + mask, text)
        text = _BEARER.sub(lambda m: m.group(1) + mask, text)
        text = _BOT_TOKEN.sub(lambda m: m.group(1) + mask, text)
        text = _API_KEY_QUERY.sub(lambda m: m.group(1) + mask, text)
        return mask_url(text, mask)


__all__ = ["MASK", "Scrubber", "mask_url"]
