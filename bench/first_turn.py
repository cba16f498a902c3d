"""First turn after READY: warm start on and off, through the HTTP API of a real ``agentd run``.

Per mode it starts a fresh ``agentd run`` as ``make run`` runs it (the sidecar llama-server with
the packaged model, the HTTP channel, agentd's defaults; here with temperature 0 and seed 42 so
the modes write the same answers), waits for ``/readyz`` and then:

- ``off`` (``llm.warm_start: off``): asks the first question at once;
- ``on``: waits until ``/readyz`` says ``checks.warm: done``, then asks it;
- ``at-once`` (``on``, asked at once): the turn starts while the warm-up runs and cancels it.

Then, in a new session, an ordinary turn: a question of the same shape, with the system prompt
and tools in the server's cache. It prints per mode the warm-up's seconds (READY to ``done``),
the first turn's and the ordinary turn's seconds (request to answer, non-streaming), their
ratio, and the first turn's prompt and cached tokens as agentd reports them; then the first
turn with warm start against the first turn without. A fresh daemon (and so a fresh
llama-server, its cache empty) per mode. Nothing asserts a time.

    python -m bench.first_turn [--modes off on at-once] [--keep DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx

from agentd.config import load_settings
from agentd.model.packages import resolve_model_file
from bench._common import SignalStop, table
from bench._daemon import Daemon, agentd_daemon

FIRST = "What is 17 times 23?"
ORDINARY = "What is 19 times 21?"
MODES = ("off", "on", "at-once")
WARM_WITHIN = 600.0


@dataclass(slots=True)
class Row:
    """One mode's measurements (seconds; None: not measured)."""

    mode: str
    warm: float | None = None
    first: float | None = None
    ordinary: float | None = None
    prompt_tokens: int = 0
    cached_tokens: int = 0
    answer: str = ""
    error: str = ""


async def ask(
    http: httpx.AsyncClient, daemon: Daemon, session: str, text: str
) -> tuple[float, Any]:
    """One non-streaming turn; its seconds and the response body."""
    started = time.monotonic()
    response = await http.post(
        f"{daemon.url}/v1/chat/completions",
        json={"model": "agentd", "messages": [{"role": "user", "content": text}]},
        headers={**daemon.headers, "X-Session-Id": session},
    )
    seconds = time.monotonic() - started
    response.raise_for_status()
    return seconds, response.json()


async def warmed(http: httpx.AsyncClient, daemon: Daemon) -> float:
    """Seconds from now until ``/readyz`` says the warm-up is done."""
    started = time.monotonic()
    while time.monotonic() - started < WARM_WITHIN:
        ready = await http.get(f"{daemon.url}/readyz", headers=daemon.headers)
        state = ready.json()["checks"].get("warm")
        if state == "done":
            return time.monotonic() - started
        if state in ("failed", "off", "skipped", None):
            raise RuntimeError(f"the warm-up ended {state!r}:\n{daemon.log_tail()}")
        await anyio.sleep(0.2)
    raise RuntimeError("the warm-up did not finish")


def config(model: Path, mode: str) -> dict[str, Any]:
    """``make run``'s daemon (sidecar, defaults) with warm start as ``mode`` says."""
    return {
        "llm": {
            "temperature": 0,
            "seed": 42,
            "warm_start": "off" if mode == "off" else "on",
            "sidecar": {"enabled": True, "model_path": str(model)},
        },
        "log": {"level": "info", "format": "json"},
    }


async def measure(model: Path, mode: str, tmp: Path) -> Row:
    """One fresh daemon in ``mode``: its first turn after READY and an ordinary turn."""
    row = Row(mode)
    async with (
        agentd_daemon("http://127.0.0.1:9", tmp / mode, config(model, mode)) as daemon,
        httpx.AsyncClient(timeout=900) as http,
    ):
        try:
            if mode == "on":
                row.warm = await warmed(http, daemon)
            row.first, body = await ask(http, daemon, "first", FIRST)
            usage = body.get("usage") or {}
            row.prompt_tokens = int(usage.get("prompt_tokens") or 0)
            details = usage.get("prompt_tokens_details") or {}
            row.cached_tokens = int(details.get("cached_tokens") or 0)
            row.answer = str(body["choices"][0]["message"]["content"])[:60]
            row.ordinary, _ = await ask(http, daemon, "second", ORDINARY)
        except (httpx.HTTPError, RuntimeError, KeyError) as exc:
            row.error = f"{type(exc).__name__}: {exc}"[:300]
    print(f"{mode}: {row}", flush=True)
    return row


def report(rows: list[Row]) -> str:
    def sec(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}"

    lines = [
        (
            r.mode,
            sec(r.warm),
            sec(r.first),
            sec(r.ordinary),
            f"{r.first / r.ordinary:.2f}" if r.first and r.ordinary else "-",
            f"{r.cached_tokens}/{r.prompt_tokens}",
            r.error or r.answer,
        )
        for r in rows
    ]
    header = (
        "warm start",
        "warm-up s",
        "first turn s",
        "ordinary turn s",
        "first/ordinary",
        "first cached/prompt",
        "answer",
    )
    out = table(header, lines)
    by = {r.mode: r for r in rows}
    off, on = by.get("off"), by.get("on")
    if off and on and off.first and on.first:
        out += f"\nfirst turn, warm start on / off: {on.first / off.first:.2f}"
    return out


async def main_async(args: argparse.Namespace, tmp: Path) -> list[Row]:
    settings = load_settings().settings
    sc = settings.llm.sidecar
    model = resolve_model_file(settings.state_dir, sc.model, sc.model_path)
    rows: list[Row] = []
    stop = SignalStop()
    async with anyio.create_task_group() as tg:
        tg.start_soon(stop.watch, tg.cancel_scope)
        for mode in args.modes:
            rows.append(await measure(model, mode, tmp))  # noqa: PERF401 - one at a time
        tg.cancel_scope.cancel()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--keep", type=Path, help="keep the daemons' state and logs here")
    args = parser.parse_args()
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        rows = anyio.run(main_async, args, args.keep)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            rows = anyio.run(main_async, args, Path(tmp))
    print(report(rows))
    sys.exit(1 if any(r.error for r in rows) else 0)


if __name__ == "__main__":
    main()
