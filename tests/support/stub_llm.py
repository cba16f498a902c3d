"""A loopback stub of the OpenAI chat protocol, for tests and benchmarks.

It is a stub, not a model: it answers from a script (or echoes), records every request, and can
inject latency and HTTP errors. It speaks real HTTP on 127.0.0.1, so the code under test runs its
real network path. Streaming answers are sent as SSE chunks in the OpenAI format. ``stop()``
returns at once: answers still waiting out a delay are dropped, as a stopped server would.
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
from typing import Any

from tests.support.loopback import LoopbackServer


@dataclass
class Reply:
    """One scripted answer: text, tool calls (name, arguments dict or raw string), or an error."""

    text: str = ""
    tool_calls: list[tuple[str, Any]] = field(default_factory=list)
    status: int = 200
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    chunk_delay: float = 0.0


def echo(body: dict[str, Any]) -> Reply:
    """Default: answer ``echo: <last user message>``."""
    last = next((m for m in reversed(body["messages"]) if m["role"] == "user"), {"content": ""})
    return Reply(text=f"echo: {last['content']}")


class StubLLM:
    """Scripted OpenAI-compatible server: ``script`` replies in order, then ``fallback``."""

    def __init__(self, *, latency: float = 0.0, embed_dim: int = 16) -> None:
        self.script: deque[Reply] = deque()
        self.fallback: Callable[[dict[str, Any]], Reply] = echo
        self.requests: list[dict[str, Any]] = []
        self.latency = latency
        self.embed_dim = embed_dim
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._server: LoopbackServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return self._server.url

    def add(self, *replies: Reply) -> None:
        self.script.extend(replies)

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if self.script:
                return self.script.popleft()
        return self.fallback(body)

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
                reply = stub._next(body)
                delay = reply.delay or stub.latency
                if delay and stub._stopped.wait(delay):
                    self.close_connection = True
                    return
                if reply.status != 200:
                    self._json(
                        reply.status,
                        {"error": {"message": reply.text or "injected"}},
                        reply.headers,
                    )
                    return
                if body.get("stream"):
                    self._stream(body, reply)
                else:
                    self._json(200, _completion(body, reply))

            def _stream(self, body: dict[str, Any], reply: Reply) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                for chunk in _chunks(body, reply):
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


def _usage(body: dict[str, Any], reply: Reply) -> dict[str, int]:
    prompt = sum(len(str(m.get("content") or "")) for m in body["messages"]) // 4 + 1
    completion = max(1, len(reply.text) // 4)
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def _tool_calls(reply: Reply) -> list[dict[str, Any]]:
    calls = []
    for i, (name, args) in enumerate(reply.tool_calls):
        raw = args if isinstance(args, str) else json.dumps(args)
        calls.append(
            {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": raw}}
        )
    return calls


def _completion(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    if reply.tool_calls:
        message["tool_calls"] = _tool_calls(reply)
    return {
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
        "usage": _usage(body, reply),
    }


def _chunks(body: dict[str, Any], reply: Reply) -> Iterator[dict[str, Any]]:
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
        yield {**base, "choices": [], "usage": _usage(body, reply)}


@contextmanager
def running_stub(**kwargs: Any) -> Iterator[StubLLM]:
    stub = StubLLM(**kwargs)
    stub.start()
    try:
        yield stub
    finally:
        stub.stop()
