"""A stand-in for ``llama-server``: parses ``--port``, answers ``/health`` (after an optional
loading phase), and otherwise does nothing. Its behaviour is steered by environment variables:

- ``FAKE_LLAMA_LOADING``: seconds during which /health answers 503 (default 0)
- ``FAKE_LLAMA_FAIL``: exit at once with this status, after a line on stderr
"""

from __future__ import annotations

import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

SCRIPT = f"#!{sys.executable}\nimport runpy\nrunpy.run_path({__file__!r}, run_name='__main__')\n"


def install(directory: Path) -> Path:
    """An executable ``llama-server`` in ``directory`` that runs this module."""
    binary = directory / "llama-server"
    binary.write_text(SCRIPT)
    binary.chmod(0o755)
    return binary


def main(argv: list[str]) -> int:
    if os.environ.get("FAKE_LLAMA_FAIL"):
        sys.stderr.write("error: failed to load model (fake)\n")
        return int(os.environ["FAKE_LLAMA_FAIL"])
    port = int(argv[argv.index("--port") + 1])
    ready_at = time.monotonic() + float(os.environ.get("FAKE_LLAMA_LOADING", "0"))
    sys.stdout.write(f"fake llama-server pid {os.getpid()} on {port}: {' '.join(argv)}\n")
    sys.stdout.flush()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            loading = time.monotonic() < ready_at
            status = 503 if loading else 200
            raw = json.dumps({"status": "loading model" if loading else "ok"}).encode()
            self.send_response(status if self.path == "/health" else 404)
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

    HTTPServer(("127.0.0.1", port), Handler).serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
