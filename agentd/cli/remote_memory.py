"""A running daemon's long-term memory through its HTTP API (``/v1/memories``).

:class:`RemoteMemory` answers what a store in this process answers (``MemoryAccess``), so
``agentd memory`` and ``agentd mcp serve`` use the daemon's memory with the same code as their
own: a refused input is :class:`~agentd.errors.InvalidMemory`, a daemon without memory (or
not answering at all) :class:`~agentd.errors.MemoryUnavailable`, any other refusal (a token
that may not act in the tenant) the daemon's :class:`~agentd.errors.DaemonError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from agentd.errors import DaemonError, DaemonUnavailable, InvalidMemory, MemoryUnavailable
from agentd.memory.longterm import Memory, MemoryStats

if TYPE_CHECKING:
    from agentd.cli.remote import DaemonClient

#: What the daemon shows non-admins instead of its store's address.
HIDDEN = "(shown to admins only)"


class RemoteMemory:
    """The daemon's memory, in ``tenant`` (None: the tenant of the token's principal).

    ``tenant_seen`` is the tenant the daemon last said it acted in.
    """

    def __init__(self, client: DaemonClient, tenant: str | None) -> None:
        self.client = client
        self.tenant = tenant
        self.tenant_seen = tenant or ""

    async def _call(
        self, method: str, path: str, body: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        params = {"tenant": self.tenant} if self.tenant else None
        try:
            answer = await self.client.call(method, path, params=params, json=body)
        except DaemonUnavailable as exc:
            raise MemoryUnavailable(f"no agentd daemon answers at {self.client.base_url}") from exc
        except DaemonError as exc:
            if exc.status_code == 400:
                raise InvalidMemory(str(exc)) from None
            if exc.status_code in (409, 503):
                raise MemoryUnavailable(str(exc)) from None
            raise
        self.tenant_seen = str(answer.get("tenant") or self.tenant_seen)
        return answer

    async def save(self, memory: Memory) -> str:
        """Save ``memory`` in the daemon's store; its key."""
        answer = await self._call(
            "POST", "/v1/memories", {"content": memory.content, "tags": list(memory.tags)}
        )
        return str(answer["id"])

    async def search(
        self, query: str, top_k: int = 5, tags_include: Sequence[str] = ()
    ) -> list[Memory]:
        """The daemon's ``top_k`` memories nearest to ``query``, best first."""
        body = {"query": query, "top_k": top_k, "tags": list(tags_include)}
        answer = await self._call("POST", "/v1/memories/search", body)
        return [_memory(row) for row in answer["data"]]

    async def delete(self, key: str) -> bool:
        """Delete the memory ``key``; False when the tenant has none with that key."""
        try:
            await self._call("DELETE", f"/v1/memories/{quote(key, safe='')}")
        except DaemonError as exc:
            if exc.status_code == 404:
                return False
            raise
        return True

    async def stats(self) -> MemoryStats:
        """How many memories the tenant has in the daemon's store, and where it lives."""
        answer = await self._call("GET", "/v1/memories/stats")
        dimension = answer.get("dimension")
        return MemoryStats(
            backend=str(answer["backend"]),
            address=str(answer.get("address") or HIDDEN),
            collection=str(answer["collection"]),
            dimension=int(dimension) if dimension is not None else None,
            memories_in_scope=int(answer["memories"]),
            degraded=answer.get("degraded"),
        )


def _memory(row: dict[str, Any]) -> Memory:
    score = row.get("score")
    return Memory(
        content=str(row["content"]),
        tags=tuple(str(t) for t in row.get("tags") or ()),
        key=str(row["id"]),
        ts=int(row.get("ts") or 0),
        agent_id=str(row.get("agent_id") or ""),
        confirmed=int(row.get("confirmed") or 0),
        score=float(score) if score is not None else None,
        words=str(row.get("words") or ""),
    )
