"""The sharded httpx transport: requests spread over small pools, all answered."""

from __future__ import annotations

import anyio
import httpx
import pytest

from agentd.model.transport import ShardedTransport
from tests.support.stub_llm import StubLLM


@pytest.mark.anyio
async def test_requests_spread_over_every_pool(stub_llm: StubLLM) -> None:
    """16 concurrent requests over 4 pools of 2: all succeed, every pool is used, none overfull."""
    transport = ShardedTransport(shards=4, connections_per_shard=2)
    statuses: list[int] = []
    async with httpx.AsyncClient(transport=transport) as http:

        async def one() -> None:
            statuses.append((await http.get(f"{stub_llm.url}/v1/models")).status_code)

        async with anyio.create_task_group() as tg:
            for _ in range(16):
                tg.start_soon(one)
        sizes = [len(pool._pool.connections) for pool in transport._pools]
    assert statuses == [200] * 16
    assert all(1 <= size <= 2 for size in sizes), sizes


def test_rejects_empty_pools() -> None:
    """Zero shards or zero connections is a programming error."""
    with pytest.raises(ValueError):
        ShardedTransport(shards=0)
