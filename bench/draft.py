"""Draft: llama-server with and without the packaged 0.5B as the 1.5B's draft model.

Speculative decoding lets a small model propose tokens that the large one checks in one batch;
on a GPU that is a win, on two CPU cores the two models take turns on the same cores. This
bench answers it with agentd's own requests:

``capture`` runs ``make run``'s daemon (sidecar, pinned slots, warm start) with the sidecar's
binary wrapped by a recording proxy, drives one session of everyday turns through the HTTP API
(tool steps that write a file of 40-80 tokens, short answers) and keeps every chat request body
as agentd sent it (system prompt, tool schemas, GBNF ``grammar``, ``id_slot``), one JSON a line.

``replay`` starts llama-server with the sidecar's own command line (:func:`server_command`: the
same threads, context and slots), once without and once with ``--model-draft``, alternating
(A B A B ...), sends the captured bodies one after another, and prints per request: wall time,
prompt tokens and tok/s, generated tokens and tok/s, and the server's draft counts
(``timings.draft_n``/``draft_n_accepted``); per run the server's RSS (VmRSS and VmHWM).
``--spec TYPE:key=N,...`` adds a server that drafts from the text it holds instead of a draft
model (n-gram lookup, :mod:`bench._speculation`); give it once per setting, with or without
``--draft-state``. Each setting's answers are compared with the first plain run's: even at
``--temperature 0`` a speculating server's may differ (measured: its checked batches can pick
another token), so generation time is also compared on the answers that match. Run it alone
on the machine: it measures time.

    python -m bench.draft capture BODIES.jsonl
    python -m bench.draft replay BODIES.jsonl --draft-state DIR [--rounds 2] [--temperature T]
    python -m bench.draft replay BODIES.jsonl --spec ngram-simple:n=3,m=16 --temperature 0
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx

from bench._common import table
from bench._speculation import Spec, parse_spec
from bench.latency import RecordingProxy, timings_of

#: One session, as a user of a local coding assistant writes it.
TURNS = (
    "What is 17 times 23?",
    "Write a Python script fizzbuzz.py that prints FizzBuzz for the numbers 1 to 30.",
    "Explain in about fifty words what a hash map is.",
    "Write a file groceries.txt with the lines: milk, bread, eggs.",
    "Write a file notes.md with a short markdown list of three tips for clear commit messages.",
    "What is on my grocery list?",
    "Add butter to groceries.txt.",
    "Thanks! Summarise what we did in one sentence.",
)


class SavingProxy(RecordingProxy):
    """A recording proxy that also appends each chat request's path and body to a file."""

    sink: Path

    async def _forward(
        self,
        http: httpx.AsyncClient,
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes,
    ) -> bytes:
        if path.endswith("/chat/completions"):
            with self.sink.open("a") as fh:
                fh.write(json.dumps({"path": path, "body": json.loads(body)}) + "\n")
        return await super()._forward(http, method, path, headers, body)


def wrapped_server(argv: list[str]) -> None:
    """``record SINK BINARY ARGS...``: the real server on another port, a saving proxy on ours."""
    sink, binary, args = Path(argv[0]), argv[1], argv[2:]
    at = args.index("--port")
    ours = int(args[at + 1])
    from agentd.model.sidecar import free_port

    theirs = free_port()
    args[at + 1] = str(theirs)
    server = subprocess.Popen([binary, *args])  # same process group: the sidecar stops both

    async def serve() -> None:
        proxy = SavingProxy(f"http://127.0.0.1:{theirs}")
        proxy.sink = sink
        listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=ours)
        async with listener, anyio.create_task_group() as tg:
            tg.start_soon(listener.serve, proxy.handle)
            await anyio.to_thread.run_sync(server.wait)
            tg.cancel_scope.cancel()

    try:
        anyio.run(serve)
    finally:
        if server.poll() is None:
            server.terminate()


def sidecar_config(model: Path, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """``make run``'s daemon settings (sidecar, two pinned session slots, warm start)."""
    sidecar = {"enabled": True, "model_path": str(model), **(extra or {})}
    return {
        "llm": {"warm_start": "on", "sidecar": sidecar},
        "log": {"level": "info", "format": "json"},
        "cron": {"enabled": False},
        "memory": {"embed": False},
    }


def capture_config(out: Path, tmp: Path) -> dict[str, Any]:
    """The daemon's settings with the sidecar's binary wrapped to save bodies into ``out``."""
    from agentd.config import load_settings
    from agentd.model.packages import resolve_model_file
    from agentd.model.sidecar import find_binary

    settings = load_settings().settings
    model = resolve_model_file(settings.state_dir, settings.llm.sidecar.model, None)
    out.write_text("")
    wrapper = tmp / "llama-server"
    pythonpath = os.pathsep.join(sys.path)
    wrapper.write_text(
        "#!/bin/sh\n"
        f"PYTHONPATH={shlex.quote(pythonpath)} exec {shlex.quote(sys.executable)} -m "
        f"bench.draft record {shlex.quote(str(out.resolve()))} "
        f'{shlex.quote(str(find_binary(None)))} "$@"\n'
    )
    wrapper.chmod(0o700)
    return sidecar_config(model, {"binary": str(wrapper)})


async def capture(config: dict[str, Any], tmp: Path) -> None:
    """Drive :data:`TURNS` through ``make run``'s daemon with ``config``."""
    from bench._daemon import agentd_daemon
    from bench.first_turn import warmed

    async with (
        agentd_daemon("http://127.0.0.1:9", tmp, config) as daemon,
        httpx.AsyncClient(timeout=900) as http,
    ):
        print(f"  warm-up: {await warmed(http, daemon):.1f} s", flush=True)
        for text in TURNS:
            started = time.perf_counter()
            response = await http.post(
                f"{daemon.url}/v1/chat/completions",
                json={"model": "agentd", "messages": [{"role": "user", "content": text}]},
                headers={**daemon.headers, "X-Session-Id": "draft"},
            )
            answer = response.json()["choices"][0]["message"]["content"]
            print(f"  {time.perf_counter() - started:6.1f} s  {text}\n    -> {answer[:160]!r}")


@dataclass(frozen=True, slots=True)
class Setup:
    """One server to replay against: plain, with a draft model, or with draft-free flags."""

    name: str
    draft: Path | None = None
    extra: tuple[str, ...] = ()


def setups(draft: Path | None, specs: list[Spec]) -> list[Setup]:
    """The plain server first (the others are compared with it), then each speculating one."""
    out = [Setup("off")]
    if draft is not None:
        out.append(Setup("draft", draft))
    return out + [Setup(spec.label, None, spec.args) for spec in specs]


def answer_of(status: int, payload: bytes) -> str:
    """What a reply says (text and tool calls), to compare replies across servers."""
    try:
        message = json.loads(payload)["choices"][0]["message"]
    except (ValueError, KeyError, IndexError, TypeError):
        return f"HTTP {status}: {payload[:200].decode('utf-8', 'replace')}"
    calls = message.get("tool_calls") or []
    return json.dumps([message.get("content"), [c.get("function") for c in calls]])


@dataclass(slots=True)
class Row:
    """One replayed request on one server."""

    setup: str
    run: str
    index: int
    wall_s: float
    prompt_n: int
    prompt_tps: float
    gen_n: int
    gen_tps: float
    drafted: int
    accepted: int
    answer: str = ""


def _rss_kb(pid: int) -> tuple[int, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def _command(setup: Setup, port: int, sizes: dict[str, int]) -> list[str]:
    from agentd.config import Settings, load_settings
    from agentd.model.packages import resolve_model_file
    from agentd.model.sidecar import find_binary, server_command

    loaded = load_settings().settings
    settings = Settings.model_validate(
        {"llm": {"sidecar": {"enabled": True, **sizes}}, "state_dir": str(loaded.state_dir)}
    )
    model = resolve_model_file(settings.state_dir, settings.llm.sidecar.model, None)
    cmd = server_command(find_binary(None), model, port, settings, None, setup.draft)
    return [*cmd, *setup.extra]


def _wait_health(url: str, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"llama-server exited with {proc.returncode}")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise SystemExit("llama-server did not become healthy")


def replay_once(
    setup: Setup,
    name: str,
    bodies: list[dict[str, Any]],
    logs: Path,
    args: argparse.Namespace,
) -> tuple[list[Row], tuple[int, int]]:
    """Start the server as ``setup`` says, send ``bodies`` in order, stop it."""
    from agentd.model.sidecar import free_port

    port = free_port()
    sizes = {k: v for k, v in (("draft_max", args.draft_max), ("draft_min", args.draft_min)) if v}
    cmd = _command(setup, port, sizes)
    print(f"  {name}: {shlex.join(cmd)}", flush=True)
    rows = []
    log_name = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
    with (logs / f"{log_name}.log").open("wb") as sink:
        proc = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_health(url, proc)
        with httpx.Client(base_url=url, timeout=900) as http:
            for i, item in enumerate(bodies):
                body = dict(item["body"])
                if args.temperature is not None:
                    body["temperature"] = args.temperature
                started = time.perf_counter()
                response = http.post(item["path"], json=body)
                wall = time.perf_counter() - started
                payload = response.content
                t = timings_of(payload) or {}
                rows.append(
                    Row(
                        setup.name,
                        name,
                        i,
                        wall,
                        int(t.get("prompt_n", 0)),
                        float(t.get("prompt_per_second", 0.0)),
                        int(t.get("predicted_n", 0)),
                        float(t.get("predicted_per_second", 0.0)),
                        int(t.get("draft_n", 0)),
                        int(t.get("draft_n_accepted", 0)),
                        answer_of(response.status_code, payload),
                    )
                )
        rss = _rss_kb(proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    return rows, rss


def _median(values: list[float]) -> float | str:
    return round(statistics.median(values), 1) if values else "-"


def _ratio(base: float, mine: float) -> str:
    return f"{base / mine:.2f}x" if mine else "-"


def _session_wall(rows: list[Row], name: str) -> float:
    """Mean over ``name``'s runs of the wall time of all requests after the first."""
    mine = [r for r in rows if r.setup == name and r.index > 0]
    runs = sorted({r.run for r in mine})
    return statistics.fmean(sum(r.wall_s for r in mine if r.run == run) for run in runs)


def _summary_row(
    name: str, rows: list[Row], rss: list[tuple[int, int]], base: dict[int, str]
) -> tuple[object, ...]:
    mine = [r for r in rows if r.setup == name and r.index > 0]
    gen = [r for r in mine if r.gen_n >= 8]
    drafted, accepted = sum(r.drafted for r in mine), sum(r.accepted for r in mine)
    differ = sum(1 for r in mine if r.answer != base.get(r.index))
    wall = _session_wall(rows, name)
    return (
        name,
        len({r.run for r in mine}),
        round(statistics.median(r.wall_s for r in mine), 2),
        round(wall, 1),
        _ratio(_session_wall(rows, "off"), wall),
        _per_request_ratio(rows, name),
        _same_answer_gen_ratio(rows, name, base),
        _median([r.prompt_tps for r in mine if r.prompt_n >= 8]),
        _median([r.gen_tps for r in gen]),
        round(sum(r.gen_n for r in gen) / sum(r.gen_n / r.gen_tps for r in gen), 1) if gen else "-",
        f"{accepted}/{drafted}" + (f" ({accepted / drafted:.0%})" if drafted else ""),
        f"{differ}/{len(mine)}",
        round(max(m[0] for m in rss) / 1024),
        round(max(m[1] for m in rss) / 1024),
    )


def _per_request_ratio(rows: list[Row], name: str) -> str:
    """Median over the requests of (the plain server's mean wall) / (this setup's)."""

    def walls(setup: str) -> dict[int, float]:
        by: dict[int, list[float]] = {}
        for r in rows:
            if r.setup == setup and r.index > 0:
                by.setdefault(r.index, []).append(r.wall_s)
        return {i: statistics.fmean(w) for i, w in by.items()}

    off, mine = walls("off"), walls(name)
    ratios = [off[i] / mine[i] for i in mine if i in off and mine[i] > 0]
    return f"{statistics.median(ratios):.2f}x" if ratios else "-"


def _same_answer_gen_ratio(rows: list[Row], name: str, base: dict[int, str]) -> str:
    """The plain server's generation seconds over this setup's, on the requests whose answer is
    the first plain run's: a setup that ends a runaway answer early does not count as fast."""

    def gen_s(r: Row) -> float:
        return r.gen_n / r.gen_tps if r.gen_tps > 0 else 0.0

    off: dict[int, list[float]] = {}
    for r in rows:
        if r.setup == "off" and r.index > 0 and r.answer == base.get(r.index):
            off.setdefault(r.index, []).append(gen_s(r))
    mine = [r for r in rows if r.setup == name and r.index in off and r.answer == base.get(r.index)]
    this = sum(gen_s(r) for r in mine)
    return _ratio(sum(statistics.fmean(off[r.index]) for r in mine), this) if this else "-"


def summary(rows: list[Row], rss: dict[str, list[tuple[int, int]]]) -> str:
    """Per setup: medians over the runs, the sums acceptance is read from, the answers that
    differ from the first plain run's, and the plain server's wall time over this one's."""
    first = next(r.run for r in rows if r.setup == "off")
    base = {r.index: r.answer for r in rows if r.run == first}
    out = [_summary_row(name, rows, mem, base) for name, mem in rss.items()]
    header = (
        "setup",
        "runs",
        "req wall p50 s",
        "session wall s",
        "session off/this",
        "req off/this p50",
        "same-answer gen off/this",
        "prompt tok/s p50",
        "gen tok/s p50",
        "gen tok/s all",
        "accepted/drafted",
        "answers differ",
        "RSS MB",
        "peak MB",
    )
    return table(header, out)


@contextlib.contextmanager
def _held(lock: Path | None) -> Iterator[None]:
    """``lock`` held (``flock``) for one server's run, so others may run between ours."""
    if lock is None:
        yield
        return
    with lock.open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _draft_path(args: argparse.Namespace) -> Path | None:
    from agentd.model.packages import get_model

    if args.draft_state is None:
        if not args.spec:
            raise SystemExit("give --draft-state (a draft model) or --spec (draft-free), or both")
        return None
    draft = get_model(args.draft_model).path(args.draft_state)
    if not draft.is_file():
        raise SystemExit(f"{draft} is missing: agentd model fetch --model {args.draft_model}")
    return draft


def replay(args: argparse.Namespace) -> None:
    """A B A B runs of the captured bodies on the plain server and each speculating one."""
    bodies = [json.loads(line) for line in args.bodies.open() if line.strip()][: args.first]
    plan = setups(_draft_path(args), args.spec)
    rows: list[Row] = []
    rss: dict[str, list[tuple[int, int]]] = {setup.name: [] for setup in plan}
    with tempfile.TemporaryDirectory() as tmp:
        logs = args.logs or Path(tmp)
        logs.mkdir(parents=True, exist_ok=True)
        for k in range(args.rounds):
            for setup in plan:
                with _held(args.lock):
                    got, mem = replay_once(setup, f"{setup.name}#{k + 1}", bodies, logs, args)
                rows += got
                if args.rows:
                    with args.rows.open("a") as fh:
                        fh.writelines(json.dumps(asdict(r)) + "\n" for r in got)
                rss[setup.name].append(mem)
                walls = sum(r.wall_s for r in got[1:])
                print(f"    {len(got)} requests, {walls:.1f} s after the first", flush=True)
    print(
        table(
            ("run", "req", "wall s", "prompt n", "prompt tok/s", "gen n", "gen tok/s", "acc/drft"),
            [
                (
                    r.run,
                    r.index,
                    round(r.wall_s, 2),
                    r.prompt_n,
                    round(r.prompt_tps, 1),
                    r.gen_n,
                    round(r.gen_tps, 1),
                    f"{r.accepted}/{r.drafted}",
                )
                for r in rows
            ],
        )
    )
    print("(request 0, the warm-up's cold prompt, is left out of the summary)")
    print(summary(rows, rss))


def parser() -> argparse.ArgumentParser:
    """``capture`` and ``replay`` with their options."""
    out = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = out.add_subparsers(dest="mode", required=True)
    cap = sub.add_parser("capture", help="keep agentd's chat request bodies of one session")
    cap.add_argument("bodies", type=Path)
    rep = sub.add_parser("replay", help="send them to llama-server without and with speculation")
    rep.add_argument("bodies", type=Path)
    rep.add_argument("--draft-model", default="qwen2.5-coder-0.5b")
    rep.add_argument("--draft-state", type=Path, help="its state_dir (with it: a draft run)")
    rep.add_argument(
        "--spec",
        type=parse_spec,
        action="append",
        default=[],
        help="a draft-free run, e.g. ngram-simple:n=3,m=16 (repeat for more)",
    )
    rep.add_argument("--rounds", type=int, default=2)
    rep.add_argument("--temperature", type=float, default=None, help="override the bodies'")
    rep.add_argument("--draft-max", type=int, default=0, help="default: the sidecar's")
    rep.add_argument("--draft-min", type=int, default=0, help="default: the sidecar's")
    rep.add_argument("--first", type=int, default=None, help="replay only the first N bodies")
    rep.add_argument("--logs", type=Path, help="keep the servers' logs here")
    rep.add_argument("--rows", type=Path, help="append each run's rows here (JSON lines)")
    rep.add_argument("--lock", type=Path, help="flock this file around each server's run")
    return out


def main() -> None:
    if sys.argv[1:2] == ["record"]:
        wrapped_server(sys.argv[2:])
        return
    args = parser().parse_args()
    if args.mode == "capture":
        with tempfile.TemporaryDirectory() as tmp:
            anyio.run(capture, capture_config(args.bodies, Path(tmp)), Path(tmp))
        print(f"{sum(1 for _ in args.bodies.open())} chat requests in {args.bodies}")
    else:
        replay(args)


if __name__ == "__main__":
    main()
