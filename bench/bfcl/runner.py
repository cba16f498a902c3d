"""Ask one model BFCL's questions in up to three ways, on the same items, and score every answer.

``direct``: llama-server's own ``/v1/chat/completions`` with ``tools`` (its chat template and
tool-call parser), decoded as BFCL decodes an OpenAI FC model: ``tool_calls`` are the calls,
content without them is no call. Each direct answer is scored twice: as it is, and read
leniently (``direct-lenient``: calls written as text read by agentd's own text parser, see
:mod:`bench.bfcl.answer`). ``http``: a real ``agentd run`` on the same llama-server, asked as an
agent framework asks it (:mod:`bench.bfcl.over_http`). ``first-step``: the first step of an
agentd turn built in process from the daemon's own parts (the example workdir's system prompt
with the item's system message joined as a stateless turn does, the model client with its text
tool-call fallback, the context budget) through :meth:`AgentLoop.first_step`.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx

from agentd.config import Settings, load_settings
from agentd.daemon.prompt import build_system_prompt, dated_clock, today_line
from agentd.engine.budget import budget_for, effective_defaults
from agentd.engine.loop import AgentLoop
from agentd.engine.route import mode_for as route_mode_for
from agentd.engine.runtime import stateless_conversation
from agentd.errors import ContextOverflow, LLMError
from agentd.messages import ROLES, Message, Role
from agentd.model.client import open_client
from agentd.model.packages import resolve_model_file
from agentd.model.sidecar import Sidecar, open_sidecar, with_sidecar_url
from agentd.tools.registry import ToolRegistry, compact_parameters
from bench.bfcl.answer import Answer, lenient
from bench.bfcl.convert import to_openai_tools
from bench.bfcl.data import Item
from bench.bfcl.over_http import daemon_asker, daemon_config
from bench.bfcl.scorer import RawCall, score
from bench.bfcl.validity import call_problem, looks_like_call

MODES = ("direct", "http", "first-step")
#: What runs without ``--mode``: llama-server direct and agentd through its HTTP API.
DEFAULT_MODES = ("direct", "http")
#: The direct answers read leniently: a result of every ``direct`` request, not a request.
LENIENT = "direct-lenient"
#: One answer's token cap (llama-server -n, and max_tokens of the direct requests): a runaway
#: answer must not dominate the run.
MAX_TOKENS = 256
EXAMPLE_WORKDIR = Path(__file__).resolve().parents[2] / "examples" / "workdir"
#: The tools as a mode offered them (agentd's first step compacts their schemas).
Offered = list[dict[str, Any]]
#: Asks one item with its tools: what was offered, and the answer.
Ask = Callable[[Item, list[dict[str, Any]]], Awaitable[tuple[Offered, Answer]]]


@dataclass(slots=True)
class Result:
    """One scored answer, with everything needed to read a miss."""

    model: str
    mode: str
    category: str
    id: str
    correct: bool
    error_type: str
    errors: list[str]
    calls: list[dict[str, str]]
    #: Per call: None when valid, else why not (unparseable, unknown tool, schema: ...).
    problems: list[str | None]
    content: str
    left_as_text: bool
    seconds: float
    finish_reason: str | None = None
    failure: str | None = None
    question: list[dict[str, str]] = field(default_factory=list)
    ground_truth: list[dict[str, Any]] = field(default_factory=list)


def bench_settings(model: str, state_dir: Path, seed: int) -> Settings:
    """The user's settings with a sidecar for packaged ``model`` on a free port, temperature 0,
    a fixed seed and the answer cap; its log goes to ``state_dir``."""
    base = load_settings().settings
    path = resolve_model_file(base.state_dir, model, None)
    sidecar = base.llm.sidecar.model_copy(
        update={
            "enabled": True,
            "model": model,
            "model_path": path,
            "port": 0,
            "max_answer_tokens": MAX_TOKENS,
        }
    )
    llm = base.llm.model_copy(update={"temperature": 0.0, "seed": seed, "sidecar": sidecar})
    return base.model_copy(update={"state_dir": state_dir, "workdir": EXAMPLE_WORKDIR, "llm": llm})


def compacted(tools: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tools as agentd would offer them: parameters through the registry's compaction."""
    return [
        {
            **t,
            "function": {
                **t["function"],
                "parameters": compact_parameters(t["function"]["parameters"]),
            },
        }
        for t in tools
    ]


def _message(raw: dict[str, str]) -> Message:
    role = raw["role"]
    if role not in ROLES:
        raise ValueError(f"BFCL message with role {role!r}")
    return Message(role=cast(Role, role), content=raw["content"])


async def ask_direct(
    http: httpx.AsyncClient, base_url: str, item: Item, tools: list[dict[str, Any]], seed: int
) -> Answer:
    """llama-server with ``tools``; its own parser decides what is a call."""
    body = {
        "messages": item.messages,
        "tools": tools,
        "temperature": 0,
        "seed": seed,
        "max_tokens": MAX_TOKENS,
    }
    started = time.perf_counter()
    try:
        response = await http.post(f"{base_url}/v1/chat/completions", json=body)
    except httpx.TransportError as exc:  # a timeout, or a server the sidecar is restarting
        return Answer([], "", time.perf_counter() - started, failure=f"{type(exc).__name__}")
    seconds = time.perf_counter() - started
    if response.status_code >= 400:
        return Answer(
            [], "", seconds, failure=f"HTTP {response.status_code}: {response.text[:500]}"
        )
    choice = response.json()["choices"][0]
    message = choice["message"]
    calls: list[RawCall] = []
    for call in message.get("tool_calls") or []:
        arguments = call["function"].get("arguments", "")
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        calls.append((call["function"]["name"], text))
    return Answer(calls, message.get("content") or "", seconds, choice.get("finish_reason"))


async def ask_first_step(
    agent_loop: AgentLoop, prompt: str, item: Item, schemas: list[dict[str, Any]]
) -> Answer:
    """The first step of an agentd turn offered ``schemas``: one model call, no tool run."""
    conversation = stateless_conversation(prompt, [_message(m) for m in item.messages])
    started = time.perf_counter()
    try:
        result = await agent_loop.first_step(conversation, schemas=schemas)
    except (LLMError, ContextOverflow) as exc:  # recorded as a failed request; the run goes on
        return Answer([], "", time.perf_counter() - started, failure=f"{type(exc).__name__}: {exc}")
    seconds = time.perf_counter() - started
    reply = result.message
    calls = [(c.name, c.arguments) for c in reply.tool_calls]
    return Answer(calls, reply.content, seconds, result.finish_reason)


def judge(
    model: str, mode: str, item: Item, offered: list[dict[str, Any]], answer: Answer
) -> Result:
    """BFCL's verdict on the answer, and the validity of each of its calls."""
    verdict = score(item.category, item.functions, item.ground_truth, answer.calls)
    correct = verdict.valid and answer.failure is None
    return Result(
        model=model,
        mode=mode,
        category=item.category,
        id=item.id,
        correct=correct,
        error_type="request_failed" if answer.failure else verdict.error_type,
        errors=list(verdict.errors),
        calls=[{"name": name, "arguments": args} for name, args in answer.calls],
        problems=[call_problem(call, offered) for call in answer.calls],
        content=answer.content,
        left_as_text=looks_like_call(answer.content),
        seconds=answer.seconds,
        finish_reason=answer.finish_reason,
        failure=answer.failure,
        question=item.messages,
        ground_truth=item.ground_truth,
    )


def reported_modes(modes: Sequence[str]) -> list[str]:
    """The modes a run of ``modes`` reports: ``direct`` also gives ``direct-lenient``."""
    return [name for mode in modes for name in ((mode, LENIENT) if mode == "direct" else (mode,))]


@asynccontextmanager
async def _direct(settings: Settings, sidecar: Sidecar) -> AsyncIterator[Ask]:
    seed = settings.llm.seed if settings.llm.seed is not None else 0
    timeout = httpx.Timeout(settings.llm.timeout, connect=settings.llm.connect_timeout)
    async with httpx.AsyncClient(timeout=timeout, headers=sidecar.headers) as http:

        async def ask(item: Item, tools: list[dict[str, Any]]) -> tuple[Offered, Answer]:
            return tools, await ask_direct(http, sidecar.base_url, item, tools, seed)

        yield ask


@asynccontextmanager
async def _first_step(settings: Settings, sidecar: Sidecar) -> AsyncIterator[Ask]:
    prompt = build_system_prompt(settings.workdir)
    clock = dated_clock(settings.default.date_in_prompt)
    if clock is not None:  # as TenantPrompts dates the daemon's prompt
        prompt = f"{today_line(clock())}\n\n{prompt}"
    sc = settings.llm.sidecar
    defaults = effective_defaults(settings.default, sc.context)
    async with open_client(with_sidecar_url(settings, sidecar)) as client:
        agent_loop = AgentLoop(
            client,
            ToolRegistry(),
            budget=budget_for(defaults, sc.max_answer_tokens),
            guards={**settings.default.guard_switches(), "route": route_mode_for(settings)},
        )

        async def ask(item: Item, tools: list[dict[str, Any]]) -> tuple[Offered, Answer]:
            offered = compacted(tools)
            return offered, await ask_first_step(agent_loop, prompt, item, offered)

        yield ask


@asynccontextmanager
async def _http(settings: Settings, sidecar: Sidecar) -> AsyncIterator[Ask]:
    seed = settings.llm.seed if settings.llm.seed is not None else 0
    config = daemon_config(seed, settings.llm.sidecar.max_answer_tokens)
    state = settings.state_dir / "daemon"
    async with daemon_asker(sidecar.base_url, state, config, sidecar.api_key) as asker:

        async def ask(item: Item, tools: list[dict[str, Any]]) -> tuple[Offered, Answer]:
            return tools, await asker(item, tools)

        yield ask


_ASKERS = {"direct": _direct, "http": _http, "first-step": _first_step}


async def bench_model(
    settings: Settings,
    items: Sequence[Item],
    modes: Sequence[str],
    *,
    label: str,
    on_result: Callable[[Result], None] | None = None,
) -> tuple[float, list[Result]]:
    """Start the sidecar of ``settings`` (and for ``http`` a daemon on it, its files under the
    state dir's ``daemon/``), ask every item in every mode; (load seconds, results)."""
    results: list[Result] = []
    started = time.perf_counter()
    async with open_sidecar(settings) as sidecar, AsyncExitStack() as stack:
        load_seconds = time.perf_counter() - started
        askers = {
            mode: await stack.enter_async_context(_ASKERS[mode](settings, sidecar))
            for mode in modes
        }
        for item in items:
            tools = to_openai_tools(item.functions)
            for mode in modes:
                offered, answer = await askers[mode](item, tools)
                scored = [(mode, answer)]
                if mode == "direct":
                    scored.append((LENIENT, lenient(answer, offered)))
                for name, read in scored:
                    result = judge(label, name, item, offered, read)
                    results.append(result)
                    if on_result is not None:
                        on_result(result)
    return load_seconds, results
