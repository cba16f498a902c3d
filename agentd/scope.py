"""The tenant scope of the current task, carried in a contextvar.

Stores never take a tenant argument: they read :func:`current`, which fails closed with
:class:`~agentd.errors.ScopeMissing` when no scope is set, so a caller cannot forget to pass one.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from agentd.errors import ScopeMissing

DEFAULT_TENANT = "default"
DEFAULT_APP = "agentd"


@dataclass(frozen=True, slots=True)
class Scope:
    """Who a piece of data belongs to: a tenant and, within it, an app (agent)."""

    tenant: str = DEFAULT_TENANT
    app: str = DEFAULT_APP

    def __post_init__(self) -> None:
        if not self.tenant or not self.app:
            raise ValueError("a scope needs a non-empty tenant and app")


_current: contextvars.ContextVar[Scope | None] = contextvars.ContextVar(
    "agentd_scope", default=None
)


def current() -> Scope:
    """The scope set for this task; raises ScopeMissing when there is none."""
    scope = _current.get()
    if scope is None:
        raise ScopeMissing()
    return scope


def get() -> Scope | None:
    """The scope set for this task, or None."""
    return _current.get()


@contextmanager
def use(scope: Scope) -> Iterator[Scope]:
    """Set ``scope`` for the duration of the block (and tasks started inside it)."""
    token = _current.set(scope)
    try:
        yield scope
    finally:
        _current.reset(token)
