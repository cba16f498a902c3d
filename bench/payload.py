"""Payload: what agentd sends the model on turn 1 and turn 10 of a session.

Every byte of the system prompt and the tool schemas is paid for on every model call, heartbeats
included. Prints request bytes and an estimate of tokens (bytes / 4) with the fallback prompt and
with the example SYSTEM.md + AGENTS.md, and what the prompt and the tool schemas weigh alone.

    python -m bench.payload
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import anyio
import httpx

from agentd.config import Settings
from bench._common import stub_server, table

ROOT = Path(__file__).resolve().parent.parent
TARGET_TURN1 = 4096


async def _session(settings: Settings, url: str, turns: int) -> tuple[list[int], int, int]:
    from agentd.daemon.app import open_app

    async with open_app(settings) as app:
        prompt = len(app.runtime.system_prompt.encode())
        schemas = len(json.dumps(app.tools.schemas()).encode())
        async with httpx.AsyncClient() as http:
            await http.get(f"{url}/stats")
            for i in range(turns):
                question = f"Question number {i + 1}?"
                async with app.runtime.turn("bench:payload", question) as stream:
                    async for _ in stream:
                        pass
            sizes = (await http.get(f"{url}/stats")).json()["chat_request_bytes"]
    return sizes, prompt, schemas


def main() -> None:
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    rows = []
    with stub_server(0) as url, tempfile.TemporaryDirectory() as tmp:
        cases = (
            ("defaults (memory on)", False, True),
            ("defaults, memory off", False, False),
            ("examples/ prompt", True, True),
        )
        for label, with_examples, embed in cases:
            base = Path(tmp) / "".join(c for c in label if c.isalnum())
            workdir = base / "workdir"
            workdir.mkdir(parents=True)
            if with_examples:
                shutil.copy(ROOT / "examples" / "SYSTEM.md", base / "SYSTEM.md")
                shutil.copy(ROOT / "examples" / "workdir" / "AGENTS.md", workdir / "AGENTS.md")
            settings = Settings(
                workdir=workdir,
                state_dir=base / "state",
                llm={"base_url": url},
                memory={"embed": embed},
            )
            sizes, prompt, schemas = anyio.run(_session, settings, url, 10)
            rows.append((label, prompt, schemas, sizes[0], sizes[0] // 4, sizes[9], sizes[9] // 4))
    print("payload: bytes agentd sends the model per call (tokens estimated as bytes / 4)")
    print(
        table(
            ("prompt", "system B", "tools B", "turn 1 B", "turn 1 tok", "turn 10 B", "turn 10 tok"),
            rows,
        )
    )
    verdict = "meets" if rows[0][3] <= TARGET_TURN1 else "MISSES"
    print(
        f"turn-1 request with the defaults: {rows[0][3]} B, {verdict} the {TARGET_TURN1} B target"
    )


if __name__ == "__main__":
    main()
