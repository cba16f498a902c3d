"""The turn's plan question alone, scored on the agentic suite's turns.

The plan question of :mod:`agentd.engine.guards.plan` sees the request and the turn's tools
alone, so, like :mod:`bench.intent`, it can be put to llama-server directly, turn by turn,
without a daemon. The engine asks it as the turn's intent question (a plan naming ``exec`` is
put to the intent question too); this asks both for every turn and prints, per half, kind and
language, how often the plan alone leads an action turn to what it needs and how often it
names a tool that acts where the turn asks for none.

A plan is right for an action turn when it names a tool the turn asks for (``asks``); for a
command turn it must name ``exec``; for a "redo" turn (a change, then the same read or command
again) a tool that changes something followed later by ``exec`` or ``read_file``. A turn that
asks for no action must plan no tool that acts. ``--half dev`` is the one to look at while
changing the question.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio

from agentd.config import Settings
from agentd.engine.guards import intent, plan
from agentd.model.client import LLMClient
from bench._agentic_cases import CASES, Case, Say
from bench._agentic_split import HALVES
from bench._agentic_split import load as load_split
from bench._agentic_split import select as select_half
from bench._common import stub_server, table
from bench.intent import ACT, leads_to, need, question_client

#: Tools that only look (as the daemon registers them).
LOOKING = frozenset(
    {"read_file", "list_dir", "current_time", "memory_search", "list_tasks", "web_fetch"}
)
#: After a change, what a redo turn runs again.
AGAIN = frozenset({"exec", "read_file"})


def right(case: Case, say: Say, planned: Sequence[str]) -> bool:
    """Whether ``planned`` gives ``say`` what it needs (see the module docstring)."""
    acting = [t for t in planned if t not in LOOKING]
    if need(say) != ACT:
        return not acting
    if not set(planned) & say.asks:
        return False
    if case.kind == "command":
        return "exec" in planned
    if case.kind == "redo":
        changed = next((i for i, t in enumerate(planned) if t in say.asks - AGAIN), None)
        return changed is not None and bool(set(planned[changed + 1 :]) & AGAIN)
    return True


async def _schemas() -> list[dict[str, Any]]:
    """The daemon's default tools (memory on), as a turn offers them."""
    from agentd.daemon.app import open_app

    with stub_server(0) as url, tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        (base / "workdir").mkdir()
        settings = Settings(
            workdir=base / "workdir", state_dir=base / "state", llm={"base_url": url}
        )
        async with open_app(settings) as app:
            return list(app.tools.schemas())


Row = tuple[Case, Say, str, tuple[str, ...], bool]


async def probe(
    client: LLMClient, cases: Sequence[Case], schemas: list[dict[str, Any]], quiet: bool
) -> list[Row]:
    names = sorted(str(s["function"]["name"]) for s in schemas)
    rows: list[Row] = []
    for case in cases:
        for say in case.script(0).turns:
            word = await client.choose(intent.prompt(say.text), intent.OPTIONS) or "?"
            answer = await client.choose(
                plan.prompt(say.text, schemas), (plan.NONE, *names), most=plan.MOST
            )
            planned = plan.parse(answer)
            ok = right(case, say, planned)
            rows.append((case, say, word, planned, ok))
            if not ok and not quiet:
                shown = ", ".join(planned) or "none"
                print(f"  {case.name:24s} {case.kind:14s} {word:8s} [{shown}] {say.text[:60]!r}")
    return rows


def report(rows: Sequence[Row], split: dict[str, str]) -> str:
    counts: Counter[tuple[str, str, str]] = Counter()
    for case, say, word, _, ok in rows:
        half = split.get(case.name, "?")
        acts = leads_to(word) == intent.ACTION
        for key in (case.language, case.kind, "all"):
            counts[(half, key, "n")] += 1
            counts[(half, key, "ok")] += int(ok)
            counts[(half, key, "both")] += int(ok and acts == (need(say) == ACT))
    out = []
    keys = sorted({k for _, k, _ in counts})
    for half in HALVES:
        for key in keys:
            n = counts[(half, key, "n")]
            if n:
                hits, both = counts[(half, key, "ok")], counts[(half, key, "both")]
                out.append([half, key, f"{hits}/{n}", f"{both}/{n}"])
    return table(["half", "language or kind", "plan right", "plan and intent right"], out)


async def main_async(args: argparse.Namespace) -> list[Row]:
    split = load_split()
    cases = select_half(CASES, split, args.half)
    schemas = await _schemas()
    async with question_client(args.model) as client:
        started = time.monotonic()
        rows = await probe(client, cases, schemas, args.quiet)
        seconds = time.monotonic() - started
    print(f"\nplan question, {args.model}, {len(rows)} turns, {seconds:.0f} s")
    print(report(rows, dict(split)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--half", choices=[*HALVES, "all"], default="dev")
    parser.add_argument("--quiet", action="store_true", help="print no turn it got wrong")
    parser.add_argument("--json", help="write every turn's intent word and plan here")
    args = parser.parse_args()
    rows = anyio.run(main_async, args)
    if args.json:
        data = [[c.name, s.text, w, list(p), ok] for c, s, w, p, ok in rows]
        Path(args.json).write_text(json.dumps(data, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
