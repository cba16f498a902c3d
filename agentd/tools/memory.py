"""The tools ``memory_save`` and ``memory_search``, bound to one open memory store.

When the store fails mid-run (Milvus gone, embeddings failing) the tool answers with one line,
``memory unavailable: <why>``, as a normal result: the model can tell the user and the turn goes
on. A refused input (too long, too many tags) is an error result saying the limit.

A memory is read later without the conversation it came from, so ``memory_save`` refuses a
bare value: the small model saved "2020" for "the door code of the Krakow office is 2020",
which no later question could find or use. One word under 16 characters is sent back for the
whole fact ("Tea: jasmine", two words, is kept: refused, the model gave up saving it).
"""

from __future__ import annotations

from agentd.errors import InvalidMemory, MemoryUnavailable, ToolError
from agentd.memory.longterm import MAX_TOP_K, Memory, MemoryStore, memories_text
from agentd.tools.registry import ToolRegistry

TOOL_NAMES = ("memory_save", "memory_search")
#: Shorter content (both under) is a bare value, not a fact that stands alone.
MIN_WORDS, MIN_CHARS = 2, 16


def bare_value(content: str) -> str | None:
    """Why ``content`` cannot be understood without its conversation, or None when it can.
    The reason does not quote the content (a door code would reach the log)."""
    text = content.strip()
    if not text or len(text.split()) >= MIN_WORDS or len(text) >= MIN_CHARS:
        return None  # empty content is the store's error (check_content)
    return (
        "this content alone will mean nothing later, without this conversation: save the whole "
        'fact as a sentence that says what it is about, e.g. "Anna\'s dentist is Dr. Park."'
    )


def unavailable(exc: MemoryUnavailable) -> str:
    """The one-line tool result for a store that cannot answer."""
    return "memory unavailable: " + " ".join(str(exc).split())


def register_memory_tools(registry: ToolRegistry, store: MemoryStore) -> None:
    """Add ``memory_save`` and ``memory_search`` on ``store`` to ``registry``."""

    async def memory_save(content: str, tags: list[str] | None = None) -> str:
        """Save a fact or preference to long-term memory, kept across conversations. Not for
        files: when the user names a file, use the file tools.

        Args:
            content: The text to remember, self-contained (it is read without this conversation).
            tags: Optional short labels to find it by later, e.g. ["preference", "travel"].
        """
        if (why := bare_value(content)) is not None:
            raise ToolError(why)
        try:
            key = await store.save(Memory(content=content, tags=tuple(tags or ())))
        except MemoryUnavailable as exc:
            return unavailable(exc)
        except InvalidMemory as exc:
            raise ToolError(str(exc)) from None
        return f"saved memory {key}"

    async def memory_search(query: str, top_k: int = 5, tags: list[str] | None = None) -> str:
        """Search long-term memory for what was saved in earlier conversations, by meaning.

        Args:
            query: What to look for, in words.
            top_k: How many memories to return at most (1-100).
            tags: Optional labels: only memories with at least one of them are searched.
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
    registry.add(memory_search)
