"""The tools ``memory_save`` and ``memory_search``, bound to one open memory store.

When the store fails mid-run (Milvus gone, embeddings failing) the tool answers with one line,
``memory unavailable: <why>``, as a normal result: the model can tell the user and the turn goes
on. A refused input (too long, too many tags) is an error result saying the limit.
"""

from __future__ import annotations

from agentd.errors import InvalidMemory, MemoryUnavailable, ToolError
from agentd.memory.longterm import MAX_TOP_K, Memory, MemoryAccess, memories_text
from agentd.tools.registry import ToolRegistry

TOOL_NAMES = ("memory_save", "memory_search")


def unavailable(exc: MemoryUnavailable) -> str:
    """The one-line tool result for a store that cannot answer."""
    return "memory unavailable: " + " ".join(str(exc).split())


def register_memory_tools(registry: ToolRegistry, store: MemoryAccess) -> None:
    """Add ``memory_save`` and ``memory_search`` on ``store`` to ``registry``."""

    async def memory_save(content: str, tags: list[str] | None = None) -> str:
        """Remember a fact or preference across conversations. Not for files.

        Args:
            content: Self-contained.
            tags: Words of the fact.
        """
        try:
            key = await store.save(Memory(content=content, tags=tuple(tags or ())))
        except MemoryUnavailable as exc:
            return unavailable(exc)
        except InvalidMemory as exc:
            raise ToolError(str(exc)) from None
        return f"saved memory {key}"

    async def memory_search(query: str, top_k: int = 5, tags: list[str] | None = None) -> str:
        """Search what was remembered in earlier conversations, by meaning.

        Args:
            top_k: 1-100.
            tags: Any of these.
        """
        try:
            found = await store.search(query, min(top_k, MAX_TOP_K), tuple(tags or ()))
        except MemoryUnavailable as exc:
            return unavailable(exc)
        except InvalidMemory as exc:
            raise ToolError(str(exc)) from None
        if not found:
            return "no memories found"
        return memories_text(found)

    registry.add(memory_save)
    registry.add(memory_search, looks=True)
