from __future__ import annotations

import hashlib
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from agentd import scope as scopes
from agentd.memory.milvus import MilvusStore
from tests.support.milvus_server import MilvusServer, server_binary

DIM = 16


def word_vector(text: str, dim: int = DIM) -> list[float]:
    """The stub LLM's embedding: words hashed into buckets, normalised (deterministic)."""
    vec = [0.0] * dim
    for word in text.lower().split():
        vec[hashlib.sha256(word.encode()).digest()[0] % dim] += 1.0
    norm = sum(v * v for v in vec) ** 0.5 or 1.0
    return [v / norm for v in vec]


async def word_embed(text: str) -> list[float]:
    return word_vector(text)


@pytest.fixture(scope="session")
def milvus_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MilvusServer]:
    """A real Milvus standalone server for the whole test session (about 8 s to start)."""
    binary = server_binary()
    if binary is None:
        pytest.fail("milvus-server is not installed: pip install -e '.[dev]' brings it")
    server = MilvusServer(tmp_path_factory.mktemp("milvus-server"), binary)
    server.start()
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture(params=["lite", "server"])
def milvus_uri(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A Milvus address: a Milvus Lite path, or the session's Milvus server."""
    if request.param == "lite":
        return str(tmp_path / "milvus" / "memory.db")
    server: MilvusServer = request.getfixturevalue("milvus_server")
    return server.uri


@pytest.fixture(scope="session")
def shared_collection() -> str:
    """One collection for all server tests: creating one costs a server seconds."""
    return f"shared_{uuid.uuid4().hex[:12]}"


@pytest.fixture
def collection(milvus_uri: str, shared_collection: str) -> str:
    """The collection a test uses: its own on Lite, the shared one on the server.

    Tests never see each other's memories on the shared collection because each runs in
    scopes of its own (the ``alice`` and ``bob`` fixtures): scope isolation is under test too.
    """
    if milvus_uri.startswith("http"):
        return shared_collection
    return "memories"


@pytest.fixture
def fresh_collection() -> str:
    """A collection name nobody has used."""
    return f"fresh_{uuid.uuid4().hex[:12]}"


@pytest.fixture
def alice() -> scopes.Scope:
    return scopes.Scope(tenant=f"alice-{uuid.uuid4().hex[:8]}")


@pytest.fixture
def bob() -> scopes.Scope:
    return scopes.Scope(tenant=f"bob-{uuid.uuid4().hex[:8]}")


@pytest.fixture
async def store(milvus_uri: str, collection: str) -> AsyncIterator[MilvusStore]:
    """An open MilvusStore on word-hash embeddings, on Milvus Lite and on a Milvus server."""
    async with MilvusStore.open(milvus_uri, word_embed, collection=collection) as opened:
        yield opened
