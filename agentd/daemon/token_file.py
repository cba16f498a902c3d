"""The HTTP API's generated bearer token: ``state_dir/http.token``, mode 0600.

With no ``channels.http.tokens`` configured the daemon still requires a token, even on
loopback (any local user or process, and a browser tricked into it, could otherwise drive the
agent). It generates one on first start and reuses it after; ``agentd chat`` and other clients
on this machine read it from the file. The file is opened without following symlinks and
refused when another user owns it or anyone but its owner may read it, so no one can plant or
read the token through a shared state directory.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

import structlog
from pydantic import SecretStr

from agentd.config import Settings
from agentd.errors import ConfigError
from agentd.private import private_dir

__all__ = ["TOKEN_FILE", "read_token", "resolve_token", "token_path", "with_http_token"]

log = structlog.get_logger("agentd.daemon.token_file")

TOKEN_FILE = "http.token"
_KEY = "channels.http.tokens"
_MAX_BYTES = 4096


def token_path(settings: Settings) -> Path:
    """Where the generated token lives for ``settings``."""
    return settings.state_dir / TOKEN_FILE


def _refuse(path: Path, reason: str) -> ConfigError:
    return ConfigError(_KEY, str(path), reason)


def read_token(path: Path) -> str | None:
    """The token in ``path``; ``None`` when there is no such file.

    Raises :class:`ConfigError` for a symlink, a file that is not regular, owned by another
    user or readable by group or others, or one that holds no token.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if os.path.islink(path):
            raise _refuse(path, "the token file is a symlink: remove it") from None
        raise _refuse(path, f"cannot open the token file: {exc.strerror}") from exc
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise _refuse(path, "the token file is not a regular file: remove it")
        if info.st_uid != os.geteuid():
            raise _refuse(path, "the token file belongs to another user: remove it")
        if info.st_mode & 0o077:
            mode = stat.S_IMODE(info.st_mode)
            raise _refuse(
                path,
                f"the token file has mode {mode:04o}, readable by others: "
                f"`chmod 600 {path}` or remove it to generate a new token",
            )
        token = file.read(_MAX_BYTES).decode("utf-8", "replace").strip()
    if not token or any(c.isspace() or not c.isprintable() for c in token):
        raise _refuse(path, "the token file holds no token: remove it to generate a new one")
    return token


def _create(path: Path) -> str:
    token = secrets.token_urlsafe(32)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(path, flags, 0o600)
    try:
        os.write(fd, f"{token}\n".encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    return token


def resolve_token(path: Path) -> tuple[str, bool]:
    """The token in ``path``, generated first when there is none; and whether it was created."""
    token = read_token(path)
    if token is not None:
        return token, False
    try:
        private_dir(path.parent)
        return _create(path), True
    except FileExistsError:
        # Another process created it between the read and the create (or it is a dangling
        # symlink): read what is there now, with the same checks.
        token = read_token(path)
        if token is None:
            raise _refuse(path, "the token file vanished while it was created") from None
        return token, False
    except OSError as exc:
        raise _refuse(path, f"cannot create the token file: {exc.strerror}") from exc


def with_http_token(settings: Settings) -> tuple[Settings, Path | None]:
    """``settings`` whose HTTP channel requires the generated token when it has none.

    Returns the settings and the token file's path (``None`` when no file is used: the
    channel is off, tokens are configured, or ``no_token_on_loopback`` is set). Principals
    (``channels.http.principals``) do not stop it: the generated token is the install owner's,
    an admin of ``settings.tenant``, as configured tokens are.
    """
    http = settings.channels.http
    if not http.enabled or http.tokens or http.no_token_on_loopback:
        return settings, None
    path = token_path(settings)
    token, created = resolve_token(path)
    # The path only: the token itself never reaches a log.
    log.info("http.token_created" if created else "http.token_reused", bearer_file=str(path))
    http = http.model_copy(update={"tokens": [SecretStr(token)]})
    channels = settings.channels.model_copy(update={"http": http})
    return settings.model_copy(update={"channels": channels}), path
