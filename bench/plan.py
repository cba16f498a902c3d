"""The turn's plan question alone, scored on the agentic suite's turns.

The plan question of :mod:`agentd.engine.guards.plan` sees the request and the turn's tools
alone, so, like :mod:`bench.intent`, it can be put to llama-server directly, turn by turn,
without a daemon. The engine asks it as the turn's intent question (a plan naming ``exec`` is
put to the intent question too); this asks both for every turn and prints, per half, kind and
language, how often the plan alone leads an action turn to what it needs and names no tool that
acts where the turn asks for none, and how often the plan the engine follows after the intent
word (:func:`decided`; a planned command about to run is put to the ``shown`` question too, and
its ``yes`` counts as the word ``answer``) does.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from agentd.config import Settings
from agentd.engine.guards import intent, plan, shown
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


def right(case: Case, say: Say, planned: Sequence[str], looking: frozenset[str] = LOOKING) -> bool:
    """Whether ``planned`` gives ``say`` what it needs (see the module docstring);
    ``looking``: the tools that change nothing in this turn."""
    acting = [t for t in planned if t not in looking]
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


@dataclass(frozen=True, slots=True)
class Tools:
    """The daemon's default tools (memory on), as a turn offers them: schemas, and which
    act and on what."""

    schemas: list[dict[str, Any]]
    acting: frozenset[str]
    kinds: dict[str, str]


async def _tools() -> Tools:
    from agentd.daemon.app import open_app

    with stub_server(0) as url, tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        (base / "workdir").mkdir()
        settings = Settings(
            workdir=base / "workdir", state_dir=base / "state", llm={"base_url": url}
        )
        async with open_app(settings) as app:
            tools = app.tools
            return Tools(list(tools.schemas()), tools.names - tools.looking, dict(tools.kinds))


#: (case, turn, intent word, plan, plan right, the engine's decision right).
Row = tuple[Case, Say, str, tuple[str, ...], bool, bool]


def decided(
    planned: tuple[str, ...], word: str, tools: Tools
) -> tuple[tuple[str, ...], frozenset[str]]:
    """The plan the engine follows, and the tools that change nothing in its turn: a plan
    with a command or tools of several kinds is put to the intent word
    (:func:`agentd.engine.guards.intent.confirmed`; a look-up's commands run read-only);
    any other is kept."""
    if not intent.doubtful_tools(planned, tools.acting, tools.kinds):
        return planned, LOOKING
    kept = intent.confirmed(planned, word, tools.acting, tools.kinds)
    if word != intent.LOOKUP:
        return kept, LOOKING
    return kept, LOOKING | intent.read_only_commands(kept, tools.kinds)


async def _written_out(client: LLMClient, text: str, planned: Sequence[str], word: str) -> bool:
    """Whether the ``shown`` question, which the engine asks when a planned command is about
    to run (the intent word an action or a look-up), finds it is only to be written out."""
    if "exec" not in planned or word not in (intent.ACTION, intent.LOOKUP):
        return False
    return await client.choose(shown.prompt(text), (shown.YES, shown.NO)) == shown.YES


async def probe(client: LLMClient, cases: Sequence[Case], tools: Tools, quiet: bool) -> list[Row]:
    names = sorted(str(s["function"]["name"]) for s in tools.schemas)
    rows: list[Row] = []
    for case in cases:
        for say in case.script(0).turns:
            word = await client.choose(intent.prompt(say.text), intent.OPTIONS) or "?"
            answer = await client.choose(
                plan.prompt(say.text, tools.schemas), (plan.NONE, *names), most=plan.MOST
            )
            planned = plan.parse(answer)
            if await _written_out(client, say.text, planned, word):
                word = intent.ANSWER  # the engine leaves the command unrun (shown.py)
            ok = right(case, say, planned)
            engine = right(case, say, *decided(planned, word, tools))
            rows.append((case, say, word, planned, ok, engine))
            if not engine and not quiet:
                listed = ", ".join(planned) or "none"
                print(f"  {case.name:24s} {case.kind:14s} {word:8s} [{listed}] {say.text[:60]!r}")
    return rows


def report(rows: Sequence[Row], split: dict[str, str]) -> str:
    counts: Counter[tuple[str, str, str]] = Counter()
    for case, say, word, _, ok, engine in rows:
        half = split.get(case.name, "?")
        acts = leads_to(word) == intent.ACTION
        for key in (case.language, case.kind, "all"):
            counts[(half, key, "n")] += 1
            counts[(half, key, "ok")] += int(ok)
            counts[(half, key, "both")] += int(ok and acts == (need(say) == ACT))
            counts[(half, key, "engine")] += int(engine)
    out = []
    keys = sorted({k for _, k, _ in counts})
    for half in HALVES:
        for key in keys:
            n = counts[(half, key, "n")]
            if n:
                hits, both = counts[(half, key, "ok")], counts[(half, key, "both")]
                followed = counts[(half, key, "engine")]
                out.append([half, key, f"{hits}/{n}", f"{both}/{n}", f"{followed}/{n}"])
    heads = ["half", "language or kind", "plan right", "plan and intent right", "engine right"]
    return table(heads, out)


async def main_async(args: argparse.Namespace) -> list[Row]:
    split = load_split()
    cases = select_half(CASES, split, args.half)
    tools = await _tools()
    async with question_client(args.model) as client:
        started = time.monotonic()
        rows = await probe(client, cases, tools, args.quiet)
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
        data = [[c.name, s.text, w, list(p), ok, e] for c, s, w, p, ok, e in rows]
        Path(args.json).write_text(json.dumps(data, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
