"""Agentic suite: short scripted conversations through agentd's HTTP API, scored by effects.

For each model and run it starts a fresh ``agentd run`` that serves the packaged GGUF with its
own sidecar, as ``make run`` does (the user's sidecar settings: pinned session slots, the
questions' slot, warm start, waited for before the first case; HTTP channel, the built-in
tools, long-term memory in Milvus Lite with the user's fetched embedding model as ``make run``
serves it (the chat model's embeddings when none is fetched), agentd's default
temperature unless ``--temperature``), then plays the cases of ``bench/_agentic_cases/``:
conversations of 1-5 user turns in English, German, Spanish, French and Japanese, some opening
with unrelated chat, a few streamed, among them near misses (an edit worded like an append, a
question opening like an order, "show me, do not do it"...). Between cases the workdir is
emptied and the case's files are put in it; each case talks in sessions of its own
(``X-Session-Id``), and a recall case asks in a second, new session. The cases are split once
into a dev and a held-out half, and the cases written later for judging alone into halves of
their own, held-out-2, held-out-3, held-out-4, held-out-5, held-out-6, held-out-7, held-out-8,
held-out-9, held-out-10, held-out-11, held-out-12, held-out-13, held-out-14, held-out-15,
held-out-16, held-out-17, held-out-18, held-out-19, held-out-20, held-out-21, held-out-22,
held-out-23, held-out-24, held-out-25, held-out-26, held-out-27, held-out-28, held-out-29,
held-out-30, held-out-31, held-out-32, held-out-33 and held-out-34 (``bench/agentic_split.json``,
see ``bench/_agentic_split.py``): tune on dev, judge on the others; ``--half`` plays one of them.

A case succeeds by its effect, never by its words: a file with the right content, a fact only
a tool could give (the weekday in Tokyo, checked with zoneinfo around the turn; a value from a
file; the names of the files), a memory saved and recalled in a new session; a question that
needs no tool, answered right without a tool call. The tool calls of each turn are read from
the daemon's history (``state/history.db``). Every turn declares which acting tools its request
asks for, whether it needs a tool at all and the fewest model requests it needs, and is checked
for

- tools on a turn that needs none: any tool call in it;
- unasked acting calls: an acting tool (anything but the tools that only look) that ran though
  the request did not ask for it;
- a leaked call: the answer holds a tool call written as text;
- an empty answer: no letter or digit;
- a false claim, on a turn that asks for an action: the answer says something was done (in any
  language of the suite) while none of the asked tools ran, or the case's effect is missing;
- repeated calls: the same tool with the same arguments run again in one turn, the first one
  not having failed and no other call having changed anything in between (a count again after
  an append is a new look; a repeat agentd answers with the earlier result instead of running it is
  counted apart, as "repeats stopped");
- an answer in another language: the answer's own words (quotes and commands left out) are
  in a language other than the case's, when there are enough of them to tell
  (``bench/_agentic_language.py``).

The model requests of each turn are the daemon's ``agentd_model_requests_total`` (``GET
/metrics``) read before and after the turn, by kind (steps, the plan and intent questions,
re-asks...), shown next to the declared minimum (``n/a`` when the daemon does not count them);
a table gives each kind's mean per turn and the share of turns at most one over their minimum.

Commands run through ``exec`` in its sandbox (bubblewrap must be installed), and reminders go
to the tick log, as with ``make run``: the daemon offers every default tool.

Prints one Markdown table (a row per model), a table per model by half and language, the
effect per kind of case and the failed cases with a one-line reason each; ``--out DIR`` keeps
a JSON line per turn (answer, tool calls with results, flags, requests) in
``DIR/<model>.jsonl`` and each daemon's state and log under ``DIR/<model>/run<N>/``
(llama-server's log in ``DIR/<model>/server/``).

    python -m bench.agentic [--model NAME ...] [--runs N] [--case NAME ...]
                            [--half dev|held-out|held-out-2|held-out-3|held-out-4|held-out-5
                                    |held-out-6|held-out-7|held-out-8|held-out-9
                                    |held-out-10|held-out-11|held-out-12|held-out-13
                                    |held-out-14|held-out-15|held-out-16|held-out-17
                                    |held-out-18|held-out-19|held-out-20|held-out-21
                                    |held-out-22|held-out-23|held-out-24|held-out-25
                                    |held-out-26|held-out-27|held-out-28|held-out-29
                                    |held-out-30|held-out-31|held-out-32|held-out-33
                                    |held-out-34|all]
                            [--language LANG ...]
                            [--temperature T] [--seed N] [--default KEY=VALUE ...]
                            [--out DIR]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from contextlib import closing, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx

from agentd.config import LLMSettings, Settings, SidecarSettings, load_settings
from agentd.errors import ModelError, SidecarError
from agentd.model.packages import MODELS as PACKAGED
from agentd.model.packages import resolve_model_file
from agentd.model.sidecar import free_port
from bench._agentic_cases import CASES, LANGUAGES, Case, Say, TurnTrace
from bench._agentic_checks import turn_calls
from bench._agentic_report import (
    by_half_and_language,
    by_kind,
    failures,
    requests_by_kind,
    summary,
)
from bench._agentic_score import CaseResult, score
from bench._agentic_split import HALVES
from bench._agentic_split import load as load_split
from bench._agentic_split import select as select_half
from bench._common import SignalStop
from bench._daemon import Daemon, agentd_daemon
from bench.first_turn import warmed

MODELS = ("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b")
SESSION_PREFIX = "http:"  # how the HTTP channel names its sessions in the history
TURN_TIMEOUT = 900.0
#: The model server URL a daemon with its own sidecar is given (never reached: the sidecar's wins).
UNUSED_URL = "http://127.0.0.1:9"


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
    #: More ``default.*`` settings for the daemon (``--default KEY=VALUE``).
    defaults: tuple[tuple[str, Any], ...] = ()
    #: The user's fetched models (``state_dir/models``): each run's daemon finds its embedding
    #: model there, as the daemon of ``make run`` does (None: memory embeds with the chat model).
    models: Path | None = None


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


MODEL_REQUESTS = "agentd_model_requests_total"


def counter_by_label(exposition: str, name: str) -> dict[str, float] | None:
    """Counter ``name`` of a Prometheus text exposition by its labels (``kind="step"`` ->
    ``step``; a sample without labels: ``""``): empty when it is declared without samples yet
    (a labelled counter before its first count), None when the daemon does not have it."""
    family = name.removesuffix("_total")
    declared = (f"# TYPE {family} ", f"# TYPE {name} ")
    counts: dict[str, float] = {}
    seen = False
    for line in exposition.splitlines():
        if line.startswith(declared):
            seen = True
        if not line.startswith(name):
            continue
        rest = line[len(name) :]
        if rest[:1] not in ("{", " "):
            continue  # another metric whose name starts with this one
        labels, _, value = rest.rpartition(" ")
        try:
            count = float(value)
        except ValueError:
            continue
        label = ",".join(v for v in re.findall(r'="([^"]*)"', labels))
        counts[label] = counts.get(label, 0.0) + count
        seen = True
    return counts if seen else None


def counter_total(exposition: str, name: str) -> float | None:
    """The sum over labels of counter ``name`` (:func:`counter_by_label`): 0 when it is
    declared without samples yet, None when the daemon does not have it."""
    counts = counter_by_label(exposition, name)
    return None if counts is None else sum(counts.values())


async def model_requests(http: httpx.AsyncClient) -> dict[str, float] | None:
    """The daemon's model requests so far by kind (step, plan, intent, ...), from
    ``GET /metrics`` (None: not counted there)."""
    try:
        response = await http.get("/metrics")
    except httpx.HTTPError:
        return None
    if response.status_code != 200:
        return None
    return counter_by_label(response.text, MODEL_REQUESTS)


def requests_between(
    before: dict[str, float] | None, after: dict[str, float] | None
) -> dict[str, int] | None:
    """The requests of each kind counted between ``before`` and ``after`` (kinds with none
    left out; None: not counted)."""
    if before is None or after is None:
        return None
    spent = {kind: round(n - before.get(kind, 0.0)) for kind, n in after.items()}
    return {kind: n for kind, n in sorted(spent.items()) if n}


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
        requests_before = await model_requests(http)
        started = dt.datetime.now(dt.UTC)
        answer, error = await ask(http, session, say)
        ended = dt.datetime.now(dt.UTC)
        requests_after = await model_requests(http)
        stored = await anyio.to_thread.run_sync(_stored_after, daemon.history_path, session, before)
        kinds = requests_between(requests_before, requests_after)
        requests = None if kinds is None else sum(kinds.values())
        trace = TurnTrace(say, answer, turn_calls(stored), started, ended, error, requests)
        trace.request_kinds = kinds or {}
        turns.append(trace)
    reason, flags = score(script.check, turns, daemon.workdir, daemon.state_dir, case.language)
    return CaseResult(model, case, run, turns, flags, reason)


def server_settings(spec: ModelSpec, state_dir: Path, options: Options) -> Settings:
    """llama-server as agentd's sidecar runs it, serving ``spec`` on a free port."""
    sidecar = _serving(spec, options, free_port())
    return Settings(state_dir=state_dir, llm=LLMSettings(seed=options.seed, sidecar=sidecar))


def _serving(spec: ModelSpec, options: Options, port: int) -> SidecarSettings:
    """The user's sidecar settings, serving ``spec`` on ``port`` (0: a free one)."""
    binary = spec.binary or options.sidecar.binary
    update = {"enabled": True, "model_path": spec.gguf, "binary": binary, "port": port}
    return options.sidecar.model_copy(update=update)


def daemon_config(
    options: Options, model: str = "", spec: ModelSpec | None = None
) -> dict[str, Any]:
    """The daemon's settings: agentd's defaults (cron on, so the task tools are offered, as with
    ``make run``; no jobs), memory on, JSON logs; with ``spec``, its own sidecar serving it
    (:func:`sidecar_config`), else it reaches a server by URL. Either way ``guards.route: auto``
    cannot tell which packaged ``model`` it serves (a GGUF by path, or a URL): for one that is
    not routed (the 0.5B) routing is set off, as ``make run MODEL=...`` runs it."""
    llm: dict[str, Any] = {} if spec is None else {"sidecar": sidecar_config(spec, options)}
    if options.temperature is not None:
        llm["temperature"] = options.temperature
    if options.seed is not None:
        llm["seed"] = options.seed
    config: dict[str, Any] = {
        "llm": llm,
        "memory": {"embed": True},
        "log": {"level": "info", "format": "json"},
        # One tenant plays every case: a run of many reminder cases (--case) would meet the
        # limit of 20 open tasks and have the 21st refused.
        "cron": {"tasks": {"max_per_tenant": 0}},
    }
    defaults: dict[str, Any] = {}
    if options.sidecar.max_answer_tokens >= 16:
        # The budget reserves what llama-server's -n allows, as with the sidecar.
        defaults["answer_tokens"] = options.sidecar.max_answer_tokens
    if model in PACKAGED and not PACKAGED[model].routes:
        defaults["guards"] = {"route": "off"}
    for key, value in options.defaults:
        _nest(defaults, key, value)
    if defaults:
        config["default"] = defaults
    return config


def sidecar_config(spec: ModelSpec, options: Options) -> dict[str, Any]:
    """``llm.sidecar`` for a daemon that serves ``spec`` itself with the user's sidecar
    settings (slots, threads, context, temperature), on a free port."""
    return _serving(spec, options, 0).model_dump(mode="json", exclude_none=True)


def _nest(into: dict[str, Any], key: str, value: Any) -> None:
    """Set dotted ``key`` (``guards.route``) in ``into`` as nested tables."""
    *parents, last = key.split(".")
    for part in parents:
        into = into.setdefault(part, {})
    into[last] = value


async def play_all(
    llama_url: str,
    cases: Sequence[Case],
    options: Options,
    tmp: Path,
    on_case: Callable[[CaseResult], None] | None = None,
    *,
    model: str = "",
    spec: ModelSpec | None = None,
) -> list[CaseResult]:
    """Play ``cases`` ``options.runs`` times against the model server at ``llama_url``, or
    with ``spec``, served by each daemon's own sidecar (its warm-up waited for first).

    Each run has a daemon of its own (``tmp/run<N>``): a memory saved in one run cannot answer
    the next one, whose facts differ.
    """
    results: list[CaseResult] = []
    config = daemon_config(options, model, spec)
    for run in range(options.runs):
        daemon_dir = tmp / f"run{run + 1}"
        share_models(options.models, daemon_dir / "state")
        async with (
            agentd_daemon(llama_url, daemon_dir, config) as daemon,
            httpx.AsyncClient(
                base_url=daemon.url, headers=daemon.headers, timeout=TURN_TIMEOUT
            ) as http,
        ):
            if spec is not None:
                print(f"  warm-up: {await warmed(http, daemon):.1f} s", flush=True)
            ready = (await http.get("/readyz")).json()
            memory = ready.get("checks", {}).get("memory")
            if memory != "ok":
                print(f"  ! long-term memory is {memory}: recall cases cannot succeed")
            print(f"  memory embeds with {embedder(daemon.log_path)}", flush=True)
            if (missing := sandbox_missing()) is not None:
                print(missing, flush=True)
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
    """:func:`play_all` with each run's daemon serving ``spec`` itself, as ``make run``'s does
    (the URL the daemon is given is never used: its sidecar's wins)."""
    return await play_all(UNUSED_URL, cases, options, tmp, on_case, model=spec.name, spec=spec)


def progress(result: CaseResult) -> None:
    seconds = result.seconds()
    problems = result.problems()
    status = "ok" if not problems else ("FLAGGED" if result.effect else "FAILED")
    line = f"  {result.case.name:20s} {status:8s} {sum(seconds) / max(len(seconds), 1):5.1f} s/turn"
    print(line + (f"  {problems[0][:150]}" if problems else ""), flush=True)


def sandbox_missing() -> str | None:
    """A warning when bubblewrap is not installed: ``exec`` then refuses every command, and
    command cases cannot succeed (a new machine's ``make model`` does not install it)."""
    if shutil.which("bwrap") is None:
        return "  ! bubblewrap is not installed: exec refuses every command (make bwrap)"
    return None


def embedder(log_path: Path) -> str:
    """The embedding model the daemon's memory serves, from its log ("the chat model" when it
    started none)."""
    for line in log_path.read_text(encoding="utf-8", errors="replace").splitlines():
        if '"memory.embedder_ready"' in line:
            with suppress(ValueError):
                return str(json.loads(line).get("model") or "?")
    return "the chat model"


def share_models(models: Path | None, state_dir: Path) -> None:
    """Link ``models`` (the user's fetched models) into a daemon's ``state_dir``, once."""
    if models is None or not models.is_dir():
        return
    state_dir.mkdir(parents=True, exist_ok=True)
    link = state_dir / "models"
    if not link.exists():
        link.symlink_to(models.resolve(), target_is_directory=True)


def model_spec(name: str, base: Settings) -> ModelSpec:
    """The packaged model ``name`` from the user's state dir (ModelError when absent)."""
    return ModelSpec(name, resolve_model_file(base.state_dir, name, None))


async def main_async(
    args: argparse.Namespace, base: Settings, root: Path, results: dict[str, list[CaseResult]]
) -> bool:
    """Play the suite for each model; False when a signal stopped it (all started is stopped)."""
    cases = chosen_cases(args)
    options = Options(
        args.runs,
        args.temperature,
        args.seed,
        base.llm.sidecar,
        tuple(args.default or ()),
        base.state_dir.expanduser() / "models",
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


def chosen_cases(args: argparse.Namespace) -> list[Case]:
    """The cases of ``--half`` in ``--language`` (and ``--case``), in the suite's order."""
    cases = select_half(CASES, load_split(), args.half)
    return [
        c
        for c in cases
        if (not args.case or c.name in args.case)
        and (not args.language or c.language in args.language)
    ]


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
        "--case",
        action="append",
        choices=[c.name for c in CASES],
        metavar="NAME",
        help="a case by name, repeatable; default: all",
    )
    parser.add_argument(
        "--half",
        choices=(*HALVES, "all"),
        default="all",
        help="play one half (bench/agentic_split.json); default: all, with a table per half",
    )
    parser.add_argument(
        "--language", action="append", choices=LANGUAGES, help="repeatable; default: all"
    )
    parser.add_argument(
        "--temperature", type=float, help="llm.temperature; default: agentd's (the server's own)"
    )
    parser.add_argument("--seed", type=int, help="llm.seed; default: agentd's (none)")
    parser.add_argument(
        "--default",
        action="append",
        type=default_setting,
        metavar="KEY=VALUE",
        help="a default.KEY for the daemon, VALUE as JSON (e.g. guards.intent=off)",
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
    print("effect: cases whose effect is there; false claims: share of turns asking for an")
    print("action; other flags: share of turns")
    print()
    print(summary(results))
    halves = (*HALVES, "all") if args.half == "all" else (args.half,)
    split = load_split()
    for model, done in results.items():
        print()
        print(f"{model} by half and language (false claims: share of turns asking for an action;")
        print("tools on no-tool turns: share of turns needing none; another language: share of")
        print("answers whose language could be told; requests: agentd's count)")
        print()
        print(by_half_and_language(done, split, halves))
    print()
    print("effect by kind of case")
    print()
    print(by_kind(results))
    print()
    print("model requests per turn, by kind (the daemon's count)")
    print()
    print(requests_by_kind(results))
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
