"""The tenant scope carried in a contextvar."""

from __future__ import annotations

import anyio
import pytest

from agentd import scope as scopes
from agentd.errors import ScopeMissing


def test_current_fails_closed() -> None:
    """Without a scope, current() raises ScopeMissing saying how to set one."""
    assert scopes.get() is None
    with pytest.raises(ScopeMissing, match="scope"):
        scopes.current()


def test_use_sets_and_restores() -> None:
    """use() sets the scope for the block and restores the previous one after."""
    outer, inner = scopes.Scope("a"), scopes.Scope("b", app="x")
    with scopes.use(outer):
        with scopes.use(inner):
            assert scopes.current() == inner
        assert scopes.current() == outer
    assert scopes.get() is None


def test_empty_names_are_refused() -> None:
    """A scope needs a tenant and an app."""
    with pytest.raises(ValueError):
        scopes.Scope("")
    with pytest.raises(ValueError):
        scopes.Scope("t", app="")


@pytest.mark.anyio
async def test_tasks_inherit_the_scope() -> None:
    """Tasks started inside use() see its scope; others do not."""
    seen: list[scopes.Scope | None] = []

    async def probe() -> None:
        seen.append(scopes.get())

    async with anyio.create_task_group() as tg:
        with scopes.use(scopes.Scope("t1")):
            tg.start_soon(probe)
        tg.start_soon(probe)
    assert seen == [scopes.Scope("t1"), None]
