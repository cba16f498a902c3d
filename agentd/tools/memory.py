"""The tools ``memory_save``, ``memory_search`` and ``memory_forget``, bound to one store.

With a model to decide (``choose``, :mod:`agentd.memory.curate`), saving a fact first looks at
the most similar memories and the model says whether it adds one, updates one (same key, new
text and times) or repeats one (only marked confirmed); ``memory_forget`` deletes the memory the
model picks for the request. Without one, a save always adds and there is no forget tool.

A save made in a turn keeps the user's request of that turn beside the model's content
(:mod:`agentd.said`): the model often translates and shortens what it saves, and a question in
the user's words should still find it. The model never writes those words; the runtime sets them.

When the store fails mid-run (Milvus gone, embeddings failing) the tool answers with one line,
``memory unavailable: <why>``, as a normal result: the model can tell the user and the turn goes
on. A refused input (too long, too many tags) is an error result saying the limit.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Annotated

import pydantic

from agentd import said
from agentd.errors import InvalidMemory, MemoryUnavailable, ToolError
from agentd.memory.curate import (
    CANDIDATES,
    Choose,
    Neighbours,
    about_the_same,
    decide_forget,
    decide_save,
)
from agentd.memory.longterm import MAX_TOP_K, Memory, MemoryAccess, memory_line
from agentd.tools.kinds import MEMORY
from agentd.tools.registry import ToolRegistry

#: The most tags the model may give a save or a search (the store takes up to ``MAX_TAGS``):
#: the bound goes into the step's grammar, where with none a small model listed the same two
#: words again and again to the token cap and the call never came.
MOST_TAGS = 8
Tags = Annotated[list[str], pydantic.Field(max_length=MOST_TAGS)]

TOOL_NAMES = ("memory_save", "memory_search", "memory_forget")


def unavailable(exc: MemoryUnavailable) -> str:
    """The one-line tool result for a store that cannot answer."""
    return "memory unavailable: " + " ".join(str(exc).split())


async def curated_save(
    store: MemoryAccess, choose: Choose | None, memory: Memory, similar: float
) -> str:
    """Save ``memory`` as the model decides against the memories that may be about the same
    thing (:func:`~agentd.memory.curate.about_the_same`); the tool's answer. None of them: no
    model call."""
    if choose is None:
        return f"saved memory {await store.save(memory)}"
    if isinstance(store, Neighbours):
        vector, found = await store.neighbours(memory.content, CANDIDATES, memory.words)
        memory = dataclasses.replace(memory, embedding=tuple(vector))
    else:
        found = await store.search(memory.content, CANDIDATES)
    candidates = [m for m in found if about_the_same(memory.content, m, similar, memory.tags)]
    if not candidates:
        return f"saved memory {await store.save(memory)}"
    decision = await decide_save(choose, memory.content, candidates)
    now = int(time.time() * 1000)
    old = decision.memory
    if decision.action == "update" and old is not None:
        tags = memory.tags or old.tags
        key = await store.save(dataclasses.replace(memory, key=old.key, tags=tags, ts=now))
        return f"updated memory {key} (it said: {old.content})"
    if decision.action == "nothing" and old is not None:
        await store.save(dataclasses.replace(old, confirmed=now, score=None))
        return f"already remembered as memory {old.key}; marked confirmed"
    return f"saved memory {await store.save(memory)}"


def register_memory_tools(
    registry: ToolRegistry,
    store: MemoryAccess,
    choose: Choose | None = None,
    similar: float = 0.8,
) -> None:
    """Add ``memory_save`` and ``memory_search`` on ``store`` to ``registry``, and with a model
    to decide (``choose``) ``memory_forget``, and saves that update what they replace."""

    async def memory_save(content: str, tags: Tags | None = None) -> str:
        """Remember a fact or preference across conversations. Not for files.

        Args:
            content: Self-contained.
            tags: Words of the fact.
        """
        try:
            memory = Memory(content=content, tags=tuple(tags or ()), words=said.get())
            return await curated_save(store, choose, memory, similar)
        except MemoryUnavailable as exc:
            return unavailable(exc)
        except InvalidMemory as exc:
            raise ToolError(str(exc)) from None

    async def memory_search(query: str, top_k: int = 5, tags: Tags | None = None) -> str:
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
        return "\n".join(memory_line(m) for m in found)

    async def memory_forget(what: str) -> str:
        """Forget (delete) a memory the user asks to be forgotten.

        Args:
            what: What to forget, in the user's words (e.g. "my address").
        """
        assert choose is not None
        try:
            candidates = await store.search(what, CANDIDATES)
            decision = await decide_forget(choose, what, candidates)
            if decision.action != "delete" or decision.memory is None:
                return "no memory about that was found; nothing was deleted"
            await store.delete(decision.memory.key)
        except MemoryUnavailable as exc:
            return unavailable(exc)
        except InvalidMemory as exc:
            raise ToolError(str(exc)) from None
        return f"forgot memory {decision.memory.key}: {decision.memory.content}"

    registry.add(memory_save, kind=MEMORY)
    registry.add(memory_search, looks=True, kind=MEMORY)
    if choose is not None:
        registry.add(memory_forget, kind=MEMORY)
