"""Re-embedding after a model change: old vectors kept until done, resumable after kill -9."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import pytest

from agentd import scope as scopes
from agentd.config import Settings
from agentd.memory.factory import open_store
from agentd.memory.hybrid import HybridStore
from agentd.memory.longterm import Memory, MemoryStore
from agentd.memory.reembed import BATCH, MARKER_KEY
from tests.memory.conftest import word_embed, word_vector

pytestmark = pytest.mark.anyio

NEW_DIM = 12
TENANT = scopes.Scope(tenant="re-embed")


@dataclass
class NewModel:
    """A stand-in embedding model: other vectors (12 dims), counts what it embedded."""

    model_id: str = "tiny-new"
    embedded: list[str] = field(default_factory=list)
    delay: float = 0.0

    async def query(self, text: str) -> list[float]:
        return word_vector(text, NEW_DIM)

    async def documents(self, texts: Sequence[str]) -> list[list[float]]:
        await anyio.sleep(self.delay)
        self.embedded.extend(texts)
        return [word_vector(t, NEW_DIM) for t in texts]


def _settings(state: Path) -> Settings:
    return Settings(state_dir=state)


async def _fill(state: Path, count: int) -> None:
    """``count`` memories in the chat model's collection (as before the change)."""
    async with open_store(_settings(state), word_embed) as store:
        assert store is not None
        with scopes.use(TENANT):
            await store.save_many([Memory(f"fact number {i} word{i}") for i in range(count)])


async def _serving(store: MemoryStore) -> str:
    assert isinstance(store, HybridStore)
    return store.dense.collection


async def _until_moved(store: MemoryStore) -> None:
    for _ in range(1200):  # a minute
        if await _serving(store) == "memories_tiny_new":
            return
        await anyio.sleep(0.05)
    raise AssertionError("the re-embedding did not finish within a minute")


async def test_memories_move_to_the_new_models_collection(tmp_path: Path) -> None:
    """Every memory is re-embedded; searches use the new vectors after; the old stay put."""
    await _fill(tmp_path, 70)
    model = NewModel()
    async with open_store(_settings(tmp_path), word_embed, model) as store:
        assert store is not None
        await _until_moved(store)
        with scopes.use(TENANT):
            found = await store.search("fact number 7 word7", top_k=1)
            assert [m.content for m in found] == ["fact number 7 word7"]
            assert (await store.stats()).memories_in_scope == 70
    assert sorted(model.embedded) == sorted(f"fact number {i} word{i}" for i in range(70))
    async with open_store(_settings(tmp_path), word_embed) as old:
        assert old is not None
        with scopes.use(TENANT):
            assert (await old.stats()).memories_in_scope == 70  # the old vectors are kept


async def test_searches_use_the_old_vectors_until_the_move_is_done(tmp_path: Path) -> None:
    """While re-embedding runs, the old collection answers, and a new save is not lost."""
    await _fill(tmp_path, 3 * BATCH)
    model = NewModel(delay=0.3)
    async with open_store(_settings(tmp_path), word_embed, model) as store:
        assert store is not None
        assert await _serving(store) == "memories"
        with scopes.use(TENANT):
            found = await store.search("fact number 5 word5", top_k=1)
            assert [m.content for m in found] == ["fact number 5 word5"]
            await store.save(Memory("saved during the move", key="late"))
        await _until_moved(store)
        with scopes.use(TENANT):
            assert await store.get("late") is not None
            assert (await store.stats()).memories_in_scope == 3 * BATCH + 1


async def test_a_new_install_starts_on_the_new_models_collection(tmp_path: Path) -> None:
    """No old memories: the new collection is used (and saved to) from the first start."""
    model = NewModel()
    async with open_store(_settings(tmp_path), word_embed, model) as store:
        assert store is not None
        assert await _serving(store) == "memories_tiny_new"
        with scopes.use(TENANT):
            await store.save(Memory("first fact", key="one"))
            assert (await store.stats()).memories_in_scope == 1
    assert model.embedded == ["first fact"]


async def test_a_second_start_does_not_re_embed(tmp_path: Path) -> None:
    """Once done (the marker row), opening again re-embeds nothing."""
    await _fill(tmp_path, 5)
    async with open_store(_settings(tmp_path), word_embed, NewModel()) as store:
        assert store is not None
        await _until_moved(store)
    again = NewModel()
    async with open_store(_settings(tmp_path), word_embed, again) as store:
        assert store is not None
        assert await _serving(store) == "memories_tiny_new"
        with scopes.use(TENANT):
            assert await store.get(MARKER_KEY.partition(".")[2]) is None  # not a tenant's
    assert again.embedded == []


CHILD = textwrap.dedent(
    """
    import os, signal, sys
    import anyio
    from agentd.config import Settings
    from agentd.memory.factory import open_store
    from tests.memory.conftest import word_embed
    from tests.memory.test_reembed import NewModel, _fill

    class Dying(NewModel):
        async def documents(self, texts):
            out = await super().documents(texts)
            if len(self.embedded) >= 2 * len(texts):
                os.kill(os.getpid(), signal.SIGKILL)  # mid-move, after two batches
            return out

    async def main():
        if sys.argv[2] == "fill":
            from pathlib import Path
            await _fill(Path(sys.argv[1]), int(sys.argv[3]))
            return
        async with open_store(Settings(state_dir=sys.argv[1]), word_embed, Dying()):
            await anyio.sleep(60)

    anyio.run(main)
    """
)


async def _child(state: Path, *args: str) -> int:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = await anyio.to_thread.run_sync(
        lambda: subprocess.run(
            [sys.executable, "-c", CHILD, str(state), *args], env=env, timeout=120, check=False
        )
    )
    return done.returncode


async def test_a_killed_move_resumes_where_it_stopped(tmp_path: Path) -> None:
    """kill -9 mid-move: the next start re-embeds only what was not copied yet."""
    total = 4 * BATCH
    # In child processes: Milvus Lite keeps a path locked by the process that opened it.
    assert await _child(tmp_path, "fill", str(total)) == 0
    assert await _child(tmp_path, "move") == -signal.SIGKILL
    model = NewModel()
    async with open_store(_settings(tmp_path), word_embed, model) as store:
        assert store is not None
        await _until_moved(store)
        with scopes.use(TENANT):
            assert (await store.stats()).memories_in_scope == total
            found = await store.search("fact number 3 word3", top_k=1)
            assert [m.content for m in found] == ["fact number 3 word3"]
    # The first batch was kept; the second was being embedded when the process died.
    assert len(model.embedded) == total - BATCH


async def test_the_users_words_move_with_their_memory(tmp_path: Path) -> None:
    """A moved memory keeps the user's words, and its new vector embeds them again."""
    async with open_store(_settings(tmp_path), word_embed) as store:
        assert store is not None
        with scopes.use(TENANT):
            await store.save(Memory("The cat: Pelusa", key="cat", words="mi gato es Pelusa"))
    model = NewModel()
    async with open_store(_settings(tmp_path), word_embed, model) as store:
        assert store is not None
        await _until_moved(store)
        with scopes.use(TENANT):
            moved = await store.get("cat")
    assert moved is not None and moved.words == "mi gato es Pelusa"
    assert model.embedded == ["The cat: Pelusa\nmi gato es Pelusa"]
