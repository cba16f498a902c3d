"""The memory collection: its schema, the values its fields hold, and rows read back.

The collection keeps the original schema (``key, content, embedding, tags, ts, agent_id``; FLAT
index, COSINE metric, the dimension probed once from the embedding function) and adds what
scoping and tag filtering need:

- ``tenant``: the tenant that saved the memory, for people reading the collection;
- ``scope``: a hash of (tenant, agent), the only value searches filter on;
- ``tag_keys`` (an ARRAY) and ``tag_index`` (the same as ``|h1|h2|``): hashes of the case-folded
  tags, so a tag filter runs inside Milvus and a filtered search still returns ``top_k`` hits. A
  server filters with ``array_contains_any`` on the array; Milvus Lite with ``like "%|h|%"`` on the
  string, because it evaluates array filters ~15x slower (300 ms at 10k rows) and a Milvus 2.3
  server only matches ``like`` prefixes;
- the primary key is ``<scope prefix>.<key>``, so two scopes can never overwrite each other's
  memories even when they choose the same key;
- ``words``: the user's request of the turn that saved the memory (its vector embeds them with
  the content). Collections made before it lack the field and load as they are: their rows
  read back with no words (the vectors still hold them).

Only hex digests and validated keys ever reach a filter expression, and those through
:func:`literal`. Lite and server answer in different shapes (a hit is keyed ``key`` on Lite and
``id`` on a server); only the fields asked for are read, which both return the same way.
"""

from __future__ import annotations

import hashlib
import re
import time
import uuid
from typing import Any

from agentd import scope as scopes
from agentd.memory.longterm import (
    CHAT_MODEL_ID,
    MAX_CONTENT_BYTES,
    MAX_KEY,
    MAX_TAGS,
    MAX_TAGS_JSON_BYTES,
    Memory,
    check_content,
    check_key,
    normalize_tags,
    parse_tags,
    tags_json,
)

OUTPUT_FIELDS = ["key", "content", "tags", "ts", "agent_id"]
SCHEMA_FIELDS = frozenset({*OUTPUT_FIELDS, "embedding", "tenant", "scope", "tag_keys", "tag_index"})
TAG_KEY_CHARS = 32
#: Bytes the ``words`` field holds (500 characters of any script, see agentd.said).
MAX_WORDS_BYTES = 2048
PREFIX_CHARS = 24
#: The scope of bookkeeping rows (a re-embedding's marker), which are no memories.
META_SCOPE = "meta"


def memory_row(memory: Memory, scope: scopes.Scope, prefix: str) -> dict[str, Any]:
    """The row that stores ``memory`` for ``scope`` (``prefix``: its scope hash); its
    ``embedding`` is None when the memory brings none. Raises InvalidMemory on bad input."""
    content = check_content(memory.content)
    tags = normalize_tags(memory.tags)
    key = check_key(memory.key) if memory.key else uuid.uuid4().hex
    return {
        "key": f"{prefix[:PREFIX_CHARS]}.{key}",
        "content": content,
        "tags": tags_json(tags),
        "ts": memory.ts or int(time.time() * 1000),
        "confirmed": memory.confirmed,
        "words": clip(memory.words.strip(), MAX_WORDS_BYTES),
        "agent_id": clip(scope.app, 256),
        "tenant": clip(scope.tenant, 256),
        "scope": prefix,
        "tag_keys": [tag_key(t) for t in tags],
        "tag_index": "|" + "".join(tag_key(t) + "|" for t in tags),
        "embedding": list(memory.embedding) if memory.embedding else None,
    }


def literal(value: str) -> str:
    """``value`` as a double-quoted string literal of Milvus' filter language.

    Milvus Lite and the server both parse ``\\\\``, ``\\"``, ``\\n`` and ``\\r`` escapes; every
    other character may stand as it is (measured on both).
    """
    escaped = (
        value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    )
    return f'"{escaped}"'


def scope_hash(scope: scopes.Scope) -> str:
    """The value the ``scope`` field holds for ``scope``: sha256 of tenant and app."""
    raw = f"{len(scope.tenant)}:{scope.tenant}\x00{scope.app}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(raw).hexdigest()


def tag_key(tag: str) -> str:
    """The value ``tag_keys`` holds for ``tag`` (case-insensitive)."""
    digest = hashlib.sha256(tag.casefold().encode("utf-8", "surrogatepass")).hexdigest()
    return digest[:TAG_KEY_CHARS]


def collection_for(base: str, model_id: str) -> str:
    """The collection holding ``model_id``'s vectors: ``base`` for the chat model's (the
    original schema's), ``base_<model>`` for an embedding model's."""
    if model_id == CHAT_MODEL_ID:
        return base
    return f"{base}_{re.sub(r'[^A-Za-z0-9_]', '_', model_id)}"[:255]


def create_collection(client: Any, name: str, dim: int, timeout: float) -> None:
    """Create the collection ``name`` for vectors of ``dim`` (blocking: run it in a thread)."""
    from pymilvus import DataType, MilvusClient

    schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("key", DataType.VARCHAR, is_primary=True, max_length=MAX_KEY)
    schema.add_field("content", DataType.VARCHAR, max_length=MAX_CONTENT_BYTES)
    schema.add_field("embedding", DataType.FLOAT_VECTOR, dim=dim)
    schema.add_field("tags", DataType.VARCHAR, max_length=MAX_TAGS_JSON_BYTES)
    schema.add_field("ts", DataType.INT64)
    schema.add_field("confirmed", DataType.INT64)
    schema.add_field("words", DataType.VARCHAR, max_length=MAX_WORDS_BYTES)
    schema.add_field("agent_id", DataType.VARCHAR, max_length=256)
    schema.add_field("tenant", DataType.VARCHAR, max_length=256)
    schema.add_field("scope", DataType.VARCHAR, max_length=64)
    schema.add_field(
        "tag_keys",
        DataType.ARRAY,
        element_type=DataType.VARCHAR,
        max_capacity=MAX_TAGS,
        max_length=TAG_KEY_CHARS,
    )
    schema.add_field("tag_index", DataType.VARCHAR, max_length=(TAG_KEY_CHARS + 1) * MAX_TAGS + 1)
    index = client.prepare_index_params()
    index.add_index(field_name="embedding", index_type="FLAT", metric_type="COSINE")
    client.create_collection(
        name,
        schema=schema,
        index_params=index,
        consistency_level="Session",
        timeout=timeout,
    )


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` UTF-8 bytes (a server counts VarChar lengths in bytes)."""
    return text.encode("utf-8", "surrogatepass")[:limit].decode("utf-8", "ignore")


def hit_entity(hit: Any) -> dict[str, Any]:
    entity = hit.get("entity") if isinstance(hit, dict) or hasattr(hit, "get") else None
    return dict(entity or {})


def hit_score(hit: Any) -> float | None:
    distance = hit.get("distance") if hasattr(hit, "get") else None
    return float(distance) if distance is not None else None


def row_memory(row: dict[str, Any], *, score: float | None = None) -> Memory:
    return Memory(
        key=str(row.get("key", "")).partition(".")[2],
        content=str(row.get("content", "")),
        tags=parse_tags(row.get("tags")),
        ts=int(row.get("ts") or 0),
        agent_id=str(row.get("agent_id", "")),
        confirmed=int(row.get("confirmed") or 0),
        words=str(row.get("words") or ""),
        score=score,
    )
