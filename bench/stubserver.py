"""A fast OpenAI-protocol stub server for benchmarks (asyncio protocol, keep-alive, no framework).

It is a stub, not a model: every chat completion answers a fixed short text after a fixed
latency, so what a benchmark measures around it is the cost of the code in between.

    python -m bench.stubserver --latency-ms 50   # prints "PORT <n>" when listening
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

ANSWER = "The quick brown fox jumps over the lazy dog."
TASKS: set[asyncio.Task[None]] = set()
#: Sizes (bytes) of the chat request bodies received since the last GET /stats.
SIZES: list[int] = []


def _completion(model: str) -> bytes:
    return json.dumps(
        {
            "id": "chatcmpl-bench",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": ANSWER},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 20, "completion_tokens": 10, "total_tokens": 30},
        }
    ).encode()


def _stream(model: str) -> bytes:
    base = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 0, "model": model}
    chunks = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}]
    chunks.extend(
        {**base, "choices": [{"index": 0, "delta": {"content": word + " "}}]}
        for word in ANSWER.split(" ")
    )
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    chunks.append({**base, "choices": [], "usage": {"prompt_tokens": 20, "completion_tokens": 10}})
    body = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks)
    return body + b"data: [DONE]\n\n"


class StubProtocol(asyncio.Protocol):
    latency = 0.0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.buffer = b""

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            head_end = self.buffer.find(b"\r\n\r\n")
            if head_end < 0:
                return
            head = self.buffer[:head_end].decode("latin-1")
            length = 0
            for line in head.split("\r\n")[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            total = head_end + 4 + length
            if len(self.buffer) < total:
                return
            body = self.buffer[head_end + 4 : total]
            self.buffer = self.buffer[total:]
            method, path, _ = head.split(" ", 2)
            task = asyncio.get_running_loop().create_task(self.respond(method, path, body))
            TASKS.add(task)
            task.add_done_callback(TASKS.discard)

    async def respond(self, method: str, path: str, body: bytes) -> None:
        if method == "GET" and path == "/stats":
            payload, ctype = json.dumps({"chat_request_bytes": SIZES}).encode(), "application/json"
            SIZES.clear()
        elif method == "GET":
            payload = b'{"object":"list","data":[{"id":"stub","object":"model"}]}'
            ctype = "application/json"
        elif path.endswith("/embeddings"):
            req = json.loads(body)
            inputs = req["input"] if isinstance(req["input"], list) else [req["input"]]
            data = [{"index": i, "embedding": [0.1] * 8} for i in range(len(inputs))]
            payload, ctype = json.dumps({"data": data}).encode(), "application/json"
        else:
            SIZES.append(len(body))
            req = json.loads(body)
            if self.latency:
                await asyncio.sleep(self.latency)
            model = req.get("model", "stub")
            if req.get("stream"):
                payload, ctype = _stream(model), "text/event-stream"
            else:
                payload, ctype = _completion(model), "application/json"
        if self.transport.is_closing():
            return
        self.transport.write(
            f"HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\nContent-Length: {len(payload)}\r\n"
            "Connection: keep-alive\r\n\r\n".encode()
            + payload
        )


async def serve(port: int, latency: float) -> None:
    StubProtocol.latency = latency
    server = await asyncio.get_running_loop().create_server(StubProtocol, "127.0.0.1", port)
    print("PORT", server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency-ms", type=float, default=0.0)
    args = parser.parse_args()
    try:
        asyncio.run(serve(args.port, args.latency_ms / 1000))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
