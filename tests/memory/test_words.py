"""The user's words kept with a memory: stored, read back, and found by vectors and words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agentd import scope as scopes
from agentd.memory.collection import MAX_WORDS_BYTES, scope_hash
from agentd.memory.fulltext import TextIndex
from agentd.memory.hybrid import HybridStore
from agentd.memory.longterm import Memory, indexed_text
from agentd.memory.milvus import MilvusStore
from tests.memory.conftest import DIM, word_embed, word_vector

pytestmark = pytest.mark.anyio

TOLD = "Recuerda esto: mi gato se llama Pelusa"
SAVED = "The cat: Pelusa"


def test_the_indexed_text_is_the_content_then_the_words() -> None:
    """Words add a line; none, or the content said again, add nothing."""
    assert indexed_text(SAVED, TOLD) == f"{SAVED}\n{TOLD}"
    assert indexed_text(SAVED) == indexed_text(SAVED, f" {SAVED} ") == SAVED


async def test_the_words_are_stored_and_read_back(store: MilvusStore, alice: scopes.Scope) -> None:
    """get, search and a save without words return what was saved with them."""
    with scopes.use(alice):
        key = await store.save(Memory(SAVED, words=TOLD))
        plain = await store.save(Memory("The dog: Rex"))
        got = await store.get(key)
        assert got is not None and (got.content, got.words) == (SAVED, TOLD)
        found = {m.key: m.words for m in await store.search("gato", 5)}
        assert found == {key: TOLD, plain: ""}


async def test_the_vector_holds_the_words(store: MilvusStore, alice: scopes.Scope) -> None:
    """A question in the user's words is close to the memory, not only to its content."""
    with scopes.use(alice):
        await store.save(Memory(SAVED, words=TOLD))
        best = (await store.search("mi gato se llama", 1))[0]
    assert best.content == SAVED
    assert best.score is not None and best.score > 0.5


async def test_long_words_fit_the_field(store: MilvusStore, alice: scopes.Scope) -> None:
    """500 four-byte characters are cut to the field's bytes, not refused."""
    with scopes.use(alice):
        key = await store.save(Memory(SAVED, words="𝄞" * 600))
        got = await store.get(key)
    assert got is not None and len(got.words.encode()) <= MAX_WORDS_BYTES


async def test_the_text_index_finds_the_words(tmp_path: Path, alice: scopes.Scope) -> None:
    """The full-text half indexes the words too, also when backfilled from Milvus."""
    async with MilvusStore.open(str(tmp_path / "m.db"), word_embed) as dense:
        text = await TextIndex.open(tmp_path / "text.db")
        hybrid = HybridStore(dense, text)
        try:
            with scopes.use(alice):
                key = await hybrid.save(Memory(SAVED, words=TOLD))
                scope = scope_hash(alice)
                assert [h.key for h in await text.search(scope, "gato", 5)] == [key]
                await text.delete(scope, key)
                assert await hybrid.backfill() == 1
                assert [h.key for h in await text.search(scope, "gato", 5)] == [key]
        finally:
            await hybrid.aclose()


def _old_collection(client: Any, name: str) -> None:
    """A collection as versions before the ``words`` field made it, with one memory."""
    from pymilvus import DataType, MilvusClient

    schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("key", DataType.VARCHAR, is_primary=True, max_length=256)
    schema.add_field("content", DataType.VARCHAR, max_length=8192)
    schema.add_field("embedding", DataType.FLOAT_VECTOR, dim=DIM)
    schema.add_field("tags", DataType.VARCHAR, max_length=2048)
    schema.add_field("ts", DataType.INT64)
    schema.add_field("confirmed", DataType.INT64)
    schema.add_field("agent_id", DataType.VARCHAR, max_length=256)
    schema.add_field("tenant", DataType.VARCHAR, max_length=256)
    schema.add_field("scope", DataType.VARCHAR, max_length=64)
    schema.add_field(
        "tag_keys", DataType.ARRAY, element_type=DataType.VARCHAR, max_capacity=32, max_length=32
    )
    schema.add_field("tag_index", DataType.VARCHAR, max_length=1057)
    index = client.prepare_index_params()
    index.add_index(field_name="embedding", index_type="FLAT", metric_type="COSINE")
    client.create_collection(name, schema=schema, index_params=index)
    row = {
        "key": "x" * 24 + ".old",
        "content": "The bike: a green Brompton",
        "embedding": word_vector("The bike: a green Brompton"),
        "tags": "[]",
        "ts": 1,
        "confirmed": 0,
        "agent_id": "",
        "tenant": "",
        "scope": "nobody",
        "tag_keys": [],
        "tag_index": "|",
    }
    client.insert(name, [row])


async def test_a_collection_without_the_field_still_serves(
    milvus_uri: str, fresh_collection: str, alice: scopes.Scope
) -> None:
    """An older collection loads; a save with words keeps them in its vector, reads give none."""
    async with MilvusStore.open(milvus_uri, word_embed, collection=fresh_collection) as store:
        await store._call("create", _old_collection, store._client, fresh_collection)
    async with MilvusStore.open(milvus_uri, word_embed, collection=fresh_collection) as store:
        assert store.words_field is False and store.confirmed_field is True
        with scopes.use(alice):
            key = await store.save(Memory(SAVED, words=TOLD))
            got = await store.get(key)
            assert got is not None and (got.content, got.words) == (SAVED, "")
            best = (await store.search("mi gato se llama", 1))[0]
        assert best.key == key and best.score is not None and best.score > 0.5
