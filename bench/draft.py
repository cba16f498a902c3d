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
Run it alone on the machine: it measures time.

    python -m bench.draft capture BODIES.jsonl
    python -m bench.draft replay BODIES.jsonl --draft-state DIR [--rounds 2] [--temperature T]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx

from bench._common import table
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


@dataclass(slots=True)
class Row:
    """One replayed request on one server."""

    run: str
    index: int
    wall_s: float
    prompt_n: int
    prompt_tps: float
    gen_n: int
    gen_tps: float
    drafted: int
    accepted: int


def _rss_kb(pid: int) -> tuple[int, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def _command(draft: Path | None, port: int, sizes: dict[str, int]) -> list[str]:
    from agentd.config import Settings, load_settings
    from agentd.model.packages import resolve_model_file
    from agentd.model.sidecar import find_binary, server_command

    loaded = load_settings().settings
    settings = Settings.model_validate(
        {"llm": {"sidecar": {"enabled": True, **sizes}}, "state_dir": str(loaded.state_dir)}
    )
    model = resolve_model_file(settings.state_dir, settings.llm.sidecar.model, None)
    return server_command(find_binary(None), model, port, settings, None, draft)


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
    name: str,
    draft: Path | None,
    bodies: list[dict[str, Any]],
    logs: Path,
    args: argparse.Namespace,
) -> tuple[list[Row], tuple[int, int]]:
    """Start the server (with ``draft`` or not), send ``bodies`` in order, stop it."""
    from agentd.model.sidecar import free_port

    port = free_port()
    sizes = {k: v for k, v in (("draft_max", args.draft_max), ("draft_min", args.draft_min)) if v}
    cmd = _command(draft, port, sizes)
    print(f"  {name}: {shlex.join(cmd)}", flush=True)
    rows = []
    with (logs / f"{name}.log").open("wb") as sink:
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
                payload = http.post(item["path"], json=body).content
                wall = time.perf_counter() - started
                t = timings_of(payload) or {}
                rows.append(
                    Row(
                        name,
                        i,
                        wall,
                        int(t.get("prompt_n", 0)),
                        float(t.get("prompt_per_second", 0.0)),
                        int(t.get("predicted_n", 0)),
                        float(t.get("predicted_per_second", 0.0)),
                        int(t.get("draft_n", 0)),
                        int(t.get("draft_n_accepted", 0)),
                    )
                )
        rss = _rss_kb(proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    return rows, rss


def summary(rows: list[Row], rss: dict[str, list[tuple[int, int]]]) -> str:
    """Per configuration: medians over the runs and the sums that acceptance is read from."""
    out = []
    for name in ("off", "on"):
        mine = [r for r in rows if r.run.startswith(name) and r.index > 0]
        gen = [r for r in mine if r.gen_n >= 8]
        drafted, accepted = sum(r.drafted for r in mine), sum(r.accepted for r in mine)
        runs = {r.run for r in mine}
        walls = [sum(r.wall_s for r in mine if r.run == run) for run in sorted(runs)]
        out.append(
            (
                name,
                len(runs),
                round(statistics.median(r.wall_s for r in mine), 2),
                round(statistics.fmean(walls), 1),
                round(statistics.median(r.prompt_tps for r in mine if r.prompt_n >= 8), 1),
                round(statistics.median(r.gen_tps for r in gen), 1),
                round(sum(r.gen_n for r in gen) / sum(r.gen_n / r.gen_tps for r in gen), 1),
                f"{accepted}/{drafted}" + (f" ({accepted / drafted:.0%})" if drafted else ""),
                round(max(m[0] for m in rss[name]) / 1024),
                round(max(m[1] for m in rss[name]) / 1024),
            )
        )
    header = (
        "draft",
        "runs",
        "req wall p50 s",
        "session wall s",
        "prompt tok/s p50",
        "gen tok/s p50",
        "gen tok/s all",
        "accepted/drafted",
        "RSS MB",
        "peak MB",
    )
    return table(header, out)


def replay(args: argparse.Namespace) -> None:
    """A B A B runs of the captured bodies without and with the draft model."""
    from agentd.model.packages import get_model

    bodies = [json.loads(line) for line in args.bodies.open() if line.strip()][: args.first]
    draft = get_model(args.draft_model).path(args.draft_state)
    if not draft.is_file():
        raise SystemExit(f"{draft} is missing: agentd model fetch --model {args.draft_model}")
    rows: list[Row] = []
    rss: dict[str, list[tuple[int, int]]] = {"off": [], "on": []}
    with tempfile.TemporaryDirectory() as tmp:
        logs = args.logs or Path(tmp)
        logs.mkdir(parents=True, exist_ok=True)
        for k in range(args.rounds):
            for name, path in (("off", None), ("on", draft)):
                got, mem = replay_once(f"{name}{k + 1}", path, bodies, logs, args)
                rows += got
                rss[name].append(mem)
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


def main() -> None:
    if sys.argv[1:2] == ["record"]:
        wrapped_server(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="mode", required=True)
    cap = sub.add_parser("capture", help="keep agentd's chat request bodies of one session")
    cap.add_argument("bodies", type=Path)
    rep = sub.add_parser("replay", help="send them to llama-server without and with the draft")
    rep.add_argument("bodies", type=Path)
    rep.add_argument("--draft-model", default="qwen2.5-coder-0.5b")
    rep.add_argument("--draft-state", type=Path, required=True, help="its state_dir")
    rep.add_argument("--rounds", type=int, default=2)
    rep.add_argument("--temperature", type=float, default=None, help="override the bodies'")
    rep.add_argument("--draft-max", type=int, default=0, help="default: the sidecar's")
    rep.add_argument("--draft-min", type=int, default=0, help="default: the sidecar's")
    rep.add_argument("--first", type=int, default=None, help="replay only the first N bodies")
    rep.add_argument("--logs", type=Path, help="keep the servers' logs here")
    args = parser.parse_args()
    if args.mode == "capture":
        with tempfile.TemporaryDirectory() as tmp:
            anyio.run(capture, capture_config(args.bodies, Path(tmp)), Path(tmp))
        print(f"{sum(1 for _ in args.bodies.open())} chat requests in {args.bodies}")
    else:
        replay(args)


if __name__ == "__main__":
    main()
