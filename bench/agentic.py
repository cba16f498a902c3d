"""Agentic suite: short scripted conversations through agentd's HTTP API, scored by effects.

For each model it starts llama-server (agentd's sidecar helper: the packaged GGUF, the user's
sidecar settings) and, per run, a fresh ``agentd run`` against it (HTTP channel, the built-in
tools, long-term memory in Milvus Lite with the server's embeddings, agentd's default
temperature unless ``--temperature``), then plays the cases of ``bench/_agentic_cases.py``: 30
conversations of 1-5 user turns (43 in all), some opening with unrelated chat, a few streamed.
Between cases the workdir is emptied and the case's files are put in it; each case talks in
sessions of its own (``X-Session-Id``), and a recall case asks in a second, new session.

A case succeeds by its effect, never by its words: a file with the right content, a fact only
a tool could give (the weekday in Tokyo, checked with zoneinfo around the turn; a value from a
file; the names of the files), a memory saved and recalled in a new session; a question that
needs no tool, answered right without a tool call. The tool calls of each turn are read from
the daemon's history (``state/history.db``), and every turn is checked for

- a leaked call: the answer holds a tool call written as text;
- an empty answer: no letter or digit;
- a false claim: the answer says something was saved/written/created... while no tool that
  does things ran in that turn, or the case is an action whose effect is missing;
- repeated calls: the same tool with the same arguments run again in one turn, the first one
  not having failed (a repeat agentd answers with the earlier result instead of running it is
  counted apart, as "repeats stopped").

Commands run through ``exec`` in its sandbox (bubblewrap must be installed), and reminders go
to the tick log, as with ``make run``: the daemon offers every default tool.

Prints one Markdown table (a row per model), the effect per kind of case and the failed cases
with a one-line reason each; ``--out DIR`` keeps a JSON line per turn (answer, tool calls with
results, flags) in ``DIR/<model>.jsonl`` and each daemon's state and log under
``DIR/<model>/run<N>/`` (llama-server's log in ``DIR/<model>/server/``).

    python -m bench.agentic [--model NAME ...] [--runs N] [--case NAME ...]
                            [--temperature T] [--seed N] [--[no-]check-calls]
                            [--[no-]check-claims] [--route-tools auto|on|off] [--out DIR]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx

from agentd.config import LLMSettings, Settings, SidecarSettings, load_settings
from agentd.errors import ModelError, SidecarError
from agentd.model.packages import MODELS as PACKAGED
from agentd.model.packages import resolve_model_file
from agentd.model.sidecar import free_port, open_sidecar
from bench._agentic_cases import CASES, KINDS, Case, Check, Outcome, Say, TurnTrace
from bench._agentic_checks import (
    action_ran,
    claimed_action,
    is_empty,
    leaked_call,
    repeated_calls,
    stopped_repeats,
    turn_calls,
)
from bench._common import SignalStop
from bench._daemon import Daemon, agentd_daemon

MODELS = ("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b")
TOOL_NAMES = (
    "current_time",
    "read_file",
    "write_file",
    "append_file",
    "edit_file",
    "list_dir",
    "memory_save",
    "memory_search",
    "exec",
    "web_fetch",
    "schedule_task",
    "list_tasks",
    "cancel_task",
)
SESSION_PREFIX = "http:"  # how the HTTP channel names its sessions in the history
TURN_TIMEOUT = 900.0


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """A model to serve: its name (for the report), its GGUF and llama-server (None: agentd's)."""

    name: str
    gguf: Path
    binary: Path | None = None


@dataclass(frozen=True, slots=True)
class Options:
    runs: int = 1
    temperature: float | None = None
    seed: int | None = None
    sidecar: SidecarSettings = field(default_factory=SidecarSettings)
    check_calls: bool | None = None
    check_claims: bool | None = None
    route_tools: str | None = None
    #: More ``default.*`` settings for the daemon (``--default KEY=VALUE``).
    defaults: tuple[tuple[str, Any], ...] = ()


@dataclass(slots=True)
class TurnFlags:
    """The faults found in one turn."""

    leaked: str | None = None
    empty: bool = False
    claim: str | None = None
    false_claim: bool = False
    repeated: list[str] = field(default_factory=list)
    stopped: int = 0  # repeats the model asked for and agentd did not run again


@dataclass(slots=True)
class CaseResult:
    """One case played once: its turns, their faults and whether the effect is there."""

    model: str
    case: Case
    run: int
    turns: list[TurnTrace]
    flags: list[TurnFlags]
    reason: str | None  # why the effect is missing; None: it is there

    @property
    def effect(self) -> bool:
        return self.reason is None

    def seconds(self) -> list[float]:
        return [(t.ended - t.started).total_seconds() for t in self.turns]

    def problems(self) -> list[str]:
        """One short line per fault: the missing effect first, then each flagged turn."""
        out = [] if self.reason is None else [self.reason]
        for i, (turn, flags) in enumerate(zip(self.turns, self.flags, strict=True), 1):
            if turn.error:
                out.append(f"turn {i} failed: {turn.error[:120]}")
            if flags.leaked:
                out.append(f"turn {i} leaked a call ({flags.leaked}): {turn.answer[:120]!r}")
            if flags.empty:
                out.append(f"turn {i} answered nothing")
            if flags.false_claim:
                out.append(f"turn {i} claims {flags.claim!r}")
            if flags.repeated:
                out.append(f"turn {i} repeated {', '.join(flags.repeated)}")
        return out

    def rows(self) -> list[dict[str, Any]]:
        """A JSON-ready row per turn."""
        seconds = self.seconds()
        return [
            {
                "model": self.model,
                "run": self.run,
                "case": self.case.name,
                "kind": self.case.kind,
                "turn": i,
                "session": turn.say.session,
                "stream": turn.say.stream,
                "user": turn.say.text,
                "answer": turn.answer,
                "calls": [c.as_json() for c in turn.calls],
                "seconds": round(seconds[i - 1], 2),
                "error": turn.error,
                "leaked": flags.leaked,
                "empty": flags.empty,
                "claim": flags.claim,
                "false_claim": flags.false_claim,
                "repeated": flags.repeated,
                "effect": self.effect,
                "reason": self.reason,
            }
            for i, (turn, flags) in enumerate(zip(self.turns, self.flags, strict=True), 1)
        ]


def score(
    case: Case, check: Check, turns: list[TurnTrace], workdir: Path, state_dir: Path | None = None
) -> tuple[str | None, list[TurnFlags]]:
    """Why the case's effect is missing (None: it is there) and each turn's flags."""
    reason: str | None
    if any(t.error for t in turns):
        reason = "a turn failed"
    else:
        try:
            reason = check(Outcome(workdir, turns, state_dir))
        except Exception as exc:  # a broken check is the bench's bug: report it, go on
            reason = f"check failed: {type(exc).__name__}: {exc}"
    flags = []
    for turn in turns:
        f = TurnFlags(
            leaked=leaked_call(turn.answer, TOOL_NAMES),
            empty=not turn.error and is_empty(turn.answer),
            claim=claimed_action(turn.answer),
            repeated=[f"{c.name}({c.arguments})" for c in repeated_calls(turn.calls)],
            stopped=len(stopped_repeats(turn.calls)),
        )
        # An action case without its effect makes every claim false, even one backed by a
        # tool that ran (hello.py "created" after writing hello.txt).
        missing = case.kind == "action" and reason is not None
        f.false_claim = f.claim is not None and (missing or not action_ran(turn.calls))
        flags.append(f)
    return reason, flags


def _stored_after(db: Path, session: str, after: int) -> list[dict[str, Any]]:
    """The stored messages of ``session`` with an id above ``after``, decoded."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as conn:
        rows = conn.execute(
            "SELECT body FROM messages WHERE session_id = ? AND id > ? ORDER BY id",
            (SESSION_PREFIX + session, after),
        ).fetchall()
    return [json.loads(body) for (body,) in rows]


def _last_id(db: Path) -> int:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as conn:
        (last,) = conn.execute("SELECT COALESCE(MAX(id), 0) FROM messages").fetchone()
    return int(last)


async def ask(http: httpx.AsyncClient, session: str, say: Say) -> tuple[str, str]:
    """One user turn over the API: (answer, error); streamed when ``say.stream``."""
    body = {"model": "agentd", "messages": [{"role": "user", "content": say.text}]}
    headers = {"X-Session-Id": session}
    try:
        if not say.stream:
            response = await http.post("/v1/chat/completions", json=body, headers=headers)
            if response.status_code != 200:
                return "", f"HTTP {response.status_code}: {response.text[:200]}"
            return response.json()["choices"][0]["message"]["content"] or "", ""
        parts: list[str] = []
        async with http.stream(
            "POST", "/v1/chat/completions", json={**body, "stream": True}, headers=headers
        ) as response:
            if response.status_code != 200:
                text = (await response.aread()).decode(errors="replace")
                return "", f"HTTP {response.status_code}: {text[:200]}"
            async for line in response.aiter_lines():
                if not line.startswith("data: ") or line == "data: [DONE]":
                    continue
                chunk = json.loads(line[6:])
                if "error" in chunk:
                    return "".join(parts), f"stream error: {chunk['error'].get('message')}"
                parts.extend(c.get("delta", {}).get("content") or "" for c in chunk["choices"])
        return "".join(parts), ""
    except httpx.HTTPError as exc:
        return "", f"{type(exc).__name__}: {exc}"


def _reset_workdir(workdir: Path, files: dict[str, str]) -> None:
    for entry in workdir.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    for name, content in files.items():
        target = workdir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)


async def play(
    http: httpx.AsyncClient, daemon: Daemon, model: str, case: Case, run: int
) -> CaseResult:
    """Play ``case`` once on a fresh workdir and score it."""
    script = case.script(run)
    _reset_workdir(daemon.workdir, dict(script.files))
    turns: list[TurnTrace] = []
    for say in script.turns:
        session = f"{case.name}.{run}.{say.session}"
        before = await anyio.to_thread.run_sync(_last_id, daemon.history_path)
        started = dt.datetime.now(dt.UTC)
        answer, error = await ask(http, session, say)
        ended = dt.datetime.now(dt.UTC)
        stored = await anyio.to_thread.run_sync(_stored_after, daemon.history_path, session, before)
        turns.append(TurnTrace(say, answer, turn_calls(stored), started, ended, error))
    reason, flags = score(case, script.check, turns, daemon.workdir, daemon.state_dir)
    return CaseResult(model, case, run, turns, flags, reason)


def server_settings(spec: ModelSpec, state_dir: Path, options: Options) -> Settings:
    """llama-server as agentd's sidecar runs it, serving ``spec`` on a free port."""
    sidecar = options.sidecar.model_copy(
        update={
            "enabled": True,
            "model_path": spec.gguf,
            "binary": spec.binary or options.sidecar.binary,
            "port": free_port(),
        }
    )
    return Settings(state_dir=state_dir, llm=LLMSettings(seed=options.seed, sidecar=sidecar))


def daemon_config(options: Options, model: str = "") -> dict[str, Any]:
    """The daemon's settings: agentd's defaults (cron on, so the task tools are offered, as with
    ``make run``; no jobs), memory on, JSON logs. The daemon reaches the server by URL, so
    ``route_tools: auto`` cannot tell which packaged ``model`` it serves: for one that is not
    routed (the 0.5B) routing is set off, as ``make run MODEL=...`` runs it."""
    llm: dict[str, Any] = {}
    if options.temperature is not None:
        llm["temperature"] = options.temperature
    if options.seed is not None:
        llm["seed"] = options.seed
    config: dict[str, Any] = {
        "llm": llm,
        "memory": {"embed": True},
        "log": {"level": "info", "format": "json"},
    }
    defaults: dict[str, Any] = {}
    if options.sidecar.max_answer_tokens >= 16:
        # The budget reserves what llama-server's -n allows, as with the sidecar.
        defaults["answer_tokens"] = options.sidecar.max_answer_tokens
    if options.check_calls is not None:
        defaults["check_calls"] = options.check_calls
    if options.check_claims is not None:
        defaults["check_claims"] = options.check_claims
    if options.route_tools is not None:
        defaults["route_tools"] = options.route_tools
    elif model in PACKAGED and not PACKAGED[model].routes:
        defaults["route_tools"] = "off"
    defaults.update(options.defaults)
    if defaults:
        config["default"] = defaults
    return config


async def play_all(
    llama_url: str,
    cases: Sequence[Case],
    options: Options,
    tmp: Path,
    on_case: Callable[[CaseResult], None] | None = None,
    *,
    model: str = "",
) -> list[CaseResult]:
    """Play ``cases`` ``options.runs`` times against the model server at ``llama_url``.

    Each run has a daemon of its own (``tmp/run<N>``): a memory saved in one run cannot answer
    the next one, whose facts differ.
    """
    results: list[CaseResult] = []
    for run in range(options.runs):
        daemon_dir = tmp / f"run{run + 1}"
        async with (
            agentd_daemon(llama_url, daemon_dir, daemon_config(options, model)) as daemon,
            httpx.AsyncClient(
                base_url=daemon.url, headers=daemon.headers, timeout=TURN_TIMEOUT
            ) as http,
        ):
            ready = (await http.get("/readyz")).json()
            memory = ready.get("checks", {}).get("memory")
            if memory != "ok":
                print(f"  ! long-term memory is {memory}: recall cases cannot succeed")
            for case in cases:
                result = await play(http, daemon, model, case, run)
                results.append(result)
                if on_case is not None:
                    on_case(result)
    return results


async def bench_model(
    spec: ModelSpec,
    cases: Sequence[Case],
    options: Options,
    tmp: Path,
    on_case: Callable[[CaseResult], None] | None = None,
) -> list[CaseResult]:
    """Serve ``spec`` with llama-server and :func:`play_all` on it."""
    async with open_sidecar(server_settings(spec, tmp / "server", options)) as server:
        return await play_all(server.base_url, cases, options, tmp, on_case, model=spec.name)


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "-"


def markdown(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table, the first column left-aligned and the others right-aligned."""
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join([":---", *["---:"] * (len(header) - 1)]) + "|")
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def summary(results: dict[str, list[CaseResult]]) -> str:
    """The table of the report: one row per model."""
    header = (
        "model",
        "cases",
        "effect",
        "false claims",
        "leaked calls",
        "empty answers",
        "repeated calls",
        "repeats stopped",
        "failed turns",
        "s/turn",
    )
    rows = []
    for model, done in results.items():
        flags = [f for r in done for f in r.flags]
        turns = [t for r in done for t in r.turns]
        seconds = [s for r in done for s in r.seconds()]
        rows.append(
            (
                model,
                len(done),
                _pct(sum(r.effect for r in done), len(done)),
                _pct(sum(f.false_claim for f in flags), len(flags)),
                _pct(sum(f.leaked is not None for f in flags), len(flags)),
                _pct(sum(f.empty for f in flags), len(flags)),
                sum(len(f.repeated) for f in flags),
                sum(f.stopped for f in flags),
                sum(bool(t.error) for t in turns),
                f"{sum(seconds) / len(seconds):.1f}" if seconds else "-",
            )
        )
    return markdown(header, rows)


def by_kind(results: dict[str, list[CaseResult]]) -> str:
    """The effect rate per kind of case and model."""
    rows = []
    for model, done in results.items():
        cells: list[object] = [model]
        for kind in KINDS:
            of_kind = [r for r in done if r.case.kind == kind]
            cells.append(_pct(sum(r.effect for r in of_kind), len(of_kind)))
        rows.append(cells)
    return markdown(("model", *KINDS), rows)


def failures(results: dict[str, list[CaseResult]]) -> list[str]:
    """One line per case with a missing effect or a flagged turn."""
    lines = []
    for model, done in results.items():
        for r in done:
            problems = r.problems()
            if problems:
                run = f" (run {r.run + 1})" if any(x.run for x in done) else ""
                lines.append(f"- {model} {r.case.name}{run}: {'; '.join(problems)}")
    return lines


def progress(result: CaseResult) -> None:
    seconds = result.seconds()
    problems = result.problems()
    status = "ok" if not problems else ("FLAGGED" if result.effect else "FAILED")
    line = f"  {result.case.name:20s} {status:8s} {sum(seconds) / max(len(seconds), 1):5.1f} s/turn"
    print(line + (f"  {problems[0][:150]}" if problems else ""), flush=True)


def model_spec(name: str, base: Settings) -> ModelSpec:
    """The packaged model ``name`` from the user's state dir (ModelError when absent)."""
    return ModelSpec(name, resolve_model_file(base.state_dir, name, None))


async def main_async(
    args: argparse.Namespace, base: Settings, root: Path, results: dict[str, list[CaseResult]]
) -> bool:
    """Play the suite for each model; False when a signal stopped it (all started is stopped)."""
    cases = [c for c in CASES if not args.case or c.name in args.case]
    options = Options(
        args.runs,
        args.temperature,
        args.seed,
        base.llm.sidecar,
        args.check_calls,
        args.check_claims,
        args.route_tools,
        tuple(args.default or ()),
    )
    stop = SignalStop()

    async with anyio.create_task_group() as tg:
        tg.start_soon(stop.watch, tg.cancel_scope)
        for name in args.model:
            spec = model_spec(name, base)
            print(f"== {name}: {len(cases)} cases x {args.runs} run(s)", flush=True)
            sink = None if args.out is None else (args.out / f"{name}.jsonl").open("w")
            done = results.setdefault(name, [])

            def record(result: CaseResult, sink: Any = sink, done: list[CaseResult] = done) -> None:
                done.append(result)
                progress(result)
                if sink is not None:
                    for row in result.rows():
                        sink.write(json.dumps(row, ensure_ascii=False) + "\n")
                    sink.flush()

            try:
                await bench_model(spec, cases, options, root / name, record)
            finally:
                if sink is not None:
                    sink.close()
        tg.cancel_scope.cancel()
    return not stop.stopped


def default_setting(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` (VALUE as JSON, else a string) as a ``default.*`` setting."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key.strip(), json.loads(value)
    except ValueError:
        return key.strip(), value


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--model", action="append", help=f"packaged model, repeatable; default: {', '.join(MODELS)}"
    )
    parser.add_argument("--runs", type=int, default=1, help="play each case N times")
    parser.add_argument(
        "--case", action="append", choices=[c.name for c in CASES], help="repeatable; default: all"
    )
    parser.add_argument(
        "--temperature", type=float, help="llm.temperature; default: agentd's (the server's own)"
    )
    parser.add_argument("--seed", type=int, help="llm.seed; default: agentd's (none)")
    parser.add_argument(
        "--check-calls",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="default.check_calls for the daemon; default: agentd's",
    )
    parser.add_argument(
        "--check-claims",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="default.check_claims for the daemon; default: agentd's",
    )
    parser.add_argument(
        "--route-tools",
        choices=("auto", "on", "off"),
        help="default.route_tools for the daemon; default: agentd's",
    )
    parser.add_argument(
        "--default",
        action="append",
        type=default_setting,
        metavar="KEY=VALUE",
        help="another default.KEY for the daemon, VALUE as JSON (e.g. read_first=false)",
    )
    parser.add_argument("--out", type=Path, help="write per-turn JSON lines and keep state here")
    args = parser.parse_args()
    args.model = args.model or list(MODELS)
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    base = load_settings().settings
    results: dict[str, list[CaseResult]] = {}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmpdir:
        root = Path(tmpdir) if args.out is None else args.out
        root.mkdir(parents=True, exist_ok=True)
        try:
            complete = anyio.run(main_async, args, base, root, results)
        except* (ModelError, SidecarError) as group:
            first = group.exceptions[0]
            sys.exit(f"agentic: {first} (`make model` fetches the model and llama-server)")
    minutes = (time.monotonic() - started) / 60
    temperature = "server default" if args.temperature is None else args.temperature
    print()
    print(
        f"agentic suite: {args.runs} run(s) through the HTTP API, temperature {temperature}, "
        f"{minutes:.1f} min{'' if complete else ' (INTERRUPTED)'}"
    )
    print("effect: cases whose effect is there; flags: share of turns")
    print()
    print(summary(results))
    print()
    print("effect by kind of case")
    print()
    print(by_kind(results))
    lines = failures(results)
    print()
    print("failed or flagged cases:" if lines else "no failed or flagged case")
    for line in lines:
        print(line)
    if args.out is not None:
        print(f"per-turn rows: {args.out}/<model>.jsonl")
    if not complete:
        sys.exit(130)


if __name__ == "__main__":
    main()
