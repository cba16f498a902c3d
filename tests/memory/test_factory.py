"""open_store's three cases: no memory, unusable address, Milvus Lite by default."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentd.config import Settings
from agentd.errors import MemoryUnavailable
from agentd.memory.factory import open_store
from tests.memory.conftest import word_embed

pytestmark = pytest.mark.anyio


def _settings(tmp_path: Path, addr: str | None) -> Settings:
    return Settings(state_dir=tmp_path, milvus={"addr": addr})


async def test_no_embedding_function_means_no_store(tmp_path: Path) -> None:
    """embed None (MEMORY_EMBED=false) gives None, whatever the address."""
    async with open_store(_settings(tmp_path, None), None) as store:
        assert store is None


@pytest.mark.parametrize(
    ("addr", "message"),
    [
        pytest.param("", "milvus.addr is empty", id="empty"),
        pytest.param("  ", "milvus.addr is empty", id="blank"),
        pytest.param("/tmp/memories", "Milvus Lite path", id="lite-path-without-db"),
    ],
)
async def test_unusable_address_is_unavailable(tmp_path: Path, addr: str, message: str) -> None:
    """An embedding function but no usable address raises MemoryUnavailable saying why."""
    with pytest.raises(MemoryUnavailable, match=message):
        async with open_store(_settings(tmp_path, addr), word_embed):
            pass


async def test_default_address_opens_lite_in_the_state_dir(tmp_path: Path) -> None:
    """No address: Milvus Lite at state_dir/milvus.db, parents created."""
    settings = _settings(tmp_path / "deep" / "state", None)
    async with open_store(settings, word_embed) as store:
        assert store is not None
    assert (tmp_path / "deep" / "state" / "milvus.db").is_dir()
