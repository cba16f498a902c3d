"""Schema migrations, on either engine: the version bookkeeping both share.

A store's schema moves forward through its ``MIGRATIONS`` (``MIGRATIONS[i]`` moves version
``i`` to ``i + 1``, append only). The SQLite tick log and every PostgreSQL store keep their
version in a ``schema_versions (part, version)`` row; the SQL here uses ``?`` placeholders
(:func:`agentd.store.pg.dollar` numbers them for PostgreSQL). :func:`pending` is the rule both
engines apply: the steps still to run, or an error when the stored schema is newer than this
agentd knows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

VERSIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_versions (part TEXT PRIMARY KEY, version INTEGER NOT NULL)"
)
GET_VERSION = "SELECT version FROM schema_versions WHERE part = ?"
SET_VERSION = (
    "INSERT INTO schema_versions (part, version) VALUES (?, ?)"
    " ON CONFLICT (part) DO UPDATE SET version = excluded.version"
)

Migrations = Sequence[Sequence[str]]


def newer_schema(what: str, version: int, target: int, hint: str) -> str:
    """The error text of a schema newer than this agentd knows (``what`` ends in its verb:
    ``"the tick log ... has"``)."""
    return (
        f"{what} schema version {version}, newer than this agentd knows ({target}); upgrade "
        f"agentd or point {hint} elsewhere"
    )


def pending(
    migrations: Migrations, version: int, newer: Callable[[int, int], Exception]
) -> list[tuple[int, Sequence[str]]]:
    """The (version, statements) steps that move ``version`` to the newest; ``newer(version,
    newest)`` is raised when ``version`` is past the newest."""
    target = len(migrations)
    if version > target:
        raise newer(version, target)
    return [(step, migrations[step - 1]) for step in range(version + 1, target + 1)]
