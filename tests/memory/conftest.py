from __future__ import annotations

import contextlib
import hashlib
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

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


@pytest.fixture
def collection() -> str:
    """A collection name of its own, so tests sharing the server never see each other."""
    return f"t_{uuid.uuid4().hex[:12]}"


@pytest.fixture
async def store(milvus_uri: str, collection: str) -> AsyncIterator[MilvusStore]:
    """An open MilvusStore on word-hash embeddings, on Milvus Lite and on a Milvus server."""
    async with MilvusStore.open(milvus_uri, word_embed, collection=collection) as opened:
        yield opened
        if not opened.lite and opened._client is not None:
            with contextlib.suppress(Exception):
                opened._client.drop_collection(collection, timeout=10)
