"""``--url`` and ``--token``: which running daemon a command talks to, and as whom.

``agentd chat``, the ``--remote`` actions of ``agentd sessions`` and ``agentd tenants``, and
``agentd memory`` and ``agentd mcp serve`` beside a running daemon find the daemon and its
token the same way: the options, else ``$AGENTD_TOKEN``, the first of ``channels.http.tokens``,
else the token the daemon generated into the state directory.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from agentd.config import Settings

if TYPE_CHECKING:
    from agentd.cli.remote import DaemonClient

#: The exit status when no daemon answers (sysexits EX_UNAVAILABLE).
EX_UNAVAILABLE = 69


def remote_failure(exc: Exception) -> int:
    """Say on stderr why a call to the daemon failed; the exit status to return.

    ``DaemonUnavailable`` (nothing answers) is 69, ``DaemonError`` (the daemon refused) 1, any
    other exception an answer this command could not read (1).
    """
    from agentd.errors import DaemonError, DaemonUnavailable

    if isinstance(exc, DaemonUnavailable):
        print(f"agentd: {exc}", file=sys.stderr)
        return EX_UNAVAILABLE
    if isinstance(exc, DaemonError):
        print(f"agentd: the daemon refused: {exc}", file=sys.stderr)
        return 1
    print(f"agentd: the daemon's answer is malformed: {exc!r}", file=sys.stderr)
    return 1


def remote_options(*, remote_flag: bool) -> argparse.ArgumentParser:
    """A parent parser with ``--url`` and ``--token`` (and ``--remote`` with ``remote_flag``)."""
    common = argparse.ArgumentParser(add_help=False)
    if remote_flag:
        common.add_argument(
            "--remote",
            action="store_true",
            help="ask the running daemon over its HTTP API instead of reading the history file",
        )
    common.add_argument("--url", help="the daemon's HTTP API (default: from channels.http)")
    common.add_argument(
        "--token",
        help="bearer token (default: $AGENTD_TOKEN, the first of channels.http.tokens, "
        "else the daemon's generated state_dir/http.token)",
    )
    return common


def default_token(settings: Settings, url: str) -> str | None:
    """``$AGENTD_TOKEN``, the first configured token, else the generated one.

    The generated token is only sent to this machine: it never leaves with a ``--url``
    pointing elsewhere.
    """
    import httpx

    from agentd.config import is_loopback
    from agentd.daemon.token_file import read_token, token_path

    if os.environ.get("AGENTD_TOKEN"):
        return os.environ["AGENTD_TOKEN"]
    http_settings = settings.channels.http
    if http_settings.tokens:
        return http_settings.tokens[0].get_secret_value()
    if http_settings.no_token_on_loopback or not is_loopback(httpx.URL(url).host):
        return None
    return read_token(token_path(settings))


def target(settings: Settings, args: argparse.Namespace) -> tuple[str, str | None]:
    """The daemon's URL and the token to send it; raises ConfigError for an unreadable token."""
    from agentd.config import daemon_url

    url: str = args.url or daemon_url(settings.channels.http)
    return url, args.token or default_token(settings, url)


@asynccontextmanager
async def daemon_client(
    url: str, token: str | None, *, read_timeout: float = 30.0
) -> AsyncIterator[DaemonClient]:
    """A :class:`DaemonClient` of the daemon at ``url``, on a client of its own."""
    import httpx

    from agentd.cli.remote import DaemonClient

    async with httpx.AsyncClient(timeout=httpx.Timeout(read_timeout, connect=5.0)) as http:
        yield DaemonClient(http, url, token=token)
