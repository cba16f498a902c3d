"""An httpx transport that spreads requests over several connection pools.

httpcore's pool looks at every pooled connection on each request (and asks each socket whether it
is still readable), so its cost per request grows with the number of connections: measured here,
64 concurrent requests through one pool ran at a quarter of the rate of 8 pools of 8. Splitting
the connections into small pools, served round-robin, keeps each scan short.
"""

from __future__ import annotations

import itertools

import httpx


class ShardedTransport(httpx.AsyncBaseTransport):
    """Round-robin over ``shards`` pools of ``connections_per_shard`` connections each."""

    def __init__(self, *, shards: int = 8, connections_per_shard: int = 16) -> None:
        if shards < 1 or connections_per_shard < 1:
            raise ValueError("shards and connections_per_shard must be at least 1")
        limits = httpx.Limits(
            max_connections=connections_per_shard,
            max_keepalive_connections=connections_per_shard,
        )
        # One TLS context for all pools: each one would otherwise load the CA bundle again
        # (about 90 ms apiece, most of the cost of opening a client).
        tls = httpx.create_ssl_context()
        self._pools = [httpx.AsyncHTTPTransport(limits=limits, verify=tls) for _ in range(shards)]
        self._next = itertools.cycle(self._pools)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await next(self._next).handle_async_request(request)

    async def aclose(self) -> None:
        for pool in self._pools:
            await pool.aclose()
