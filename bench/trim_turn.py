"""The turn whose context budget drops a session's oldest messages, through `make run`'s path.

`agentd run` serving the packaged model itself (its sidecar: sessions pinned to a slot), the
context cut to 4,096 tokens and ``truncate``, drives one session of memo turns
(:func:`bench.long_session.note`) until the budget has trimmed; per turn it prints the wall
time and llama-server's evaluated tokens (agentd's ``usage``: prompt less cached). Run once per
``llm.sidecar.cache_reuse`` value given, one after the other (default: on, then off), so the
trim turn's cost is seen side by side.

    python -m bench.trim_turn [--turns 20] [--reuse 256 --reuse 0]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from openai import AsyncOpenAI

from agentd.config import load_settings
from bench._daemon import agentd_daemon
from bench.long_session import SESSION, note


def config(reuse: int) -> dict[str, Any]:
    """The daemon's settings: its own sidecar at a 4,096-token context, cache reuse ``reuse``."""
    sidecar = {"enabled": True, "context": 4096, "max_answer_tokens": 96, "cache_reuse": reuse}
    return {
        "llm": {"temperature": 0, "seed": 42, "warm_start": "off", "sidecar": sidecar},
        "memory": {"embed": False},
        "cron": {"enabled": False},
        "default": {"compaction_strategy": "truncate", "max_messages": 0},
        "log": {"level": "info", "format": "json"},
    }


async def session(reuse: int, turns: int, models: Path) -> None:
    """One daemon, one session of ``turns`` turns; a line per turn."""
    with tempfile.TemporaryDirectory(prefix="agentd-trim-") as tmp:
        state = Path(tmp) / "state"
        state.mkdir()
        (state / "models").symlink_to(models)
        async with agentd_daemon("http://127.0.0.1:9", Path(tmp), config(reuse)) as daemon:
            client = AsyncOpenAI(
                base_url=f"{daemon.url}/v1", api_key=daemon.token, max_retries=0, timeout=900
            )
            async with client:
                for turn in range(1, turns + 1):
                    started = time.perf_counter()
                    reply = await client.chat.completions.create(
                        model="agentd",
                        messages=[{"role": "user", "content": note(turn)}],
                        extra_headers={"X-Session-Id": SESSION},
                    )
                    usage = reply.usage
                    assert usage is not None
                    details = usage.prompt_tokens_details
                    cached = (details.cached_tokens if details else 0) or 0
                    print(
                        f"cache_reuse {reuse:4d}  turn {turn:2d}  "
                        f"{time.perf_counter() - started:6.2f} s  prompt {usage.prompt_tokens:5d}"
                        f"  cached {cached:5d}  evaluated {usage.prompt_tokens - cached:5d}",
                        flush=True,
                    )
            trims = daemon.log_path.read_text().count("context.trimmed")
            print(f"cache_reuse {reuse}: {trims} turn(s) trimmed", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--reuse", type=int, action="append", help="repeatable; default 256, 0")
    args = parser.parse_args()
    models = load_settings().settings.state_dir.expanduser() / "models"
    for reuse in args.reuse or [256, 0]:
        anyio.run(session, reuse, args.turns, models)


if __name__ == "__main__":
    main()
