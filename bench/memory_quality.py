"""Memory quality, retrieval half: recall@1, recall@5 and MRR straight against the store.

Run: ``python -m bench.memory_quality --embedder multilingual-e5-small [--half held-out]``

The 300 facts of ``bench/_memory_cases`` (60 sessions in en, de, es, fr, ja) are saved into one
fresh store (Milvus Lite and the FTS5 index, as the daemon keeps them, the embedding model served
by its own sidecar as the daemon serves it); then every question of the chosen half is searched,
once by the vectors alone and once hybrid (vectors and words fused), and the rank of the fact that
answers it is scored: recall@1, recall@5, MRR (over the top 10), per language of the question
and per kind (same-language, cross-language, knowledge update: the newest fact must be found).
For updates, "newest first" counts the questions whose new fact ranks above the stale one.

Abstention: a question never answered by any fact should recall nothing. Recall (the note shown
with a message) keeps a memory whose cosine reaches the floor or that holds half the message's
trigrams; the floor is chosen on the dev half (best mean of "answer recalled in the top 3" and
"nothing recalled for a never-told question") and judged on the other half.

``--end-to-end`` plays the end-to-end half instead (``bench/_memory_e2e.py``): facts told
through agent turns of a real ``agentd run`` on the default chat model, asked from new sessions
through the HTTP API, answers judged by their content.

``--embedder chat`` embeds with the packaged chat model's server instead (the fallback).
``--scale N`` adds N filler memories (random vectors, texts from the facts) and reports the
latency of a hybrid search, query embedding included, at that size.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import numpy as np

from agentd import scope as scopes
from agentd.config import Settings
from agentd.memory.collection import scope_hash
from agentd.memory.fulltext import TextIndex
from agentd.memory.hybrid import CANDIDATES, HybridStore, fuse
from agentd.memory.longterm import Embedder, FuncEmbedder, Memory
from agentd.memory.milvus import MilvusStore
from agentd.memory.recall import MIN_SHARE, least_score, overlap
from agentd.model.packages import DEFAULT_MODEL
from bench._common import pct
from bench._memory_cases import Fact, Question, load
from bench._memory_e2e import WATCHED, ask_session, play, probes, scores, session_events
from bench._memory_split import HALVES, load_split

TOP = 10
SCOPE = scopes.Scope(tenant="bench")
FLOORS = [round(0.5 + 0.01 * i, 2) for i in range(50)]


@dataclass(slots=True)
class Result:
    """One question's outcome in one search mode."""

    question: Question
    mode: str
    rank: int | None
    stale_rank: int | None
    #: (cosine or None, trigram share) of the results, best first.
    hits: list[tuple[float | None, float, str]] = field(default_factory=list)
    seconds: float = 0.0


@asynccontextmanager
async def embedder_for(name: str, state_dir: Path, threads: int = 0) -> AsyncIterator[Embedder]:
    """The embedder ``name`` served as the daemon serves it (its sidecar, or the chat model's)."""
    async with AsyncExitStack() as stack:
        if name == "chat":
            from agentd.model.client import open_client
            from agentd.model.sidecar import open_sidecar, with_sidecar_url

            sidecar_settings = {"enabled": True, "keep_slots": False, "context": 2048}
            settings = Settings(state_dir=state_dir, llm={"sidecar": sidecar_settings})
            sidecar = await stack.enter_async_context(open_sidecar(settings))
            llm = await stack.enter_async_context(open_client(with_sidecar_url(settings, sidecar)))
            yield FuncEmbedder(llm.embed_one)
            return
        from agentd.model.embed_server import open_memory_embedder

        memory: dict[str, object] = {"embedder": name}
        if threads:
            memory["embedder_threads"] = threads
        settings = Settings(state_dir=state_dir, memory=memory)
        served = await stack.enter_async_context(open_memory_embedder(settings))
        if served is None:
            raise SystemExit(
                f"{name} is not fetched under {state_dir}: agentd model fetch --embedder {name}"
            )
        yield served


async def fill(store: HybridStore, facts: Sequence[Fact]) -> float:
    """Save the facts (their told times kept); seconds taken."""
    start = time.perf_counter()
    with scopes.use(SCOPE):
        for i in range(0, len(facts), 50):
            batch = facts[i : i + 50]
            await store.save_many([Memory(f.text, key=f.id, ts=f.ts) for f in batch])
    return time.perf_counter() - start


async def pad(store: HybridStore, facts: Sequence[Fact], count: int, dim: int) -> None:
    """``count`` filler memories: the facts' texts numbered, random vectors."""
    rng = np.random.default_rng(37)
    with scopes.use(SCOPE):
        for start in range(0, count, 2000):
            size = min(2000, count - start)
            vectors = rng.standard_normal((size, dim)).astype(np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            batch = [
                Memory(
                    f"{facts[(start + i) % len(facts)].text} (#{start + i})",
                    embedding=tuple(v.tolist()),
                )
                for i, v in enumerate(vectors)
            ]
            await store.save_many(batch)


def _rank(keys: Sequence[str], wanted: str | None) -> int | None:
    return keys.index(wanted) + 1 if wanted in keys else None


async def ask(store: HybridStore, questions: Sequence[Question]) -> list[Result]:
    """Each question searched by the vectors alone and hybrid."""
    out: list[Result] = []
    with scopes.use(SCOPE):
        for q in questions:
            for mode in ("dense", "hybrid"):
                store.dense.forget_queries()  # each search timed with its query's embedding
                start = time.perf_counter()
                found = await (
                    store.dense.search(q.text, TOP)
                    if mode == "dense"
                    else store.search(q.text, TOP)
                )
                seconds = time.perf_counter() - start
                keys = [m.key for m in found]
                hits = [(m.score, overlap(q.text, m), m.key) for m in found]
                out.append(
                    Result(q, mode, _rank(keys, q.answer), _rank(keys, q.stale), hits, seconds)
                )
    return out


WEIGHTS = (0.0, 0.25, 0.5, 1.0)
SHARES = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7)


async def sweep(
    store: HybridStore, questions: Sequence[Question], split: dict[str, str]
) -> dict[str, object]:
    """Fusion settings (word weight, least trigram share of a word hit) chosen on the dev half
    by MRR, then scored on the held-out half; the two rankings are fetched once per question."""
    lists = []
    with scopes.use(SCOPE):
        scope = scope_hash(scopes.current())
        for q in questions:
            if q.answer is None:
                continue
            dense = [m.key for m in await store.dense.search(q.text, CANDIDATES)]
            words = await store.text.search(scope, q.text, CANDIDATES)
            lists.append((q, dense, words))

    def score(half: str, weight: float, least: float) -> tuple[float, float]:
        ranks = []
        for q, dense, words in lists:
            if split[q.id] != half:
                continue
            kept = [w.key for w in words if w.share >= least]
            order = fuse(dense, kept, weights=(1.0, weight))[:TOP]
            ranks.append(_rank(order, q.answer))
        mrr = sum(1 / r for r in ranks if r) / len(ranks)
        return mrr, sum(r is not None and r <= 5 for r in ranks) / len(ranks)

    grid = [(w, m) for w in WEIGHTS for m in SHARES if not (w == 0.0 and m > 0.0)]
    dev = {setting: score("dev", *setting) for setting in grid}
    best = max(grid, key=lambda setting: (dev[setting], -setting[0]))
    for setting in sorted(grid, key=lambda s: dev[s], reverse=True)[:8]:
        mrr, r5 = dev[setting]
        print(f"  weight {setting[0]:.2f} share>={setting[1]:.1f}: dev mrr {mrr:.3f} r@5 {r5:.3f}")
    held = score("held-out", *best)
    print(f"fusion chosen on dev: weight {best[0]}, share >= {best[1]}; held-out ", end="")
    print(f"mrr {held[0]:.3f} r@5 {held[1]:.3f}")
    return {
        "weight": best[0],
        "min_share": best[1],
        "held_out_mrr": held[0],
        "held_out_r5": held[1],
    }


def recalled(result: Result, floor: float, top_k: int = 3) -> list[str]:
    """The keys recall would show: score >= floor (or a little under it for a best one that
    stands out from the others, among the top 10 here, 20 in the daemon) or half the
    trigrams, up to top_k."""
    low = least_score([score for score, _, _ in result.hits], floor)
    keys = [
        key
        for score, share, key in result.hits
        if (score is not None and score >= low) or share >= MIN_SHARE
    ]
    return keys[:top_k]


def gate_scores(results: Sequence[Result], floor: float) -> tuple[float, float]:
    """(answerable questions whose answer is recalled, never-told questions recalling nothing)."""
    answerable = [r for r in results if r.question.answer is not None]
    never = [r for r in results if r.question.answer is None]
    hit = sum(r.question.answer in recalled(r, floor) for r in answerable) / max(1, len(answerable))
    empty = sum(not recalled(r, floor) for r in never) / max(1, len(never))
    return hit, empty


def best_floor(results: Sequence[Result]) -> float:
    return max(FLOORS, key=lambda f: (sum(gate_scores(results, f)), -f))


def table(results: Sequence[Result]) -> dict[str, dict[str, float]]:
    """recall@1, recall@5, MRR (and count) per group: kind, kind per question language, all."""
    groups: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        if r.question.answer is None:
            continue
        q = r.question
        groups["all"].append(r)
        groups[q.kind].append(r)
        groups[f"{q.kind}:{q.lang}"].append(r)
        groups[f"lang:{q.lang}"].append(r)
    out = {}
    for name, rows in sorted(groups.items()):
        ranks = [r.rank for r in rows]
        out[name] = {
            "n": len(rows),
            "r@1": sum(k == 1 for k in ranks) / len(rows),
            "r@5": sum(k is not None and k <= 5 for k in ranks) / len(rows),
            "mrr": sum(1 / k for k in ranks if k) / len(rows),
        }
    updates = [r for r in results if r.question.kind == "update" or r.question.stale]
    if updates:
        newest = sum(
            r.rank is not None and (r.stale_rank is None or r.rank < r.stale_rank) for r in updates
        )
        out["newest_first"] = {"n": len(updates), "share": newest / len(updates)}
    return out


def show(title: str, scores: dict[str, dict[str, float]]) -> None:
    print(f"\n{title}")
    for name, row in scores.items():
        if "share" in row:
            print(f"  {name:<14} n={row['n']:<4.0f} {row['share']:.2f}")
        else:
            scores_text = f"r@1 {row['r@1']:.2f}  r@5 {row['r@5']:.2f}  mrr {row['mrr']:.2f}"
            print(f"  {name:<14} n={row['n']:<4.0f} {scores_text}")


async def run(args: argparse.Namespace) -> dict[str, object]:
    facts, questions = load()
    split = load_split()
    report: dict[str, object] = {"embedder": args.embedder, "facts": len(facts)}
    with tempfile.TemporaryDirectory(prefix="agentd-memq-") as tmp:
        async with embedder_for(args.embedder, args.state_dir, args.threads) as embedder:
            async with MilvusStore.open(str(Path(tmp) / "milvus.db"), embedder) as dense:
                store = HybridStore(dense, await TextIndex.open(Path(tmp) / "text.db"))
                try:
                    report["fill_seconds"] = round(await fill(store, facts), 2)
                    if args.sweep:
                        fusion = await sweep(store, questions, split)
                        report["fusion"] = fusion
                        store.text_weight = float(fusion["weight"])  # type: ignore[arg-type]
                        store.min_share = float(fusion["min_share"])  # type: ignore[arg-type]
                    report["fusion_used"] = [store.text_weight, store.min_share]
                    results = await ask(store, questions)
                    for half in ("dev", "held-out"):
                        chosen = [r for r in results if split[r.question.id] == half]
                        for mode in ("dense", "hybrid"):
                            scores = table([r for r in chosen if r.mode == mode])
                            report[f"{half}/{mode}"] = scores
                            show(f"{args.embedder} {mode} ({half})", scores)
                    for mode in ("dense", "hybrid"):
                        dev = [
                            r for r in results if r.mode == mode and split[r.question.id] == "dev"
                        ]
                        held = [
                            r
                            for r in results
                            if r.mode == mode and split[r.question.id] == "held-out"
                        ]
                        floor = best_floor(dev)
                        hit, empty = gate_scores(held, floor)
                        report[f"gate/{mode}"] = {
                            "floor": floor,
                            "recalled": hit,
                            "abstained": empty,
                        }
                        print(
                            f"\nrecall gate ({mode}): floor {floor} from dev; held-out: answer "
                            f"recalled {hit:.2f}, never-told empty {empty:.2f}"
                        )
                    embed_ms = []
                    for q in questions[:100]:
                        start = time.perf_counter()
                        await embedder.query(q.text)
                        embed_ms.append((time.perf_counter() - start) * 1000)
                    report["query_embedding_ms"] = {"p50": round(pct(embed_ms, 50), 1)}
                    latency = [r.seconds * 1000 for r in results if r.mode == "hybrid"]
                    report["search_ms_300"] = {
                        "p50": round(pct(latency, 50), 1),
                        "p95": round(pct(latency, 95), 1),
                    }
                    if args.scale:
                        await pad(store, facts, args.scale, dense.dimension or 384)
                        timed = await ask(store, questions[:100])
                        for mode in ("hybrid", "dense"):
                            ms = [r.seconds * 1000 for r in timed if r.mode == mode]
                            report[f"search_ms_{args.scale + len(facts)}_{mode}"] = {
                                "p50": round(pct(ms, 50), 1),
                                "p95": round(pct(ms, 95), 1),
                                "mean": round(statistics.fmean(ms), 1),
                            }
                    timing = {
                        k: v for k, v in report.items() if k.startswith(("search", "fill", "query"))
                    }
                    print("\n" + json.dumps(timing))
                finally:
                    await store.aclose()
    return report


#: The daemon's log event that says which embedding model memory's server serves.
STARTED = ("memory.embedder_ready",)


async def end_to_end(args: argparse.Namespace) -> dict[str, object]:
    """The end-to-end half of ``args.half`` on the packaged chat model ``args.model``."""
    import httpx

    from agentd.config import LLMSettings
    from agentd.model.packages import resolve_model_file
    from agentd.model.sidecar import free_port, open_sidecar
    from bench._daemon import agentd_daemon

    facts, questions = load()
    base = Settings(state_dir=args.state_dir)
    gguf = resolve_model_file(base.state_dir, args.model, None)
    sidecar = base.llm.sidecar.model_copy(
        update={"enabled": True, "model_path": gguf, "port": free_port()}
    )
    config = {
        "memory": {"embed": True, "embedder": args.embedder},
        "log": {"level": "info", "format": "json"},
    }
    with tempfile.TemporaryDirectory(prefix="agentd-memq-e2e-") as tmp:
        root = Path(tmp)
        state = root / "daemon" / "state"
        state.mkdir(parents=True)
        # The daemon serves the user's fetched embedding model, as `make run` does.
        (state / "models").symlink_to(base.state_dir.expanduser() / "models")
        server_settings = Settings(state_dir=root / "server", llm=LLMSettings(sidecar=sidecar))
        async with (
            open_sidecar(server_settings) as server,
            agentd_daemon(server.base_url, root / "daemon", config, server.api_key) as daemon,
            httpx.AsyncClient(base_url=daemon.url, headers=daemon.headers, timeout=600) as http,
        ):
            ready = (await http.get("/readyz")).json()
            started = session_events(daemon.log_path.read_text().splitlines(), STARTED)
            served = [
                e.get("model", "")
                for e in started.get("", [])
                if e["event"] == "memory.embedder_ready"
            ]
            print(f"memory: {ready.get('checks', {}).get('memory')}, embedder {served}", flush=True)
            if served != [args.embedder]:
                raise SystemExit(
                    f"the daemon did not serve {args.embedder} ({served}): the target is for "
                    f"the default models; agentd model fetch --embedder {args.embedder}"
                )

            async def ask(session: str, text: str) -> str:
                body = {"model": "agentd", "messages": [{"role": "user", "content": text}]}
                response = await http.post(
                    "/v1/chat/completions", json=body, headers={"X-Session-Id": session}
                )
                if response.status_code != 200:
                    return f"(HTTP {response.status_code})"
                return str(response.json()["choices"][0]["message"]["content"] or "")

            start = time.perf_counter()
            told, outcomes = await play(ask, facts, probes(args.half, questions))
            seconds = time.perf_counter() - start
            found = {}
            for number, o in enumerate(outcomes):
                body = {"query": o.probe.question.text, "top_k": 3}
                response = await http.post("/v1/memories/search", json=body)
                found[ask_session(number)] = response.json().get("data", response.json())
            stored = (await http.get("/v1/memories/stats")).json()
            # Every memory (the store holds a few dozen at most): what the turns saved.
            every = {"query": "memory", "top_k": 100}
            saved = (await http.post("/v1/memories/search", json=every)).json().get("data", [])
            log_lines = daemon.log_path.read_text(errors="replace").splitlines()
            if args.out:
                args.out.with_suffix(".daemon.log").write_text("\n".join(log_lines) + "\n")
    events = session_events(log_lines, WATCHED)
    print(f"stored: {stored}")
    for m in sorted(saved, key=lambda m: m.get("ts") or 0):
        print(f"  saved {m.get('id')}: {' '.join(str(m.get('content')).split())[:100]}")
    for t in told:
        tools = [e.get("tools") for e in events.get(t.session, []) if e["event"] == "turn.tools"]
        print(f"  told {t.fact.id:6s} tools {tools} {' '.join(t.answer.split())[:80]}")
    for o in outcomes:
        answer = " ".join(o.answer.split())[:110]
        asked = o.probe.question.text[:50]
        print(f"  {o.verdict:9s} {o.probe.question.kind:6s} {asked:50s} {answer}")
    result = scores(outcomes)
    for name, row in result.items():
        print(f"  {name:<11} n={row['n']:<3.0f} passed {row['passed']:.2f}")
    print(f"{len(outcomes)} questions in {seconds:.0f} s")
    detail = {
        "told": [
            {"fact": t.fact.id, "answer": t.answer, "events": events.get(t.session, [])}
            for t in told
        ],
        "asked": [
            {
                "question": o.probe.question.id,
                "verdict": o.verdict,
                "answer": o.answer,
                "events": events.get(ask_session(number), []),
                "search": found[ask_session(number)],
            }
            for number, o in enumerate(outcomes)
        ],
    }
    return {
        "half": args.half,
        "model": args.model,
        "embedder": args.embedder,
        "seconds": round(seconds),
        "stored": stored,
        "saved": saved,
        **result,
        "detail": detail,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--embedder", default="multilingual-e5-small")
    parser.add_argument(
        "--state-dir", type=Path, default=Settings().state_dir, help="where the models are fetched"
    )
    parser.add_argument("--sweep", action="store_true", help="choose the fusion on dev first")
    parser.add_argument("--scale", type=int, default=0, help="filler memories for the latency run")
    parser.add_argument(
        "--threads", type=int, default=0, help="the embedding server's threads (the setting's)"
    )
    parser.add_argument("--end-to-end", action="store_true", help="play the end-to-end half")
    parser.add_argument("--half", choices=HALVES, default="dev", help="end to end: which half")
    parser.add_argument("--model", default=DEFAULT_MODEL, help="end to end: the chat model")
    parser.add_argument("--out", type=Path, help="write the report as JSON here")
    args = parser.parse_args()
    report = anyio.run(end_to_end if args.end_to_end else run, args)
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
