"""SessionStore: the LRU bound on sessions kept in memory."""

from __future__ import annotations

import anyio
import anyio.lowlevel
import pytest

from agentd.memory.sessions import SessionStore
from agentd.messages import Conversation, Message, assistant, system, user


def chat(n: int, *, with_system: bool = True) -> list[Message]:
    head = [system("sys")] if with_system else []
    return head + [user(f"u{i}") if i % 2 == 0 else assistant(f"a{i}") for i in range(n)]


def contents(messages: list[Message]) -> list[str]:
    return [m.content for m in messages]


def test_get_or_create_and_delete() -> None:
    """get_or_create() returns the same conversation until it is deleted."""
    store = SessionStore()
    conv = store.get_or_create("a")
    assert store.get_or_create("a") is conv and "a" in store and len(store) == 1
    store.delete("a")
    store.delete("a")
    assert store.get("a") is None and store.get_or_create("a") is not conv


def test_lru_eviction() -> None:
    """Beyond max_sessions the least recently used sessions are evicted."""
    store = SessionStore(max_sessions=2)
    store.get_or_create("a")
    store.get_or_create("b")
    store.get("a")  # a is now more recent than b
    store.get_or_create("c")
    assert list(store.ids()) == ["a", "c"] and store.evictions == 1
    store.put("d", Conversation())
    assert list(store.ids()) == ["c", "d"] and store.evictions == 2


def test_pinned_sessions_are_not_evicted() -> None:
    """A pinned session survives eviction until unpinned, then the bound applies again."""
    store = SessionStore(max_sessions=1)
    store.get_or_create("busy")
    store.pin("busy")
    store.pin("busy")
    store.get_or_create("other")
    assert "busy" in store
    store.unpin("busy")
    assert "busy" in store
    third = store.get_or_create("third")
    # The new session is never evicted by its own creation.
    assert "busy" in store and store.get("third") is third and len(store) == 2
    store.unpin("busy")
    assert list(store.ids()) == ["third"]


def test_unbounded_store_never_evicts() -> None:
    """Without max_sessions nothing is evicted."""
    store = SessionStore()
    for i in range(100):
        store.get_or_create(str(i))
    assert len(store) == 100 and store.evictions == 0


@pytest.mark.anyio
async def test_concurrent_use_is_safe() -> None:
    """Many tasks creating, putting and deleting sessions leave a consistent store."""
    store = SessionStore(max_sessions=50)

    async def worker(n: int) -> None:
        for i in range(50):
            conv = store.get_or_create(f"s{(n + i) % 80}")
            conv.append(user(str(i)))
            await anyio.lowlevel.checkpoint()
            store.put(f"s{(n + i) % 80}", conv)
            if i % 7 == 0:
                store.delete(f"s{(n * i) % 80}")

    async with anyio.create_task_group() as tg:
        for n in range(20):
            tg.start_soon(worker, n)
    assert len(store) <= 50
    for session_id in store.ids():
        conv = store.get(session_id)
        assert conv is not None
