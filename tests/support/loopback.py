"""A threaded HTTP server on 127.0.0.1 for the test stubs, stopped at once.

``socketserver``'s ``serve_forever`` notices ``shutdown()`` only when its ``select`` times out
(every ``poll_interval``, 0.5 s by default), so every test that stops a stub waited for it. This
server's loop also watches one end of a socket pair: ``stop()`` writes to the other end, and the
loop returns immediately. Handler threads are daemon threads; ``stop()`` does not wait for them.
"""

from __future__ import annotations

import selectors
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class LoopbackServer(ThreadingHTTPServer):
    """A ``ThreadingHTTPServer`` on a free loopback port; ``stop()`` returns at once."""

    daemon_threads = True
    # The default backlog of 5 resets connections when many turns call a stub at once.
    request_queue_size = 256

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        super().__init__(("127.0.0.1", 0), handler)
        self._wake_r, self._wake_w = socket.socketpair()
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> None:
        self._thread = threading.Thread(target=self._serve, name="loopback-server", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self, selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            while True:
                ready = {key.fileobj for key, _ in selector.select()}
                if self._wake_r in ready:
                    return
                # The listening socket is readable, so this accepts without waiting.
                self.handle_request()

    def stop(self) -> None:
        """Stop accepting and close the listening socket now; safe to call twice."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._wake_w.send(b"\0")
        thread.join()
        self.server_close()
        self._wake_r.close()
        self._wake_w.close()

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that went away (killed daemon, cancelled turn or long poll) is expected here.
        pass
