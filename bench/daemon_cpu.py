"""Daemon CPU: what a real ``agentd run`` spends per turn, beside the client's cost of one request.

Against the 0-ms stub (its own process), ``--clients`` concurrent clients send stateless chat
requests through the daemon's HTTP API, each client in a session of its own (``X-Session-Id``;
``--stateless``: none); the daemon's CPU (utime + stime from ``/proc``) over the
run, divided by the turns, is its CPU per turn. The same number of requests, with the body agentd
sends the model (system prompt + tool schemas), go straight to the stub from this process with
httpx: this process's CPU per request is the floor a turn cannot go under (one HTTP request
received, one sent). Rounds alternate between the two so that drift hits both alike; the table
shows each round and the medians.

    python -m bench.daemon_cpu [--turns 400] [--clients 16] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import httpx

from agentd.daemon.prompt import build_system_prompt
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.registry import ToolRegistry
from bench._common import stub_server, table
from bench._daemon import Daemon, agentd_daemon

TICKS = os.sysconf("SC_CLK_TCK")
QUESTION = "Say hello in five words."


def _proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process so far, from ``/proc/<pid>/stat``."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def _self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _drive(
    http: httpx.AsyncClient, url: str, body: dict[str, Any], clients: int, turns: int
) -> float:
    """Send ``turns`` requests from ``clients`` concurrent clients; returns the wall seconds.

    With a ``session`` in ``body``, client ``i`` talks in session ``{session}-{i}``.
    """
    per_client = turns // clients
    session = body.pop("session", None)

    async def one(i: int) -> None:
        headers = {"X-Session-Id": f"{session}-{i}"} if session else None
        for _ in range(per_client):
            response = await http.post(url, json=body, headers=headers)
            response.raise_for_status()
            if not body.get("stream"):
                response.json()

    started = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for i in range(clients):
            tg.start_soon(one, i)
    return time.perf_counter() - started


def _direct_body(workdir: Path) -> dict[str, Any]:
    tools = ToolRegistry()
    register_builtin_tools(tools, workdir)
    return {
        "model": "local",
        "messages": [
            {"role": "system", "content": build_system_prompt(workdir)},
            {"role": "user", "content": QUESTION},
        ],
        "tools": tools.schemas(),
    }


async def _round(
    http: httpx.AsyncClient, stub: str, daemon: Daemon, args: argparse.Namespace
) -> tuple[float, float, float, float, float]:
    """One round: direct client ms/request, daemon ms/turn, direct req/s, agentd turns/s and
    the model requests per turn."""
    n = args.turns - args.turns % args.clients
    body = _direct_body(daemon.workdir)
    cpu0 = _self_cpu()
    wall = await _drive(http, f"{stub}/v1/chat/completions", body, args.clients, n)
    direct_cpu, direct_rate = (_self_cpu() - cpu0) / n * 1000, n / wall
    api_body: dict[str, Any] = {
        "model": "agentd",
        "messages": [{"role": "user", "content": QUESTION}],
    }
    if args.sessions:
        api_body["session"] = "bench"
    if args.stream:
        api_body["stream"] = True
    http.headers.update(daemon.headers)
    await http.get(f"{stub}/stats")
    cpu0 = _proc_cpu(daemon.pid)
    wall = await _drive(http, f"{daemon.url}/v1/chat/completions", api_body, args.clients, n)
    agentd_cpu, agentd_rate = (_proc_cpu(daemon.pid) - cpu0) / n * 1000, n / wall
    requests = len((await http.get(f"{stub}/stats")).json()["chat_request_bytes"]) / n
    return direct_cpu, agentd_cpu, direct_rate, agentd_rate, requests


async def measure(stub: str, tmp: Path, args: argparse.Namespace) -> list[tuple[object, ...]]:
    config: dict[str, Any] = {"log": {"level": "warning"}}
    if not args.memory:
        config["memory"] = {"embed": False}
    if args.grammar:
        config["llm"] = {"tool_grammar": "on"}
    rows: list[tuple[object, ...]] = []
    limits = httpx.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
    async with (
        agentd_daemon(stub, tmp, config) as daemon,
        httpx.AsyncClient(timeout=60, limits=limits) as http,
    ):
        # For a profiler to attach to (py-spy record -p PID).
        print(f"agentd pid {daemon.pid}", file=sys.stderr, flush=True)
        warm = argparse.Namespace(**{**vars(args), "turns": args.clients})
        await _round(http, stub, daemon, warm)
        for i in range(args.rounds):
            direct, agentd, d_rate, a_rate, reqs = await _round(http, stub, daemon, args)
            rows.append((f"round {i + 1}", direct, agentd, agentd / direct, d_rate, a_rate, reqs))
    medians = [statistics.median(float(r[c]) for r in rows) for c in range(1, 7)]  # type: ignore[arg-type]
    rows.append(("median", *medians))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=400)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--stateless",
        dest="sessions",
        action="store_false",
        help="no X-Session-Id: each request is a conversation of its own",
    )
    parser.add_argument(
        "--memory", action="store_true", help="long-term memory on (Milvus Lite, stub embeddings)"
    )
    parser.add_argument(
        "--grammar",
        action="store_true",
        help="llm.tool_grammar on, as with the packaged models (the small-model rules run too)",
    )
    parser.add_argument("--stream", action="store_true", help="agentd answers as SSE")
    args = parser.parse_args()
    with stub_server(0) as stub, tempfile.TemporaryDirectory() as tmp:
        rows = anyio.run(measure, stub, Path(tmp), args)
    kind = "one session each" if args.sessions else "stateless requests"
    print(f"daemon CPU per turn, 0-ms stub, {args.clients} clients ({kind}) through the HTTP API")
    header = (
        "",
        "direct ms/req",
        "agentd ms/turn",
        "ratio",
        "direct req/s",
        "agentd turns/s",
        "model req/turn",
    )
    print(table(header, rows))
    print("direct: this process's CPU per request sent straight to the stub (httpx)")


if __name__ == "__main__":
    main()
