"""PostgreSQL for the shared state: URLs, the connection pool, migrations, session locks.

The driver is asyncpg: asyncio-native (agentd runs anyio on the asyncio backend, so no worker
thread per query as sqlite3 needs), a connection pool built in, and server-side typed
parameters (``$1``; SQL text and values never mix). The stores keep the SQLite stores' SQL with
``?`` placeholders where the dialects agree; :func:`dollar` numbers them for PostgreSQL.

A URL may carry a password: :func:`redacted` is the only spelling of it that is logged or put
in an error, and library errors are re-raised without the URL (asyncpg never echoes it).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import structlog

from agentd.errors import AgentdError
from agentd.redact import mask_url
from agentd.store.migrations import GET_VERSION, SET_VERSION, VERSIONS_TABLE, newer_schema, pending

if TYPE_CHECKING:
    import asyncpg

log = structlog.get_logger("agentd.store.pg")

SCHEMES = ("postgresql", "postgres")
#: The type of a row id column: never reused (a tail boundary is an id), as SQLite's
#: ``AUTOINCREMENT``.
IDENTITY = "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
#: The advisory lock that serialises migrations of one database across daemons.
MIGRATION_LOCK = 0x61_67_65_6E_74_64  # "agentd"


def is_postgres(url: str | None) -> bool:
    """Whether ``url`` names a PostgreSQL database (``postgresql://`` or ``postgres://``)."""
    return url is not None and urlsplit(url).scheme in SCHEMES


def redacted(url: str) -> str:
    """``url`` without its password (``postgresql://user:***@host/db``), for logs and errors."""
    return mask_url(url)


@functools.lru_cache(maxsize=256)
def dollar(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered ``$1, $2...`` (quoted text left alone).

    Cached: the stores run a few fixed statements, so each is numbered once (and asyncpg's
    per-connection statement cache, keyed by the text, prepares it once per connection)."""
    out: list[str] = []
    n = 0
    quote: str | None = None
    for ch in sql:
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


def advisory_key(*parts: str) -> int:
    """A signed 64-bit advisory lock key for ``parts`` (a collision only serialises two keys)."""
    digest = hashlib.blake2b("\x00".join(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class PgError(AgentdError):
    """A PostgreSQL store cannot be opened or migrated; the message names the database without
    its password (the history store raises it as :class:`~agentd.errors.HistoryError`)."""


@asynccontextmanager
async def open_pool(
    url: str, *, min_size: int = 1, max_size: int = 10, what: str = "store"
) -> AsyncIterator[asyncpg.Pool]:
    """A pool of connections to ``url``, closed on exit."""
    import asyncpg

    try:
        pool = await asyncpg.create_pool(
            url, min_size=min_size, max_size=max_size, command_timeout=60
        )
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise PgError(
            f"cannot open the {what} at {redacted(url)}: {type(exc).__name__}: {exc}; check "
            "the URL, that PostgreSQL runs and that the role may connect"
        ) from None
    log.info("pg.opened", what=what, url=redacted(url), pool=max_size)
    try:
        yield pool
    finally:
        await pool.close()


async def migrate(
    pool: asyncpg.Pool, part: str, migrations: Sequence[Sequence[str]], *, hint: str
) -> int:
    """Move ``part``'s tables to the newest schema version, once across daemons.

    Versions live in ``schema_versions (part, version)``, as in the SQLite tick log; a
    transaction-scoped advisory lock makes concurrent starts migrate one after the other. A
    schema already current is only read.
    """

    import asyncpg

    def newer(version: int, target: int) -> Exception:
        return PgError(newer_schema(f"the {part} tables have", version, target, hint))

    # Most opens find the schema current (every CLI command opens its store): one read, no
    # lock to wait for behind another daemon's migration, no DDL (no CREATE privilege needed).
    try:
        current = await pool.fetchval(dollar(GET_VERSION), part)
    except asyncpg.UndefinedTableError:
        current = None
    if current is not None and not pending(migrations, int(current), newer):
        return len(migrations)
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute(VERSIONS_TABLE)
        found = await conn.fetchval(dollar(GET_VERSION), part)
        for step, statements in pending(migrations, int(found) if found is not None else 0, newer):
            for statement in statements:
                await conn.execute(statement)
            await conn.execute(dollar(SET_VERSION), part, step)
            log.info("pg.migrated", part=part, version=step)
    return len(migrations)


def changed_rows(status: str) -> int:
    """The row count of a command tag (``INSERT 0 1``, ``UPDATE 2``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def rows(records: Sequence[Any]) -> list[tuple[Any, ...]]:
    """asyncpg records as plain tuples (what the SQLite stores' decoders read)."""
    return [tuple(r) for r in records]
