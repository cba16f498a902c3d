"""Long session: one session of many turns through agentd's HTTP API, per context strategy.

For each configuration it starts a fresh ``agentd run`` (HTTP channel, no embeddings, a
temporary state dir) on the default packaged model at temperature 0, seed 42 and a small
context, so the context budget has to drop old messages several times; each configuration gets
a fresh llama-server, so none finds another's prompts in its cache. By default the daemon runs
that server itself, as ``make run`` does (``--sidecar own``: its sidecar with the user's
settings, sessions pinned to a slot, plus ``--metrics`` on a known port and key); with
``--sidecar external`` the benchmark starts llama-server with the sidecar's command line and
points the daemon's ``LLAMA_URL`` at it (no slot pinning). It drives ONE session
(``X-Session-Id``) with the official ``openai`` client, non-streaming. Each turn is a numbered
memo of roughly 100-200 tokens and a question about it, "Reply in one sentence, without
tools."; llama-server's ``-n`` caps the answers.

Per turn it records agentd's reported ``usage`` (prompt tokens, ``cached_tokens`` from
llama-server's ``timings.cache_n``; evaluated = prompt - cached), the new message's tokens
(llama-server's ``POST /tokenize``), the wall time of the request, failures, what llama-server
evaluated in all (``/metrics``: includes the summary calls, which run after a turn's reply) and
the daemon's context events (``context.trimmed``, ``compaction.summarized``). Prints per
configuration: failed turns, the share of turns that evaluated at most 1.5x the new message's
tokens (target >= 80%), p50/p90 latency of the first and the last 10 turns, mean token counts.
Before the session one stateless request puts the system prompt and tool schemas in the cache,
as on any daemon that has answered before. ``--pause`` waits between an answer and the next
question, as a user reads: what the daemon does in the background (a summary, reading the
session's new prompt) then has the time it has with a user. Nothing asserts a time.

    python -m bench.long_session [--turns 50] [--config truncate|window6|summarize ...]
                                 [--context 4096] [--sidecar own|external] [--pause S]
                                 [--csv PATH] [--keep DIR]
"""

from __future__ import annotations

import argparse
import csv
import random
import secrets
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
from openai import AsyncOpenAI

from agentd.config import Settings, load_settings
from agentd.errors import ModelError, SidecarError
from agentd.model.packages import resolve_model_file
from agentd.model.sidecar import free_port, key_headers, open_sidecar
from bench._common import SignalStop, pct, table
from bench._daemon import Daemon
from bench._daemon import agentd_daemon as running_daemon

SEED = 42
SESSION = "long"
TARGET_RATIO = 1.5
WINDOW = 10
#: The daemon's context events counted per turn (from its JSON log).
EVENTS = (
    "context.trimmed",
    "compaction.summarized",
    "compaction.failed",
    "context.overflow",
    "context.exceeded",
    "llm.retry",
)

#: Command-line name -> (label, ``default`` settings of the daemon).
CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "truncate": ("truncate", {"compaction_strategy": "truncate", "max_messages": 0}),
    "window6": ("truncate, max_messages=6", {"compaction_strategy": "truncate", "max_messages": 6}),
    "summarize": ("summarize", {"compaction_strategy": "summarize", "max_messages": 0}),
}

NAMES = ["Alice", "Bruno", "Chen", "Dana", "Emil", "Farah", "Goran", "Hana", "Ivo", "Jun"]
PLACES = ["Lisbon", "Oslo", "Krakow", "Porto", "Lyon", "Ghent", "Turin", "Bergen"]
ITEMS = [
    "the invoice batch",
    "the server migration",
    "the garden plan",
    "the budget review",
    "the kitchen order",
    "the release notes",
    "the school trip",
    "the tax return",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
MONTHS = ["March", "April", "May", "June", "September", "October"]
SENTENCES = [
    "{name} will take care of {item} before {day} and asked me to remind everyone at {hour}:00.",
    "The cost of {item} came out at {amount} euros, {count} percent more than planned in {month}.",
    "We met {name} in {place} to talk about {item}; the next call is on {day} at {hour}:30.",
    "{name} prefers to move {item} to {month}; the team in {place} is {count} people short.",
    "Keep in mind that {item} depends on {other}, who is travelling to {place} until {day}.",
    "A quick reminder: the key for the {place} office is with {name}, in room {amount}.",
    "Yesterday {count} people signed up for {item}, and {name} wants at least {amount} by {day}.",
    "If {item} slips again, {name} suggests {count} smaller parts, starting in {month}.",
]


def note(turn: int) -> str:
    """The user message of ``turn``: a numbered memo of 5-8 sentences and a question about it
    (~100-200 tokens)."""
    rng = random.Random(SEED * 1000 + turn)
    sentences = [
        rng.choice(SENTENCES).format(
            name=rng.choice(NAMES),
            other=rng.choice(NAMES),
            place=rng.choice(PLACES),
            item=rng.choice(ITEMS),
            day=rng.choice(DAYS),
            month=rng.choice(MONTHS),
            hour=rng.randint(8, 18),
            amount=rng.randint(100, 990),
            count=rng.randint(2, 40),
        )
        for _ in range(rng.randint(5, 8))
    ]
    # A question about the text itself: with "a note for my log" the model saves it (write_file).
    return (
        f"Memo {turn} (just read it, no tool needed): {' '.join(sentences)} "
        f"Who is named first in memo {turn}? Reply in one sentence, without tools."
    )


@dataclass(slots=True)
class TurnRow:
    """What one turn cost."""

    config: str
    turn: int
    ok: bool
    latency_s: float
    new_tokens: int
    prompt_tokens: int = 0
    cached_tokens: int = 0
    completion_tokens: int = 0
    server_evaluated: int = 0
    events: str = ""
    error: str = ""
    answer: str = ""

    @property
    def evaluated(self) -> int:
        return self.prompt_tokens - self.cached_tokens

    @property
    def cache_friendly(self) -> bool:
        return self.ok and self.evaluated <= TARGET_RATIO * self.new_tokens


@dataclass(frozen=True, slots=True)
class Server:
    """Where the session's llama-server answers (for /tokenize and /metrics)."""

    base_url: str
    headers: dict[str, str]


def daemon_config(defaults: dict[str, Any], answer_tokens: int) -> dict[str, Any]:
    """The daemon's settings for a configuration's ``default`` section."""
    return {
        # The budget reserves what llama-server's -n allows, as with the sidecar.
        "default": {**defaults, "answer_tokens": answer_tokens},
        "llm": {"temperature": 0, "seed": SEED},
        "memory": {"embed": False},
        "cron": {"enabled": False},
        "log": {"level": "info", "format": "json"},
    }


@asynccontextmanager
async def external_daemon(
    settings: Settings, tmp: Path, defaults: dict[str, Any], answer_tokens: int
) -> AsyncIterator[tuple[Daemon, Server]]:
    """llama-server started here, `agentd run` pointed at it; both stopped on exit."""
    async with open_sidecar(settings) as server:
        print(f"llama-server {server.base_url}: {' '.join(server.command[1:])}", flush=True)
        config = daemon_config(defaults, answer_tokens)
        async with running_daemon(server.base_url, tmp, config, server.api_key) as daemon:
            yield daemon, Server(server.base_url, server.headers)


@asynccontextmanager
async def own_daemon(
    settings: Settings, tmp: Path, defaults: dict[str, Any], answer_tokens: int
) -> AsyncIterator[tuple[Daemon, Server]]:
    """`agentd run` running llama-server itself (its sidecar, as `make run`); stopped on exit."""
    sidecar = settings.llm.sidecar
    key = secrets.token_urlsafe(24)
    config = daemon_config(defaults, answer_tokens)
    config["llm"] |= {
        "api_key": key,
        "sidecar": {
            "enabled": True,
            "model_path": str(sidecar.model_path),
            "context": sidecar.context,
            "max_answer_tokens": sidecar.max_answer_tokens,
            "port": sidecar.port,
            "extra_args": list(sidecar.extra_args),
        },
    }
    async with running_daemon("http://127.0.0.1:9", tmp, config) as daemon:
        yield daemon, Server(f"http://127.0.0.1:{sidecar.port}", key_headers(key))


async def _server_evaluated(llama: httpx.AsyncClient) -> int:
    """Prompt tokens llama-server has evaluated so far (its /metrics counter)."""
    for line in (await llama.get("/metrics")).text.splitlines():
        if line.startswith("llamacpp:prompt_tokens_total "):
            return int(float(line.split()[1]))
    return 0


async def drive(
    label: str, daemon: Daemon, server: Server, turns: int, rows: list[TurnRow], pause: float = 0
) -> None:
    """One session of ``turns`` turns, ``pause`` seconds between an answer and the next
    question; appends a row per turn to ``rows`` (and prints it), so an interrupted run keeps
    the turns it finished."""
    client = AsyncOpenAI(
        base_url=f"{daemon.url}/v1", api_key=daemon.token, max_retries=0, timeout=900
    )
    async with (
        client,
        httpx.AsyncClient(base_url=server.base_url, headers=server.headers, timeout=60) as llama,
    ):
        await client.chat.completions.create(
            model="agentd", messages=[{"role": "user", "content": "Hello. Reply in one sentence."}]
        )
        daemon.new_events(EVENTS)
        print(f"== {label} ({daemon.budget})", flush=True)
        before = await _server_evaluated(llama)
        for turn in range(1, turns + 1):
            if turn > 1:
                await anyio.sleep(pause)
            text = note(turn)
            tokenized = await llama.post("/tokenize", json={"content": text})
            row = TurnRow(label, turn, False, 0.0, len(tokenized.json()["tokens"]))
            started = time.perf_counter()
            try:
                reply = await client.chat.completions.create(
                    model="agentd",
                    messages=[{"role": "user", "content": text}],
                    extra_headers={"X-Session-Id": SESSION},
                )
            except Exception as exc:
                row.error = f"{type(exc).__name__}: {exc}"[:300]
            else:
                row.ok = True
                row.answer = (reply.choices[0].message.content or "")[:300]
                if reply.usage is not None:
                    details = reply.usage.prompt_tokens_details
                    row.prompt_tokens = reply.usage.prompt_tokens
                    row.completion_tokens = reply.usage.completion_tokens
                    row.cached_tokens = (details.cached_tokens or 0) if details else 0
            row.latency_s = time.perf_counter() - started
            after = await _server_evaluated(llama)
            row.server_evaluated, before = after - before, after
            row.events = " ".join(daemon.new_events(EVENTS))
            rows.append(row)
            print(
                f"  turn {turn:3d}: {row.latency_s:6.2f} s  prompt {row.prompt_tokens:5d}  "
                f"cached {row.cached_tokens:5d}  evaluated {row.evaluated:5d}  "
                f"new {row.new_tokens:4d}  {row.events}{row.error}",
                flush=True,
            )


def _mean(values: list[int]) -> str:
    return f"{sum(values) / len(values):,.0f}" if values else "-"


def _lat(rows: list[TurnRow]) -> str:
    values = [r.latency_s for r in rows]
    if not values:
        return "-"
    return f"{pct(values, 50):.1f} / {pct(values, 90):.1f}"


def summary(results: dict[str, list[TurnRow]]) -> str:
    header = (
        "config",
        "turns",
        "failed",
        f"eval <= {TARGET_RATIO}x new",
        f"first {WINDOW} p50/p90 s",
        f"last {WINDOW} p50/p90 s",
        "prompt",
        "cached",
        "evaluated",
        "new",
        "server eval",
        "trims",
        "summaries",
    )
    lines = []
    for label, rows in results.items():
        ok = [r for r in rows if r.ok]
        friendly = sum(r.cache_friendly for r in rows)
        events = " ".join(r.events for r in rows).split()
        lines.append(
            (
                label,
                len(rows),
                len(rows) - len(ok),
                f"{friendly}/{len(rows)} ({100 * friendly / max(len(rows), 1):.0f}%)",
                _lat(rows[:WINDOW]),
                _lat(rows[-WINDOW:]),
                _mean([r.prompt_tokens for r in ok]),
                _mean([r.cached_tokens for r in ok]),
                _mean([r.evaluated for r in ok]),
                _mean([r.new_tokens for r in rows]),
                _mean([r.server_evaluated for r in rows]),
                events.count("context.trimmed"),
                events.count("compaction.summarized"),
            )
        )
    return table(header, lines)


def misses(rows: list[TurnRow], limit: int = 12) -> str:
    """The turns that evaluated more than the target, one short line each."""
    bad = [r for r in rows if not r.cache_friendly]
    parts = [
        f"{r.turn} ({'failed' if not r.ok else f'{r.evaluated}/{r.new_tokens}'}"
        f"{', ' + r.events if r.events else ''})"
        for r in bad[:limit]
    ]
    more = f", +{len(bad) - limit} more" if len(bad) > limit else ""
    return ", ".join(parts) + more if parts else "none"


def write_csv(path: Path, results: dict[str, list[TurnRow]]) -> None:
    rows = [r for rows in results.values() for r in rows]
    names = [*TurnRow.__dataclass_fields__, "evaluated"]
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=names)
        writer.writeheader()
        for r in rows:
            writer.writerow({**asdict(r), "evaluated": r.evaluated})


def server_settings(args: argparse.Namespace, tmp: Path) -> Settings:
    """The sidecar settings of the user's config, with this benchmark's model server knobs."""
    base = load_settings().settings
    sc = base.llm.sidecar
    model = resolve_model_file(base.state_dir, sc.model, sc.model_path)
    sidecar = sc.model_copy(
        update={
            "model_path": model,
            "context": args.context,
            "max_answer_tokens": args.answer_tokens,
            "port": free_port(),
            "extra_args": ["--metrics"],
        }
    )
    return Settings(
        state_dir=tmp, llm=base.llm.model_copy(update={"seed": SEED, "sidecar": sidecar})
    )


async def run(
    args: argparse.Namespace, settings: Settings, tmp: Path, results: dict[str, list[TurnRow]]
) -> None:
    started = own_daemon if args.sidecar == "own" else external_daemon
    for name in args.config:
        label, defaults = CONFIGS[name]
        # A fresh llama-server per configuration: the memos (and so, at temperature 0, most
        # prompts) are the same in each, and one server's KV and prompt cache (--cache-ram)
        # would hand a configuration the prompts an earlier one left there.
        async with started(settings, tmp / name, defaults, args.answer_tokens) as (daemon, server):
            results[label] = []
            await drive(label, daemon, server, args.turns, results[label], args.pause)


async def main_async(
    args: argparse.Namespace, settings: Settings, tmp: Path, results: dict[str, list[TurnRow]]
) -> bool:
    """Run the benchmark; False when a signal stopped it (everything started is stopped)."""
    stop = SignalStop()

    async with anyio.create_task_group() as tg:
        tg.start_soon(stop.watch, tg.cancel_scope)
        await run(args, settings, tmp, results)
        tg.cancel_scope.cancel()
    return not stop.stopped


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument(
        "--config", action="append", choices=list(CONFIGS), help="repeatable; default: all"
    )
    parser.add_argument("--context", type=int, default=4096, help="llama-server -c")
    parser.add_argument("--answer-tokens", type=int, default=96, help="llama-server -n")
    parser.add_argument(
        "--pause",
        type=float,
        default=0.0,
        help="seconds between an answer and the next question (a user reading; default 0)",
    )
    parser.add_argument(
        "--sidecar",
        choices=["own", "external"],
        default="own",
        help="the daemon runs llama-server (default, as make run) or is pointed at one",
    )
    parser.add_argument("--csv", type=Path, help="write the per-turn rows here")
    parser.add_argument(
        "--keep", type=Path, help="keep the daemons' state and logs here (default: removed)"
    )
    args = parser.parse_args()
    args.config = args.config or list(CONFIGS)
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    results: dict[str, list[TurnRow]] = {}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir) if args.keep is None else args.keep
        tmp.mkdir(parents=True, exist_ok=True)
        try:
            settings = server_settings(args, tmp)
            complete = anyio.run(main_async, args, settings, tmp, results)
        except* (ModelError, SidecarError) as group:
            first = group.exceptions[0]
            sys.exit(f"long_session: {first} (`make model` fetches the model and llama-server)")
    minutes = (time.monotonic() - started) / 60
    print()
    print(
        f"long session: {args.turns} turns through the HTTP API, llama-server -c {args.context} "
        f"-n {args.answer_tokens} ({args.sidecar} sidecar, {args.pause:g} s between turns), "
        f"{minutes:.1f} min"
        f"{'' if complete else ' (INTERRUPTED)'}"
    )
    print("token columns: means per turn; server eval includes summary calls")
    print(summary(results))
    for label, rows in results.items():
        print(f"{label}: turns over {TARGET_RATIO}x (evaluated/new): {misses(rows)}")
    if args.csv is not None:
        write_csv(args.csv, results)
        print(f"per-turn rows: {args.csv}")
    if not complete:
        sys.exit(130)


if __name__ == "__main__":
    main()
