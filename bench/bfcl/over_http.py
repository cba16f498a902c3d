"""BFCL items sent to a real ``agentd run`` the way an agent framework sends them.

The daemon (:func:`bench._daemon.agentd_daemon`: agentd's defaults as ``make run`` has them,
the HTTP channel, a fresh workdir and state dir) talks to the llama-server the direct mode asks.
Each item is one stateless ``POST /v1/chat/completions`` through the official ``openai`` client:
the item's messages and its functions as ``tools``, no session (agentd keeps nothing). The
reply's ``tool_calls`` are the calls, all of them: parallel calls count only when they come
back together, in the one message.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import openai
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionMessageParam,
    ChatCompletionToolParam,
)

from agentd.config import SidecarSettings
from bench._daemon import agentd_daemon
from bench.agentic import Options
from bench.agentic import daemon_config as agentic_config
from bench.bfcl.answer import Answer
from bench.bfcl.data import Item
from bench.bfcl.scorer import RawCall

#: What the model is called on agentd's API (any name is accepted).
MODEL = "agentd"
#: One turn's bound: a turn may make several model requests (a step asked for again).
TURN_TIMEOUT = 600.0

#: Asks one item with ``tools``; what came back.
AskHttp = Callable[[Item, list[dict[str, Any]]], Awaitable[Answer]]


def daemon_config(seed: int, answer_tokens: int) -> dict[str, Any]:
    """The daemon's settings: the agentic bench's (agentd's defaults, memory on, JSON logs),
    with the direct mode's sampling (temperature 0, ``seed``) and answer cap."""
    sidecar = SidecarSettings(max_answer_tokens=answer_tokens)
    return agentic_config(Options(temperature=0.0, seed=seed, sidecar=sidecar))


def calls_of(completion: ChatCompletion) -> Answer:
    """The calls and text of a completion's first choice (``seconds`` left at 0)."""
    choice = completion.choices[0]
    calls: list[RawCall] = []
    for call in choice.message.tool_calls or []:
        function = getattr(call, "function", None)  # a custom tool call has none
        if function is not None:
            calls.append((function.name, function.arguments))
    return Answer(calls, choice.message.content or "", 0.0, choice.finish_reason)


async def ask_http(client: openai.AsyncOpenAI, item: Item, tools: list[dict[str, Any]]) -> Answer:
    """One stateless request with the item's messages and ``tools``, as a framework sends it."""
    started = time.perf_counter()
    try:
        completion = await client.chat.completions.create(
            model=MODEL,
            messages=cast(list[ChatCompletionMessageParam], item.messages),
            tools=cast(list[ChatCompletionToolParam], tools),
            temperature=0,
        )
    except openai.APIError as exc:  # recorded as a failed request; the run goes on
        return Answer([], "", time.perf_counter() - started, failure=_failure(exc))
    answer = calls_of(completion)
    answer.seconds = time.perf_counter() - started
    return answer


def _failure(exc: openai.APIError) -> str:
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}: {exc.message[:500]}"
    return type(exc).__name__


@asynccontextmanager
async def daemon_asker(
    llama_url: str, tmp: Path, config: dict[str, Any], llama_key: str | None = None
) -> AsyncIterator[AskHttp]:
    """A running daemon on the model server at ``llama_url`` (which requires ``llama_key``, if
    any; its files and log under ``tmp``), and a function that asks it one item; the daemon
    stops on exit."""
    async with (
        agentd_daemon(llama_url, tmp, config, llama_key) as daemon,
        openai.AsyncOpenAI(
            base_url=f"{daemon.url}/v1",
            api_key=daemon.token,
            max_retries=0,
            timeout=TURN_TIMEOUT,
        ) as client,
    ):

        async def ask(item: Item, tools: list[dict[str, Any]]) -> Answer:
            return await ask_http(client, item, tools)

        yield ask
