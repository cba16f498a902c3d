"""Payload: what agentd sends the model on turn 1 and turn 10 of a session.

Every byte of the system prompt and the tool schemas is paid for on every model call, heartbeats
included. Prints request bytes and an estimate of tokens (bytes / 4) with the fallback prompt and
with the example SYSTEM.md + AGENTS.md, and what the prompt and the tool schemas weigh alone;
then the same with two MCP servers of 10 simple tools each attached (real SDK servers on
streamable HTTP; a simple tool takes one string argument), and what their 20 schemas weigh as
sent, compact JSON (target: at most 4 KB).

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
TARGET_MCP_SCHEMAS = 4096
MCP_TOOLS = 10


async def _session(settings: Settings, url: str, turns: int) -> tuple[list[int], int, int, int]:
    from agentd.daemon.app import open_app

    async with open_app(settings) as app:
        prompt = len(app.runtime.system_prompt.encode())
        schemas = len(json.dumps(app.tools.schemas()).encode())
        mcp = [s for s in app.tools.schemas() if "__" in s["function"]["name"]]
        mcp_schemas = len(json.dumps(mcp, separators=(",", ":")).encode())  # as sent
        async with httpx.AsyncClient() as http:
            await http.get(f"{url}/stats")
            for i in range(turns):
                question = f"Question number {i + 1}?"
                async with app.runtime.turn("bench:payload", question) as stream:
                    async for _ in stream:
                        pass
            sizes = (await http.get(f"{url}/stats")).json()["chat_request_bytes"]
    return sizes, prompt, schemas, mcp_schemas


def main() -> None:
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    from tests.support.mcp_server import serving_http

    rows = []
    with (
        stub_server(0) as url,
        tempfile.TemporaryDirectory() as tmp,
        serving_http("mail", MCP_TOOLS, extras=False) as mail,
        serving_http("calendar", MCP_TOOLS, extras=False) as calendar,
    ):
        two_servers = {"servers": {"mail": {"url": mail}, "calendar": {"url": calendar}}}
        cases = (
            ("defaults (memory on)", False, True, {}),
            ("defaults, memory off", False, False, {}),
            ("examples/ prompt", True, True, {}),
            ("memory off + 2 MCP x 10", False, False, two_servers),
        )
        mcp_bytes = 0
        for label, with_examples, embed, mcp in cases:
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
                mcp=mcp,
            )
            sizes, prompt, schemas, mcp_size = anyio.run(_session, settings, url, 10)
            mcp_bytes = max(mcp_bytes, mcp_size)
            if len(sizes) < 10:
                # The turns were refused before any model call (e.g. the context budget).
                rows.append((label, prompt, schemas, "refused", "-", "-", "-"))
                continue
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
    verdict = "meets" if mcp_bytes <= TARGET_MCP_SCHEMAS else "MISSES"
    print(
        f"schemas of {2 * MCP_TOOLS} MCP tools: {mcp_bytes} B "
        f"({mcp_bytes // (2 * MCP_TOOLS)} B each), {verdict} the {TARGET_MCP_SCHEMAS} B target"
    )


if __name__ == "__main__":
    main()
