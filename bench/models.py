"""Tool use of the packaged local models: a fixed set of prompts, each a full turn.

For each model: start the sidecar (load time), then per prompt run one turn through the
AgentLoop (temperature 0, fixed seed) with the built-in tools plus two more, and check the
first step: the right tool chosen, its arguments valid for the tool (after the text fallback
parser), the key arguments right. Prints a Markdown table (latency: wall time per turn, answers
capped at 256 tokens).

    .venv/bin/python bench/models.py [--model NAME ...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx

from agentd.config import load_settings
from agentd.daemon.logging import configure
from agentd.daemon.prompt import FALLBACK_INSTRUCTIONS
from agentd.engine.loop import AgentLoop
from agentd.messages import Conversation, system, user
from agentd.model.client import open_client
from agentd.model.packages import MODELS
from agentd.model.sidecar import Sidecar, open_sidecar, with_sidecar_url
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.registry import ToolRegistry

MAX_TOKENS = 256  # llama-server -n: one runaway answer must not dominate the run


@dataclass(frozen=True)
class Case:
    prompt: str
    tool: str
    args: dict[str, Callable[[Any], bool]] = field(default_factory=dict)


def eq(value: str) -> Callable[[Any], bool]:
    return lambda got: isinstance(got, str) and got.strip().lower() == value.lower()


def has(*words: str) -> Callable[[Any], bool]:
    return lambda got: isinstance(got, str) and all(w.lower() in got.lower() for w in words)


def num(value: float) -> Callable[[Any], bool]:
    return lambda got: isinstance(got, int | float) and abs(got - value) < 1e-9


CASES = [
    Case("What time is it in Tokyo right now?", "current_time", {"timezone": eq("Asia/Tokyo")}),
    Case("What's the current time in Berlin?", "current_time", {"timezone": eq("Europe/Berlin")}),
    Case("Tell me the current date and time.", "current_time"),
    Case(
        "Is it morning in New York at the moment?",
        "current_time",
        {"timezone": eq("America/New_York")},
    ),
    Case("Which day of the week is it today (UTC)?", "current_time"),
    Case(
        "Read the file notes.txt and tell me what it says.", "read_file", {"path": eq("notes.txt")}
    ),
    Case("Show me the contents of todo.md.", "read_file", {"path": eq("todo.md")}),
    Case("What is in config.json in my workdir?", "read_file", {"path": eq("config.json")}),
    Case("Open docs/intro.md and summarise it.", "read_file", {"path": eq("docs/intro.md")}),
    Case(
        "Write 'hello world' into a file called greeting.txt.",
        "write_file",
        {"path": eq("greeting.txt"), "content": has("hello world")},
    ),
    Case(
        "Save my shopping list (milk, eggs, bread) to shopping.txt.",
        "write_file",
        {"path": eq("shopping.txt"), "content": has("milk", "eggs", "bread")},
    ),
    Case(
        "Create a file todo.md containing '- call mum'.",
        "write_file",
        {"path": eq("todo.md"), "content": has("call mum")},
    ),
    Case(
        "Store the text 'meeting at 10' in reminders.txt.",
        "write_file",
        {"path": eq("reminders.txt"), "content": has("meeting at 10")},
    ),
    Case("Which files are in my workdir?", "list_dir"),
    Case("List the contents of the docs directory.", "list_dir", {"path": eq("docs")}),
    Case("Show me what is inside the folder 'projects'.", "list_dir", {"path": eq("projects")}),
    Case("Do I have any files in the current directory?", "list_dir"),
    Case("What is 1234 * 5678? Use the calculator.", "calculator", {"expression": has("1234")}),
    Case("Calculate (17 + 25) / 6.", "calculator", {"expression": has("17", "25", "6")}),
    Case("How much is 2 to the power of 20?", "calculator", {"expression": has("2", "20")}),
    Case("Compute 15% of 240.", "calculator", {"expression": has("240")}),
    Case("What's the weather like in Paris?", "get_weather", {"city": has("paris")}),
    Case("Will I need an umbrella in London today?", "get_weather", {"city": has("london")}),
    Case("How warm is it in Madrid right now?", "get_weather", {"city": has("madrid")}),
]


def bench_tools(workdir: Path) -> ToolRegistry:
    registry = ToolRegistry(default_timeout=10)
    register_builtin_tools(registry, workdir)

    async def calculator(expression: str) -> str:
        """Evaluate an arithmetic expression.

        Args:
            expression: The expression, e.g. "3 * (4 + 5)".
        """
        return "42"

    async def get_weather(city: str) -> str:
        """Get the current weather of a city.

        Args:
            city: The city name, e.g. "Paris".
        """
        return json.dumps({"city": city, "sky": "cloudy", "celsius": 14})

    registry.add(calculator)
    registry.add(get_weather)
    return registry


@dataclass
class Row:
    model: str
    load_s: float
    tool_ok: int = 0
    args_valid: int = 0
    args_right: int = 0
    latencies: list[float] = field(default_factory=list)
    tokens: int = 0
    gen_rate: float = 0.0


def _check(case: Case, registry: ToolRegistry, calls: Any) -> tuple[bool, bool, bool]:
    if len(calls) != 1 or calls[0].name != case.tool:
        return False, False, False
    tool = next(t for t in registry if t.name == case.tool)
    try:
        raw = json.loads(calls[0].arguments or "{}")
        tool.args_model.model_validate(raw)
    except (ValueError, TypeError):
        return True, False, False
    return True, True, all(check(raw.get(key)) for key, check in case.args.items())


async def bench_model(name: str, seed: int) -> Row:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) / "workdir"
        (workdir / "docs").mkdir(parents=True)
        (workdir / "notes.txt").write_text("buy milk\n")
        settings = load_settings().settings
        llm = settings.llm.model_copy(update={"temperature": 0.0, "seed": seed})
        llm.sidecar = llm.sidecar.model_copy(
            update={"enabled": True, "model": name, "max_answer_tokens": MAX_TOKENS}
        )
        settings = settings.model_copy(update={"llm": llm})
        started = time.perf_counter()
        async with open_sidecar(settings) as sidecar:
            row = Row(name, time.perf_counter() - started)
            async with open_client(with_sidecar_url(settings, sidecar)) as client:
                registry = bench_tools(workdir)
                agent_loop = AgentLoop(client, registry, max_steps=3)
                for case in CASES:
                    conv = Conversation([system(FALLBACK_INSTRUCTIONS), user(case.prompt)])
                    t0 = time.perf_counter()
                    result = await agent_loop.run(conv)
                    row.latencies.append(time.perf_counter() - t0)
                    row.tokens += result.usage.completion_tokens
                    first = result.added[0]
                    ok = _check(case, registry, first.tool_calls)
                    row.tool_ok += ok[0]
                    row.args_valid += ok[1]
                    row.args_right += ok[2]
                    mark = "".join("+" if x else "-" for x in ok)
                    calls = [(c.name, c.arguments) for c in first.tool_calls]
                    shown = calls or first.content[:60]
                    print(f"  {mark} {row.latencies[-1]:5.1f}s {case.prompt[:48]:<48} {shown!r}")
            row.gen_rate = await _generation_rate(sidecar, seed)
        return row


async def _generation_rate(sidecar: Sidecar, seed: int) -> float:
    """llama-server's own decode rate for one plain 128-token answer."""
    body = {
        "messages": [{"role": "user", "content": "Tell a long story about a lighthouse."}],
        "max_tokens": 128,
        "temperature": 0,
        "seed": seed,
    }
    async with httpx.AsyncClient(timeout=300, headers=sidecar.headers) as http:
        response = await http.post(f"{sidecar.base_url}/v1/chat/completions", json=body)
    return float(response.json()["timings"]["predicted_per_second"])


def _table(rows: list[Row]) -> str:
    n = len(CASES)
    lines = [
        "| model | load (s) | right tool | args valid | args right | turn p50 (s) "
        "| turn p90 (s) | decode tok/s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lat = sorted(r.latencies)
        p90 = lat[min(len(lat) - 1, int(0.9 * len(lat)))]
        lines.append(
            f"| {r.model} | {r.load_s:.1f} | {r.tool_ok}/{n} | {r.args_valid}/{n} "
            f"| {r.args_right}/{n} | {statistics.median(lat):.1f} | {p90:.1f} | {r.gen_rate:.0f} |"
        )
    return "\n".join(lines)


async def main(models: list[str], seed: int) -> None:
    configure(level="warning", fmt="console", secrets=())
    rows = []
    for name in models:
        print(f"{name}:")
        rows.append(await bench_model(name, seed))
    print()
    print(_table(rows))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", choices=sorted(MODELS))
    parser.add_argument("--seed", type=int, default=42)
    ns = parser.parse_args()
    anyio.run(main, ns.model or sorted(MODELS), ns.seed)
