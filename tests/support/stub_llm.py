"""A loopback stub of the OpenAI chat protocol, for tests and benchmarks.

It is a stub, not a model: it answers from a script (or echoes), records every request, and can
inject latency and HTTP errors. It speaks real HTTP on 127.0.0.1, so the code under test runs its
real network path. Streaming answers are sent as SSE chunks in the OpenAI format. ``stop()``
returns at once: answers still waiting out a delay are dropped, as a stopped server would.

Tokens are counted by one deterministic rule, :func:`tokens`: the prompt is laid out by
:func:`render` (the tool schemas as compact JSON, then each message as ``<|role|>`` + its text +
its tool calls + a newline), and every started 4 characters of that are one token. The answer's
``usage.prompt_tokens`` is that count. With ``context`` set the stub refuses a prompt that does
not fit with HTTP 400 in the chosen server's exact wording (:func:`overflow_body`), as the real
servers decide it: llama-server when the prompt alone has ``context`` tokens or more, OpenAI and
vLLM when the prompt plus the ``max_tokens`` asked exceed it. A refused request uses no scripted
reply. With ``context`` and ``wording="llama"``, ``GET /props`` reports it as ``n_ctx``.

Like one llama-server slot it keeps the last prompt and answer as its "KV cache": the tokens of
the longest common prefix with the next prompt (whole tokens, at least one token evaluated) are
reused. ``timings=True`` reports that as llama-server does (``timings.cache_n`` / ``prompt_n``
in the answer and the stream's last chunk), ``cached_tokens=True`` the OpenAI way
(``usage.prompt_tokens_details.cached_tokens``).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Literal

from agentd.engine.guards.check_calls import CHECK_SYSTEM
from agentd.engine.guards.intent import INTENT_HEAD
from agentd.engine.guards.plan import PLAN_HEAD
from agentd.engine.route import ANSWER, QUESTION_HEAD
from tests.support.loopback import LoopbackServer

Wording = Literal["llama", "openai", "vllm"]


@dataclass
class Reply:
    """One scripted answer: text, tool calls (name, arguments dict or raw string), or an error."""

    text: str = ""
    tool_calls: list[tuple[str, Any]] = field(default_factory=list)
    status: int = 200
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    chunk_delay: float = 0.0
    #: An error answer quotes the request's Authorization header, as some servers' errors do.
    echo_authorization: bool = False


def user_words(content: str) -> str:
    """A user message as its user wrote it: without the memory note agentd puts in front
    (:mod:`agentd.memory.recall`: one parenthesised paragraph, then a blank line)."""
    if content.startswith("(") and ")\n\n" in content:
        return content.partition(")\n\n")[2]
    return content


def echo(body: dict[str, Any]) -> Reply:
    """Default: answer ``echo: <last user message>`` (its words, without a memory note)."""
    last = next((m for m in reversed(body["messages"]) if m["role"] == "user"), {"content": ""})
    return Reply(text=f"echo: {user_words(str(last['content'] or ''))}")


def render(body: dict[str, Any]) -> str:
    """The prompt of a chat request as the stub lays it out; :func:`tokens` counts this."""
    head = ""
    if body.get("tools"):
        head = "<|tools|>" + json.dumps(body["tools"], separators=(",", ":"), sort_keys=True) + "\n"
    return head + "".join(_render_message(m) for m in body.get("messages") or [])


def tokens(body: dict[str, Any]) -> int:
    """The prompt tokens the stub counts for a chat request: one per started 4 characters."""
    return -(-len(render(body)) // 4)


def _render_message(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):
        content = "".join(str(part.get("text") or "") for part in content)
    calls = "".join(
        f"<|call|>{call['function']['name']}{call['function']['arguments']}"
        for call in message.get("tool_calls") or []
    )
    return f"<|{message.get('role')}|>{content}{calls}\n"


def _asked_output(body: dict[str, Any]) -> int:
    value = body.get("max_completion_tokens", body.get("max_tokens"))
    return value if isinstance(value, int) and value > 0 else 0


def overflow_body(wording: Wording, prompt: int, output: int, context: int) -> dict[str, Any]:
    """A refused request's error body, word for word as the named server writes it."""
    if wording == "llama":
        message = (
            f"request ({prompt} tokens) exceeds the available context size ({context} tokens), "
            "try increasing it"
        )
        return {
            "error": {
                "code": 400,
                "message": message,
                "type": "exceed_context_size_error",
                "n_prompt_tokens": prompt,
                "n_ctx": context,
            }
        }
    if wording == "openai":
        if output:
            asked = (
                f"you requested {prompt + output} tokens ({prompt} in the messages, "
                f"{output} in the completion). Please reduce the length of the messages or "
                "completion."
            )
        else:
            asked = (
                f"your messages resulted in {prompt} tokens. Please reduce the length of the "
                "messages."
            )
        return {
            "error": {
                "message": f"This model's maximum context length is {context} tokens. However, "
                + asked,
                "type": "invalid_request_error",
                "param": "messages",
                "code": "context_length_exceeded",
            }
        }
    message = (
        f"You passed {prompt} input tokens and requested {output} output tokens. However, the "
        f"model's context length is only {context} tokens, resulting in a maximum input length "
        f"of {context - output} tokens. Please reduce the length of the input prompt. "
        f"(parameter=input_tokens, value={prompt})"
    )
    return {
        "error": {
            "message": message,
            "type": "BadRequestError",
            "param": "input_tokens",
            "code": 400,
        }
    }


@dataclass(frozen=True)
class _Prompt:
    """One answered prompt's size and the part of it reused from the stub's cache."""

    total: int
    cached: int


class StubLLM:
    """Scripted OpenAI-compatible server: ``script`` replies in order, then ``fallback``.

    ``context`` (tokens) and ``wording`` make it refuse prompts that do not fit; ``timings``
    and ``cached_tokens`` make it report its prompt cache (see the module docstring). All four
    may be changed while it runs.
    """

    def __init__(
        self,
        *,
        latency: float = 0.0,
        embed_dim: int = 16,
        context: int | None = None,
        wording: Wording = "llama",
        timings: bool = False,
        cached_tokens: bool = False,
    ) -> None:
        self.script: deque[Reply] = deque()
        self.fallback: Callable[[dict[str, Any]], Reply] = echo
        self.requests: list[dict[str, Any]] = []
        self.rejected: list[dict[str, Any]] = []
        #: agentd's "is this call needed?" checks (default.check_calls): answered with
        #: ``check_answer`` apart from the script, and kept here instead of ``requests``.
        self.checks: list[dict[str, Any]] = []
        self.check_answer = "yes"
        #: agentd's intent questions (default.guards.intent): answered with
        #: ``intent_answer`` apart from the script, and kept here instead of ``requests``.
        self.intents: list[dict[str, Any]] = []
        self.intent_answer = "action"
        #: The plan questions (their system message opens with PLAN_HEAD), answered with
        #: ``plan_answer`` apart from the script.
        self.plans: list[dict[str, Any]] = []
        self.plan_answer = "none"
        #: agentd's routing questions (default.route_tools), kept here instead of ``requests``
        #: and answered with ``route_answer``, or else with what the script does next: the
        #: name of its next reply's first tool call, or "answer".
        self.routes: list[dict[str, Any]] = []
        self.route_answer: str | None = None
        self.latency = latency
        self.embed_dim = embed_dim
        self.context = context
        self.wording: Wording = wording
        self.timings = timings
        self.cached_tokens = cached_tokens
        self._cache = ""
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._server: LoopbackServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return self._server.url

    def add(self, *replies: Reply) -> None:
        self.script.extend(replies)

    def _refusal(self, body: dict[str, Any]) -> dict[str, Any] | None:
        """The 400 body for a prompt that does not fit ``context``, else None (and recorded)."""
        context = self.context
        if context is None:
            return None
        prompt, output = tokens(body), _asked_output(body)
        fits = prompt < context if self.wording == "llama" else prompt + output <= context
        if fits:
            return None
        with self._lock:
            self.requests.append(body)
            self.rejected.append(body)
        return overflow_body(self.wording, prompt, output, context)

    def _next_route(self) -> str:
        """What the script does next, as a routing answer (call with the lock held)."""
        upcoming = self.script[0] if self.script else None
        if upcoming is not None and upcoming.tool_calls:
            return str(upcoming.tool_calls[0][0])
        return ANSWER

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if self.script:
                return self.script.popleft()
        return self.fallback(body)

    def _evaluate(self, body: dict[str, Any], reply: Reply) -> _Prompt:
        """Count the prompt, reuse the cached prefix, and cache this prompt and its answer."""
        text = render(body)
        total = -(-len(text) // 4)
        answer = {"role": "assistant", "content": reply.text, "tool_calls": _tool_calls(reply)}
        with self._lock:
            same = 0
            for old, new in zip(self._cache, text, strict=False):
                if old != new:
                    break
                same += 1
            self._cache = text + _render_message(answer)
        return _Prompt(total, max(0, min(same // 4, total - 1)))

    def embedding(self, text: str) -> list[float]:
        """A deterministic unit vector per text (words hashed into buckets)."""
        vec = [0.0] * self.embed_dim
        for word in text.lower().split():
            digest = hashlib.sha256(word.encode()).digest()
            vec[digest[0] % self.embed_dim] += 1.0
        norm = sum(v * v for v in vec) ** 0.5 or 1.0
        return [v / norm for v in vec]

    def start(self) -> None:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out as separate writes: without TCP_NODELAY, Nagle and
            # delayed ACKs add ~40 ms to every keep-alive answer.
            disable_nagle_algorithm = True

            def log_message(self, *args: Any) -> None:
                pass

            def _json(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(raw)

            def do_GET(self) -> None:
                if self.path.rstrip("/") in ("/v1/models", "/models"):
                    self._json(200, {"object": "list", "data": [{"id": "stub", "object": "model"}]})
                elif self.path == "/props" and stub.context and stub.wording == "llama":
                    settings = {"n_ctx": stub.context, "params": {}}
                    self._json(200, {"default_generation_settings": settings, "total_slots": 1})
                elif self.path == "/health":
                    self._json(200, {"status": "ok"})
                else:
                    self._json(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path.endswith("/embeddings"):
                    inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                    with stub._lock:
                        stub.requests.append(body)
                    data = [
                        {"object": "embedding", "index": i, "embedding": stub.embedding(t)}
                        for i, t in enumerate(inputs)
                    ]
                    self._json(200, {"object": "list", "data": data, "model": "stub"})
                    return
                messages = body.get("messages") or [{}]
                opening = str(messages[0].get("content") or "")
                if opening == CHECK_SYSTEM or opening.startswith((INTENT_HEAD, PLAN_HEAD)):
                    check = messages[0].get("content") == CHECK_SYSTEM
                    planned = opening.startswith(PLAN_HEAD)
                    with stub._lock:
                        asked = stub.plans if planned else stub.intents
                        (stub.checks if check else asked).append(body)
                    word = stub.check_answer if check else stub.intent_answer
                    word = stub.plan_answer if planned else word
                    message = {"role": "assistant", "content": word}
                    choice = {"index": 0, "message": message, "finish_reason": "stop"}
                    self._json(200, {"choices": [choice], "model": "stub"})
                    return
                if str(messages[-1].get("content") or "").startswith(QUESTION_HEAD):
                    with stub._lock:
                        stub.routes.append(body)
                        word = stub.route_answer or stub._next_route()
                    message = {"role": "assistant", "content": word}
                    choice = {"index": 0, "message": message, "finish_reason": "stop"}
                    self._json(200, {"choices": [choice], "model": "stub"})
                    return
                refusal = stub._refusal(body)
                if refusal is not None:
                    self._json(400, refusal)
                    return
                reply = stub._next(body)
                delay = reply.delay or stub.latency
                if delay and stub._stopped.wait(delay):
                    self.close_connection = True
                    return
                if reply.status != 200:
                    message = reply.text or "injected"
                    if reply.echo_authorization:
                        message += f"; Authorization: {self.headers.get('Authorization')}"
                    self._json(reply.status, {"error": {"message": message}}, reply.headers)
                    return
                report = _Report(stub._evaluate(body, reply), stub.timings, stub.cached_tokens)
                if body.get("stream"):
                    self._stream(body, reply, report)
                else:
                    self._json(200, _completion(body, reply, report))

            def _stream(self, body: dict[str, Any], reply: Reply, report: _Report) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                for chunk in _chunks(body, reply, report):
                    self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
                    self.wfile.flush()
                    if reply.chunk_delay and stub._stopped.wait(reply.chunk_delay):
                        return
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()

        self._stopped.clear()
        self._server = LoopbackServer(Handler)
        self._server.start()

    def stop(self) -> None:
        """Close the port now and drop answers still waiting out a delay."""
        self._stopped.set()
        if self._server is not None:
            self._server.stop()


@dataclass(frozen=True)
class _Report:
    """What an answer says about its prompt: the counts, and which cache reports to add."""

    prompt: _Prompt
    timings: bool
    cached_tokens: bool


def _usage(reply: Reply, report: _Report) -> dict[str, Any]:
    prompt = report.prompt.total
    completion = max(1, len(reply.text) // 4)
    usage: dict[str, Any] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }
    if report.cached_tokens:
        usage["prompt_tokens_details"] = {"cached_tokens": report.prompt.cached}
    return usage


def _timings(reply: Reply, report: _Report) -> dict[str, Any]:
    cached = report.prompt.cached
    return {
        "cache_n": cached,
        "prompt_n": report.prompt.total - cached,
        "prompt_ms": 1.0,
        "predicted_n": max(1, len(reply.text) // 4),
        "predicted_ms": 1.0,
    }


def _tool_calls(reply: Reply) -> list[dict[str, Any]]:
    calls = []
    for i, (name, args) in enumerate(reply.tool_calls):
        raw = args if isinstance(args, str) else json.dumps(args)
        calls.append(
            {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": raw}}
        )
    return calls


def _completion(body: dict[str, Any], reply: Reply, report: _Report) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    if reply.tool_calls:
        message["tool_calls"] = _tool_calls(reply)
    answer: dict[str, Any] = {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "stub"),
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if reply.tool_calls else "stop",
            }
        ],
        "usage": _usage(reply, report),
    }
    if report.timings:
        answer["timings"] = _timings(reply, report)
    return answer


def _chunks(body: dict[str, Any], reply: Reply, report: _Report) -> Iterator[dict[str, Any]]:
    """The stream's chunks; llama-server's timings ride on the last one."""
    chunks = list(_stream_chunks(body, reply, report))
    if report.timings:
        chunks[-1] = {**chunks[-1], "timings": _timings(reply, report)}
    return iter(chunks)


def _stream_chunks(body: dict[str, Any], reply: Reply, report: _Report) -> Iterator[dict[str, Any]]:
    base = {
        "id": "chatcmpl-stub",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", "stub"),
    }
    yield {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}
    words = reply.text.split(" ")
    for i, word in enumerate(words):
        piece = word if i == 0 else " " + word
        if piece:
            yield {**base, "choices": [{"index": 0, "delta": {"content": piece}}]}
    for i, call in enumerate(_tool_calls(reply)):
        args = call["function"]["arguments"]
        half = len(args) // 2
        yield {
            **base,
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {
                                "index": i,
                                "id": call["id"],
                                "type": "function",
                                "function": {
                                    "name": call["function"]["name"],
                                    "arguments": args[:half],
                                },
                            }
                        ]
                    },
                }
            ],
        }
        yield {
            **base,
            "choices": [
                {
                    "index": 0,
                    "delta": {"tool_calls": [{"index": i, "function": {"arguments": args[half:]}}]},
                }
            ],
        }
    finish = "tool_calls" if reply.tool_calls else "stop"
    yield {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}
    if (body.get("stream_options") or {}).get("include_usage"):
        yield {**base, "choices": [], "usage": _usage(reply, report)}


@contextmanager
def running_stub(**kwargs: Any) -> Iterator[StubLLM]:
    stub = StubLLM(**kwargs)
    stub.start()
    try:
        yield stub
    finally:
        stub.stop()
