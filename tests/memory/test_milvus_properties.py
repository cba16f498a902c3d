"""Properties of MilvusStore, on Milvus Lite and a Milvus server: scope isolation, tag top-k."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentd import scope as scopes
from agentd.memory.longterm import Memory
from agentd.memory.milvus import RERANK_DEPTH, MilvusStore
from tests.memory.conftest import word_vector

pytestmark = pytest.mark.anyio

PROPERTY_SETTINGS = settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# Any printable or control text a tenant or app could be named, quotes and newlines included.
NAMES = st.text(st.characters(codec="utf-8"), min_size=1, max_size=24)
WORDS = ["tea", "car", "blue", "green", "tax", "river", "stone", "cloud", "bread", "music"]
TAGS = ["a", "B", "c", "d"]


@PROPERTY_SETTINGS
@given(
    names=st.lists(st.tuples(NAMES, NAMES), min_size=2, max_size=3, unique=True),
    owners=st.lists(st.integers(0, 2), min_size=1, max_size=12),
)
async def test_no_scope_reaches_another(
    store: MilvusStore, names: list[tuple[str, str]], owners: list[int]
) -> None:
    """Search, get and delete in one scope never see or touch another scope's memories."""
    nonce = uuid.uuid4().hex[:8]
    owned: list[tuple[scopes.Scope, list[str]]] = [
        (scopes.Scope(tenant=tenant + nonce, app=app), []) for tenant, app in names
    ]
    for i, owner in enumerate(owners):
        scope, keys = owned[owner % len(owned)]
        with scopes.use(scope):
            keys.append(await store.save(Memory(f"note {i} {WORDS[i % len(WORDS)]}")))
    for scope, keys in owned:
        others = [key for other, ks in owned if other != scope for key in ks]
        with scopes.use(scope):
            found = await store.search("note", top_k=100)
            assert sorted(m.key for m in found) == sorted(keys)
            # One foreign key per scope: key lookups are Strong reads, ~200 ms each on a server.
            for key in others[:1]:
                assert await store.get(key) is None
                assert await store.delete(key) is False
    for scope, keys in owned:
        with scopes.use(scope):
            assert (await store.stats()).memories_in_scope == len(keys)


@PROPERTY_SETTINGS
@given(
    rows=st.lists(
        st.tuples(
            st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
            st.sets(st.sampled_from(TAGS)),
        ),
        min_size=1,
        max_size=30,
    ),
    wanted=st.sets(st.sampled_from([*TAGS, "b", "C", "none"]), min_size=1),
    query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    top_k=st.integers(1, 12),
)
async def test_tag_filter_returns_the_exact_top_k(
    store: MilvusStore,
    rows: list[tuple[list[str], set[str]]],
    wanted: set[str],
    query: list[str],
    top_k: int,
) -> None:
    """A tag-filtered search returns min(top_k, matching) memories, each among the nearest
    matching ones (re-ranked around the mean, see agentd.memory.centre), with its cosine."""
    scope = scopes.Scope(tenant=f"tags-{uuid.uuid4().hex[:8]}")
    folded = {t.casefold() for t in wanted}
    memories = [Memory(" ".join(words), tags=tuple(sorted(tags))) for words, tags in rows]
    with scopes.use(scope):
        await store.save_many(memories)
        found = await store.search(" ".join(query), top_k=top_k, tags_include=sorted(wanted))
    matching = [m for m in memories if {t.casefold() for t in m.tags} & folded]
    assert len(found) == min(top_k, len(matching))
    assert all({t.casefold() for t in m.tags} & folded for m in found)
    q = word_vector(" ".join(query))
    cosines = {
        m.content: sum(a * b for a, b in zip(q, word_vector(m.content), strict=True))
        for m in matching
    }
    nearest = sorted(cosines.values(), reverse=True)[: max(top_k, RERANK_DEPTH)]
    for m in found:
        assert m.score == pytest.approx(cosines[m.content], abs=1e-4)
        assert m.score is not None and m.score >= nearest[-1] - 1e-4
