"""Long-term memory on Milvus Lite: insert rate, search latency and recall@10 at 10k and 100k.

Run: ``.venv/bin/python bench/memory_search.py [--sizes 10000,100000] [--dim 384]``

Random unit vectors stand in for embeddings (the embedding model is not what is measured). Each
size gets a fresh Milvus Lite directory; memories go in through ``MilvusStore.save_many`` in
batches, searches through ``MilvusStore.search`` (scope filter included, the query's embedding
precomputed; on Lite the store searches the vectors in its own process,
``agentd.memory.local_index``). Recall@10 is measured against an exact cosine search in numpy
over the same vectors; the store ranks its 30 nearest around the stored vectors' mean
(``agentd.memory.centre``), so it is a little under 1 by design (0.966 at 10k). A quarter
of the memories carry the tag ``even``: the tag columns search with
``tags_include=["even"]`` and compare with the exact top 10 among those.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import anyio
import numpy as np

from agentd import scope as scopes
from agentd.memory.longterm import Memory
from agentd.memory.milvus import MilvusStore

BATCH = 2000
QUERIES = 100
TOP_K = 10


def _percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def _top(scores: np.ndarray) -> set[int]:
    return {int(j) for j in np.argpartition(-scores, TOP_K)[:TOP_K]}


async def run_size(size: int, dim: int, rng: np.random.Generator) -> dict[str, float]:
    vectors = rng.standard_normal((size, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    # Queries near stored memories (a stored vector plus noise), as real recalls are.
    noise = rng.standard_normal((QUERIES, dim)).astype(np.float32) / dim**0.5
    queries = vectors[rng.choice(size, QUERIES, replace=False)] + 0.5 * noise
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    by_text = {f"q{i}": queries[i].tolist() for i in range(QUERIES)}
    by_text["dimension probe"] = vectors[0].tolist()

    async def embed(text: str) -> list[float]:
        return by_text[text]

    with tempfile.TemporaryDirectory() as tmp, scopes.use(scopes.Scope(tenant="bench")):
        async with MilvusStore.open(str(Path(tmp) / "bench.db"), embed) as store:
            started = time.perf_counter()
            for start in range(0, size, BATCH):
                batch = [
                    Memory(
                        content=f"memory {i}",
                        key=f"m{i}",
                        tags=("even",) if i % 4 == 0 else (),
                        embedding=tuple(vectors[i].tolist()),
                    )
                    for i in range(start, min(size, start + BATCH))
                ]
                await store.save_many(batch)
            insert_s = time.perf_counter() - started

            started = time.perf_counter()
            await store.search("q0", top_k=TOP_K)  # the first search flushes the inserts
            first_s = time.perf_counter() - started

            latencies: list[float] = []
            hits = 0
            for i in range(QUERIES):
                t0 = time.perf_counter()
                found = await store.search(f"q{i}", top_k=TOP_K)
                latencies.append(time.perf_counter() - t0)
                hits += len({int(m.key[1:]) for m in found} & _top(vectors @ queries[i]))

            tagged: list[float] = []
            even = np.arange(size) % 4 == 0
            tag_hits = 0
            for i in range(QUERIES // 2):
                t0 = time.perf_counter()
                found = await store.search(f"q{i}", top_k=TOP_K, tags_include=["even"])
                tagged.append(time.perf_counter() - t0)
                exact = _top(np.where(even, vectors @ queries[i], -2.0))
                tag_hits += len({int(m.key[1:]) for m in found} & exact)

    numpy_times: list[float] = []
    for i in range(QUERIES):
        t0 = time.perf_counter()
        _top(vectors @ queries[i])
        numpy_times.append(time.perf_counter() - t0)

    return {
        "size": size,
        "insert_per_s": size / insert_s,
        "first_search_ms": first_s * 1000,
        "p50_ms": statistics.median(latencies) * 1000,
        "p95_ms": _percentile(latencies, 95) * 1000,
        "tag_p50_ms": statistics.median(tagged) * 1000,
        "numpy_p50_ms": statistics.median(numpy_times) * 1000,
        "recall": hits / (QUERIES * TOP_K),
        "tag_recall": tag_hits / ((QUERIES // 2) * TOP_K),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Milvus Lite memory search benchmark")
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    rows = [anyio.run(run_size, int(s), args.dim, rng) for s in args.sizes.split(",")]
    print(f"Milvus Lite, FLAT/COSINE, dim {args.dim}, {QUERIES} queries, top_k {TOP_K}")
    header = (
        f"{'memories':>9} {'insert/s':>9} {'1st search ms':>14} {'p50 ms':>8} {'p95 ms':>8} "
        f"{'tag p50 ms':>11} {'numpy p50 ms':>13} {'recall@10':>10} {'tag recall':>11}"
    )
    print(header)
    print("-" * len(header))
    for r in rows:
        print(
            f"{r['size']:>9,.0f} {r['insert_per_s']:>9,.0f} {r['first_search_ms']:>14.1f} "
            f"{r['p50_ms']:>8.1f} {r['p95_ms']:>8.1f} {r['tag_p50_ms']:>11.1f} "
            f"{r['numpy_p50_ms']:>13.2f} {r['recall']:>10.3f} {r['tag_recall']:>11.3f}"
        )


if __name__ == "__main__":
    main()
