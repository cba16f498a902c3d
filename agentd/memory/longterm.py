"""Long-term memory: what a memory is, the store protocol and the input rules every store shares.

A memory is a piece of text the agent chose to keep across sessions, with tags, a timestamp and
the agent that saved it. The store finds memories by meaning (vector search over embeddings) and
is scoped: every memory belongs to the tenant scope that saved it (:func:`agentd.scope.current`),
and no search, get or delete ever sees another scope's memories.

This module is the interface only; :mod:`agentd.memory.milvus` implements it and
:mod:`agentd.memory.factory` opens the store the settings describe.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from agentd.errors import InvalidMemory

#: Turns one text into its embedding (``LLMClient.embed_one``).
EmbedFunc = Callable[[str], Awaitable[list[float]]]
#: The vectors of the chat model's embeddings (the collection of the original schema).
CHAT_MODEL_ID = "chat"


class Embedder(Protocol):
    """Text to vectors for memory: a query and a stored text may be embedded differently
    (retrieval models are trained so), and ``model_id`` names the vectors it makes."""

    model_id: str

    async def query(self, text: str) -> list[float]:
        """The vector a search compares with stored ones."""
        ...

    async def documents(self, texts: Sequence[str]) -> list[list[float]]:
        """The vectors of texts to store, in order."""
        ...


@dataclass(slots=True)
class FuncEmbedder:
    """An :data:`EmbedFunc` as an Embedder: the same vector for queries and stored texts."""

    embed: EmbedFunc
    model_id: str = CHAT_MODEL_ID

    async def query(self, text: str) -> list[float]:
        return await self.embed(text)

    async def documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [await self.embed(text) for text in texts]


def as_embedder(embed: EmbedFunc | Embedder) -> Embedder:
    """``embed`` as an Embedder (a bare function embeds queries and texts alike)."""
    if callable(embed) and not hasattr(embed, "documents"):
        return FuncEmbedder(embed)
    return embed  # type: ignore[return-value]


MAX_KEY = 256
MAX_CONTENT_BYTES = 8192
MAX_TAGS_JSON_BYTES = 2048
MAX_TAGS = 32
MAX_TAG_CHARS = 64
MAX_TOP_K = 100
#: Keys chosen by callers; the stored primary key adds a 25-character scope prefix.
_KEY = re.compile(r"^[A-Za-z0-9_.:-]{1,200}$")


@dataclass(frozen=True, slots=True)
class Memory:
    """One long-term memory. ``score`` is set on search results (cosine similarity), and
    ``closeness`` too once the store ranks around its memories' mean (the cosine around it).

    ``ts`` is when it was saved (or last changed), ``confirmed`` when it was last said again
    (unix ms; 0: never since it was saved). ``words`` are the user's own request of the turn that
    saved it (:mod:`agentd.said`; "" when none): they are embedded and indexed with ``content``
    (:func:`indexed_text`), so a question in the user's words finds what the model rewrote.
    """

    content: str
    tags: tuple[str, ...] = ()
    key: str = ""
    ts: int = 0
    agent_id: str = ""
    confirmed: int = 0
    embedding: tuple[float, ...] | None = field(default=None, repr=False)
    score: float | None = None
    closeness: float | None = None
    words: str = ""


@dataclass(frozen=True, slots=True)
class MemoryStats:
    """What ``agentd memory stats`` shows."""

    backend: str
    address: str
    collection: str
    dimension: int | None
    memories_in_scope: int
    degraded: str | None


class MemoryAccess(Protocol):
    """What the CLI and the agent's memory tools call: a store in this process, or a running
    daemon's through its HTTP API. Every method reads the tenant scope from ``scope.current()``.
    """

    async def save(self, memory: Memory) -> str:
        """Store ``memory`` (embedding it when it has no embedding); returns its key."""
        ...

    async def search(
        self, query: str, top_k: int = 5, tags_include: Sequence[str] = ()
    ) -> list[Memory]:
        """The ``top_k`` memories nearest to ``query``, best first.

        With ``tags_include``, only memories sharing at least one tag count, and still up to
        ``top_k`` of them are returned.
        """
        ...

    async def delete(self, key: str) -> bool:
        """Delete the memory with ``key`` in the current scope; whether it existed."""
        ...

    async def stats(self) -> MemoryStats:
        """Counts and settings of the store, for the current scope."""
        ...


class MemoryStore(MemoryAccess, Protocol):
    """Scoped long-term memory. Every method reads the tenant scope from ``scope.current()``."""

    degraded: str | None

    async def save_many(self, memories: Sequence[Memory]) -> list[str]:
        """Store several memories in one write; returns their keys in order."""
        ...

    async def get(self, key: str) -> Memory | None:
        """The memory with ``key`` in the current scope, or None."""
        ...

    async def aclose(self) -> None:
        """Release the connection."""
        ...


def normalize_tags(tags: Sequence[str] | None) -> tuple[str, ...]:
    """Tags stripped, empty ones dropped, duplicates (ignoring case) removed; order kept."""
    out: list[str] = []
    seen: set[str] = set()
    for raw in tags or ():
        tag = " ".join(str(raw).split())
        if not tag:
            continue
        if len(tag) > MAX_TAG_CHARS:
            raise InvalidMemory(f"tag {tag[:20]!r}... is longer than {MAX_TAG_CHARS} characters")
        folded = tag.casefold()
        if folded not in seen:
            seen.add(folded)
            out.append(tag)
    if len(out) > MAX_TAGS:
        raise InvalidMemory(f"{len(out)} tags given; at most {MAX_TAGS} are allowed")
    if len(tags_json(out).encode()) > MAX_TAGS_JSON_BYTES:
        raise InvalidMemory(f"the tags take more than {MAX_TAGS_JSON_BYTES} bytes as JSON")
    return tuple(out)


def tags_json(tags: Sequence[str]) -> str:
    """The stored form of the tags (a JSON list, as in the original schema)."""
    return json.dumps(list(tags), ensure_ascii=False)


def parse_tags(raw: Any) -> tuple[str, ...]:
    """Tags from the stored JSON; anything unreadable counts as no tags."""
    try:
        data = json.loads(raw) if isinstance(raw, str) else raw
    except json.JSONDecodeError:
        return ()
    if not isinstance(data, list):
        return ()
    return tuple(str(t) for t in data)


def check_content(content: str) -> str:
    """``content`` stripped; refuses empty text and text over the column's byte limit."""
    text = content.strip()
    if not text:
        raise InvalidMemory("a memory needs some content")
    size = len(text.encode("utf-8", errors="surrogatepass"))
    if size > MAX_CONTENT_BYTES:
        raise InvalidMemory(
            f"the content is {size} bytes; at most {MAX_CONTENT_BYTES} fit: save a shorter note"
        )
    return text


def indexed_text(content: str, words: str = "") -> str:
    """What a memory is found by (its vector's text, its indexed words): ``content``, then the
    user's ``words`` when they are not the same text."""
    said = words.strip()
    if not said or said == content.strip():
        return content
    return f"{content}\n{said}"


def check_key(key: str) -> str:
    """``key`` if it is a valid memory key (letters, digits, ``_.:-``, at most 200)."""
    if not _KEY.match(key):
        raise InvalidMemory(f"{key[:40]!r} is not a memory key (1-200 letters, digits, _.:-)")
    return key


def memory_line(memory: Memory) -> str:
    """One memory as the model reads it: the content first, then its tags (the model saved
    "2020" tagged office, krakow, doorcode for "the door code of the Krakow office is 2020") and
    the day it was last said. No key: a 32-hex key before the content was read back as the
    answer ("the door code is 96aa299e…")."""
    tags = f" (tags: {', '.join(memory.tags)})" if memory.tags else ""
    said = memory_said(memory)
    day = f" [{time.strftime('%Y-%m-%d', time.gmtime(said / 1000))}]" if said else ""
    return f"- {memory.content}{tags}{day}"


def memory_said(memory: Memory) -> int:
    """When the memory was last saved or confirmed (unix ms; 0 unknown)."""
    return max(memory.ts, memory.confirmed)


def memories_text(memories: Iterable[Memory]) -> str:
    """Memories as the lines the CLI shows (with keys and scores, for people); under each,
    the user's own words it was saved from, when they are not its content."""
    lines = []
    for m in memories:
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(m.ts / 1000)) if m.ts else "?"
        tags = f" [{', '.join(m.tags)}]" if m.tags else ""
        score = f" ({m.score:.2f})" if m.score is not None else ""
        lines.append(f"- {m.key} {when}{tags}{score}: {m.content}")
        said = " ".join(m.words.split())
        if said and said != m.content.strip():
            lines.append(f"  said: {said}")
    return "\n".join(lines)


def check_top_k(top_k: int) -> int:
    if not 1 <= top_k <= MAX_TOP_K:
        raise InvalidMemory(f"top_k must be between 1 and {MAX_TOP_K}, got {top_k}")
    return top_k
