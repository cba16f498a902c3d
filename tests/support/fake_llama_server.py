"""A stand-in for ``llama-server``: parses ``--port``, answers ``/health`` (after an optional
loading phase) and ``POST /v1/embeddings`` (a deterministic vector per text: its words hashed
into :data:`DIMENSION` buckets), and otherwise does nothing. It writes
``fake llama-server pid N`` to its log first, so a test can find it and see it gone. Its
behaviour is steered by environment variables:

- ``FAKE_LLAMA_LOADING``: seconds during which /health answers 503 (default 0)
- ``FAKE_LLAMA_FAIL``: exit at once with this status, after a line on stderr

Each embeddings request writes ``embedded N`` (its count of texts) to its log.

Like llama-server, with ``LLAMA_API_KEY`` in its environment it answers every path but
``/health`` with 401 unless the request carries ``Authorization: Bearer <key>``; it writes
``key required`` to its log then (and ``refused PATH`` for each request it turns away).

With ``--slot-save-path DIR`` it keeps llama-server's slot endpoints: ``GET /props`` says
:data:`SLOTS` slots, ``POST /slots/N?action=save`` writes ``DIR/<filename>`` (the slot's
"tokens": N + 1) and ``action=restore`` reads it back.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

DIMENSION = 16
SLOTS = 2
SCRIPT = f"#!{sys.executable}\nimport runpy\nrunpy.run_path({__file__!r}, run_name='__main__')\n"


def pids(log: Path) -> list[int]:
    """The pid of every fake server that wrote to ``log`` (the sidecar's llama-server.log)."""
    if not log.is_file():
        return []
    marker = "fake llama-server pid "
    return [
        int(line.split(marker, 1)[1].split()[0])
        for line in log.read_text().splitlines()
        if marker in line
    ]


def install(directory: Path) -> Path:
    """An executable ``llama-server`` in ``directory`` that runs this module."""
    binary = directory / "llama-server"
    binary.write_text(SCRIPT)
    binary.chmod(0o755)
    return binary


def embedding(text: str) -> list[float]:
    """A unit vector per text: each word adds 1 to the bucket its SHA-256 names."""
    vec = [0.0] * DIMENSION
    for word in text.lower().split():
        vec[hashlib.sha256(word.encode()).digest()[0] % DIMENSION] += 1.0
    norm = sum(v * v for v in vec) ** 0.5 or 1.0
    return [v / norm for v in vec]


class Handler(BaseHTTPRequestHandler):
    """The server's answers; ``main`` binds its key, slot folder and end of loading."""

    key: str | None = None
    slots: Path | None = None
    ready_at = 0.0

    def log_message(self, *args: Any) -> None:
        pass

    def _json(self, status: int, data: Any) -> None:
        raw = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def _slot(self, body: dict[str, Any]) -> None:
        if self.slots is None:
            self._json(501, {"error": {"message": "slot save path not set"}})
            return
        path, _, query = self.path.partition("?")
        slot = int(path.rsplit("/", 1)[1])
        file = self.slots / Path(str(body["filename"])).name
        if "action=save" in query:
            file.write_text(str(slot + 1))
            self._json(200, {"id_slot": slot, "n_saved": slot + 1})
        elif file.is_file():
            self._json(200, {"id_slot": slot, "n_restored": int(file.read_text())})
        else:
            self._json(400, {"error": {"message": "file not found"}})

    def _refused(self) -> bool:
        """Whether the request lacks the key (answered 401 then)."""
        if not self.key or self.path == "/health":
            return False
        if self.headers.get("Authorization") == f"Bearer {self.key}":
            return False
        sys.stdout.write(f"refused {self.path}\n")
        sys.stdout.flush()
        self._json(401, {"error": {"message": "Invalid API Key", "code": 401}})
        return True

    def do_GET(self) -> None:
        if self._refused():
            return
        if self.path == "/props":
            self._json(200, {"total_slots": SLOTS})
            return
        loading = time.monotonic() < self.ready_at
        status = 503 if loading else 200
        raw = json.dumps({"status": "loading model" if loading else "ok"}).encode()
        self.send_response(status if self.path == "/health" else 404)
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_POST(self) -> None:
        raw_body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self._refused():
            return
        if self.path.startswith("/slots/"):
            self._slot(json.loads(raw_body))
            return
        if not self.path.endswith("/embeddings"):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        texts = json.loads(raw_body)["input"]
        texts = [texts] if isinstance(texts, str) else texts
        sys.stdout.write(f"embedded {len(texts)}\n")
        sys.stdout.flush()
        data = [
            {"object": "embedding", "index": i, "embedding": embedding(t)}
            for i, t in enumerate(texts)
        ]
        raw = json.dumps({"object": "list", "data": data, "model": "fake"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


def main(argv: list[str]) -> int:
    if os.environ.get("FAKE_LLAMA_FAIL"):
        sys.stderr.write("error: failed to load model (fake)\n")
        return int(os.environ["FAKE_LLAMA_FAIL"])
    port = int(argv[argv.index("--port") + 1])
    slots = Path(argv[argv.index("--slot-save-path") + 1]) if "--slot-save-path" in argv else None
    ready_at = time.monotonic() + float(os.environ.get("FAKE_LLAMA_LOADING", "0"))
    key = os.environ.get("LLAMA_API_KEY")
    sys.stdout.write(f"fake llama-server pid {os.getpid()} on {port}: {' '.join(argv)}\n")
    if key:
        sys.stdout.write("key required\n")
    sys.stdout.flush()

    bound = {"key": key, "slots": slots, "ready_at": ready_at}
    HTTPServer(("127.0.0.1", port), type("Bound", (Handler,), bound)).serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
