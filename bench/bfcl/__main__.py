"""Run the BFCL benchmark: ``python -m bench.bfcl`` (``make bench-bfcl``); ``--help`` lists
the flags. See the package docstring for what it measures."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import anyio

from agentd.daemon.logging import configure
from agentd.errors import ModelError, SidecarError
from agentd.model.packages import MODELS
from bench._common import SignalStop
from bench.bfcl import __doc__ as DOC
from bench.bfcl.data import CATEGORIES, DEFAULT_WHEEL, WheelMissing, load_items
from bench.bfcl.report import append_jsonl, render, write_csv
from bench.bfcl.runner import (
    DEFAULT_MODES,
    MAX_TOKENS,
    MODES,
    Result,
    bench_model,
    bench_settings,
    reported_modes,
)

#: Items per category by default: the full run (2 models x 2 modes x 6 categories) fits in
#: about 30 minutes on 2 cores (see the package docstring for the measured time per item).
PER_CATEGORY = 8
SEED = 42


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bfcl",
        description=DOC,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--per-category",
        type=int,
        default=PER_CATEGORY,
        metavar="N",
        help=f"items per category, a seeded subset (default {PER_CATEGORY}; 0: all)",
    )
    parser.add_argument("--seed", type=int, default=SEED, help="subset and sampling seed")
    parser.add_argument(
        "--model",
        action="append",
        choices=sorted(MODELS),
        help="repeatable; default: every packaged model",
    )
    parser.add_argument(
        "--category", action="append", choices=CATEGORIES, help="repeatable; default: all six"
    )
    parser.add_argument(
        "--mode",
        action="append",
        choices=MODES,
        help=f"repeatable; default: {' and '.join(DEFAULT_MODES)} (direct is also read leniently)",
    )
    parser.add_argument("--out", type=Path, help="per-item results (default: /tmp/bfcl-<time>)")
    parser.add_argument(
        "--wheel",
        type=Path,
        default=DEFAULT_WHEEL,
        help="the bfcl-eval wheel (default: the one `make bench-data` fetches)",
    )
    return parser


def _progress(result: Result) -> None:
    mark = "+" if result.correct else "-"
    bad = sum(p is not None for p in result.problems)
    shown = [(c["name"], c["arguments"]) for c in result.calls] or result.content[:60]
    flags = f" invalid={bad}" if bad else ""
    flags += " text-call" if result.left_as_text else ""
    flags += f" FAILED {result.failure[:80]}" if result.failure else ""
    line = f"  {mark} {result.mode:<14} {result.id:<24} {result.seconds:5.1f}s{flags} {shown!r}"
    print(line[:200], flush=True)


async def _run(
    args: argparse.Namespace, out: Path, results: list[Result], loads: dict[str, float]
) -> bool:
    """Run every model in turn; False when a signal stopped the run (its servers stopped)."""
    items = load_items(args.wheel, args.category, args.per_category, args.seed)
    stop = SignalStop()

    def record(result: Result) -> None:
        _progress(result)
        results.append(result)
        append_jsonl(out / "results.jsonl", result)

    async with anyio.create_task_group() as tg:
        tg.start_soon(stop.watch, tg.cancel_scope)
        for model in args.model:
            print(f"{model}: {len(items)} items x {len(args.mode)} modes", flush=True)
            settings = bench_settings(model, out / f"state-{model}", args.seed)
            loads[model], _ = await bench_model(
                settings, items, args.mode, label=model, on_result=record
            )
        tg.cancel_scope.cancel()
    return not stop.stopped


def main() -> None:
    args = _parser().parse_args()
    args.model = args.model or sorted(MODELS, reverse=True)
    args.category = args.category or list(CATEGORIES)
    args.mode = args.mode or list(DEFAULT_MODES)
    out = args.out or Path(f"/tmp/bfcl-{time.strftime('%Y%m%d-%H%M%S')}")
    out.mkdir(parents=True, exist_ok=True)
    configure(level="warning", fmt="console", secrets=())
    results: list[Result] = []
    loads: dict[str, float] = {}
    started = time.monotonic()
    try:
        complete = anyio.run(_run, args, out, results, loads)
    except* WheelMissing as group:
        sys.exit(f"bfcl: {group.exceptions[0]}")
    except* (ModelError, SidecarError) as group:  # they say how to fetch what is missing
        sys.exit(f"bfcl: {group.exceptions[0]}")
    minutes = (time.monotonic() - started) / 60
    report = render(results, args.model, args.category, reported_modes(args.mode), loads)
    write_csv(out / "results.csv", results)
    (out / "summary.md").write_text(report + "\n", encoding="utf-8")
    print()
    print(
        f"BFCL v4 (bfcl-eval data), {args.per_category or 'all'} items per category, seed "
        f"{args.seed}, answers capped at {MAX_TOKENS} tokens; {minutes:.1f} min in all"
        + ("" if complete else " (INTERRUPTED: the tables hold what was done)")
    )
    print()
    print(report)
    print(f"per-item results: {out}/results.jsonl, {out}/results.csv, {out}/summary.md")
    if not complete:
        sys.exit(130)


if __name__ == "__main__":
    main()
