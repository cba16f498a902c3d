"""The turn's intent question alone, scored on the agentic suite's turns.

Every user turn of ``bench/_agentic_cases`` declares what it asks for: an action (``asks``), a
look-up (a tool that only looks is needed) or a reply in words (``toolless``). The intent
question of :mod:`agentd.engine.guards.intent` sees the request alone, so it can be put to
llama-server directly, turn by turn, without a daemon: this prints how often its word agrees
with each turn's declaration, per half and language, in a few minutes instead of the full
suite's forty. ``--half dev`` is the one to look at while changing the question; the held-out
half says whether a change carries.

A turn counts as right when the word leads the turn to what it needs: an action turn must be
let act with a tool it asks for (``action``, or the kind of one of its ``asks``: ``remember`` for
``memory_save``); a turn needing no tool must not be given tools where the question can say so
(and a look-up turn must keep its tools that look).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import httpx

from agentd.config import load_settings
from agentd.engine.guards import intent
from agentd.model.client import LLMClient
from agentd.model.sidecar import open_sidecar
from agentd.tools import kinds
from bench._agentic_cases import CASES, Case, Say
from bench._agentic_split import HALVES
from bench._agentic_split import load as load_split
from bench._agentic_split import select as select_half
from bench._common import table
from bench.agentic import Options, model_spec, server_settings

#: What a turn declares it needs.
ACT, LOOK, REPLY = "act", "look", "reply"
#: The kinds of the acting tools the suite's turns ask for (as the daemon registers them).
TOOL_KINDS = {
    "write_file": kinds.FILE,
    "append_file": kinds.FILE,
    "edit_file": kinds.FILE,
    "memory_save": kinds.MEMORY,
    "schedule_task": kinds.SCHEDULE,
    "cancel_task": kinds.SCHEDULE,
    "exec": kinds.COMMAND,
}


def need(say: Say) -> str:
    """What ``say`` needs: an action, a look-up, or a reply in words."""
    if say.asks:
        return ACT
    return REPLY if say.toolless else LOOK


def leads_to(word: str) -> str:
    """What a turn is offered after the model's ``word``: tools that act (``action`` or a
    kind), the tools that look (``lookup``), or none (``answer``); no word leaves the tools as
    they are."""
    return word if word in (intent.LOOKUP, intent.ANSWER) else intent.ACTION


def right(needed: str, word: str, asks: frozenset[str] = frozenset()) -> bool:
    """Whether the intent question's ``word`` gives a turn that ``needed`` what it needs: a
    kind must be the kind of one of the tools the turn ``asks`` for."""
    kind = kinds.KIND_OF_WORD.get(word)
    if kind is not None and needed == ACT:
        return any(TOOL_KINDS.get(tool) == kind for tool in asks)
    return leads_to(word) in _FITTING[needed]


_FITTING = {
    ACT: {intent.ACTION},
    LOOK: {intent.LOOKUP},
    REPLY: {intent.ANSWER, intent.LOOKUP},
}


async def probe(
    client: LLMClient, cases: Sequence[Case], runs: int, *, quiet: bool = False
) -> list[tuple[Case, Say, str, bool]]:
    rows: list[tuple[Case, Say, str, bool]] = []
    for run in range(runs):
        for case in cases:
            for say in case.script(run).turns:
                word = await client.choose(intent.prompt(say.text), intent.OPTIONS) or "?"
                ok = right(need(say), word, say.asks)
                rows.append((case, say, word, ok))
                loose = need(say) == REPLY and word != intent.ANSWER
                if (loose or not ok) and not quiet:
                    print(f"  {case.name:22s} {need(say):5s} -> {word:8s} {say.text[:70]!r}")
    return rows


def report(rows: Sequence[tuple[Case, Say, str, bool]], split: dict[str, str]) -> str:
    counts: Counter[tuple[str, str, str]] = Counter()
    for case, say, word, ok in rows:
        for lang in (case.language, "all"):
            half = split.get(case.name, "?")
            counts[(half, lang, need(say) + ":n")] += 1
            counts[(half, lang, need(say) + ":ok")] += int(ok)
            counts[(half, lang, "bare")] += int(need(say) == REPLY and word == intent.ANSWER)
    out = []
    for half in HALVES:
        for lang in ("en", "de", "es", "fr", "ja", "all"):
            cells = []
            total = good = 0
            for kind in (ACT, LOOK, REPLY):
                n = counts[(half, lang, kind + ":n")]
                hits = counts[(half, lang, kind + ":ok")]
                total, good = total + n, good + hits
                cells.append(f"{hits}/{n}" if n else "-")
            if total:
                bare = f"{counts[(half, lang, 'bare')]}/{counts[(half, lang, REPLY + ':n')]}"
                out.append([half, lang, *cells, f"{good}/{total} ({100 * good // total}%)", bare])
    header = ["half", "language", "act", "look", "reply", "all", "reply offered no tool"]
    return table(header, out)


@asynccontextmanager
async def question_client(model: str) -> AsyncIterator[LLMClient]:
    """A client of llama-server serving the packaged ``model`` alone, held to grammars."""
    base = load_settings().settings
    spec = model_spec(model, base)
    options = Options(sidecar=base.llm.sidecar)
    with tempfile.TemporaryDirectory(prefix="agentd-question-") as tmp:
        settings = server_settings(spec, Path(tmp) / "server", options)
        async with (
            open_sidecar(settings) as server,
            httpx.AsyncClient(timeout=120) as http,
        ):
            yield LLMClient(
                http,
                base_url=server.base_url,
                api_key=server.api_key,
                model="local",
                tool_grammar="on",
            )


async def main_async(args: argparse.Namespace) -> None:
    split = load_split()
    cases = select_half(CASES, split, args.half)
    async with question_client(args.model) as client:
        started = time.monotonic()
        rows = await probe(client, cases, args.runs, quiet=args.quiet)
        seconds = time.monotonic() - started
    print(f"\nintent question, {args.model}, {len(rows)} turns, {seconds:.0f} s")
    print(report(rows, dict(split)))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--half", choices=[*HALVES, "all"], default="dev")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument(
        "--quiet", action="store_true", help="print no turn the question got wrong (held-out)"
    )
    anyio.run(main_async, parser.parse_args())


if __name__ == "__main__":
    main()
