"""A loopback fake of the Telegram Bot API, for tests: scripted updates and injected failures.

It keeps updates like Telegram does: ``getUpdates`` long-polls, returns updates at or above the
last ``offset`` it was given, and forgets the ones below it. ``sendMessage`` checks the length
limit and that HTML is well formed (as Telegram's entity parser would), and records what it
accepted. ``fail(method, ...)`` queues faults for the next calls of a method: an HTTP 500, a
dropped connection, a 429 with ``retry_after``, or a "can't parse entities" 400.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
import time
from collections import defaultdict, deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.support.loopback import LoopbackServer

TOKEN = "123456789:AAE-fake_token_for_tests_0123456789"
BOT_ID = 999
BOT_USERNAME = "agentd_bot"
HTML_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre"}


@dataclass(frozen=True)
class Fault:
    """One injected failure: ``kind`` is "500", "drop", "429" or "parse"."""

    kind: str
    retry_after: float = 0.0


@dataclass(frozen=True)
class Call:
    method: str
    params: dict[str, Any]
    at: float


class _HTMLCheck(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.error: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in HTML_TAGS:
            self.error = f'unsupported start tag "{tag}"'
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.error = f'can\'t find end tag corresponding to start tag "{tag}"'


def _html_error(text: str) -> str | None:
    check = _HTMLCheck()
    check.feed(text)
    check.close()
    if check.error is None and check.stack:
        check.error = f'can\'t find end tag corresponding to start tag "{check.stack[-1]}"'
    if check.error is None and ("<" in _strip_tags(text)):
        check.error = "unescaped '<'"
    return check.error


def _strip_tags(text: str) -> str:
    return re.sub(r"</?[a-z]+(?:\s[^>]*)?>", "", text)


class FakeTelegram:
    """The fake Bot API server (``start``/``stop``, or the ``running_fake`` context manager)."""

    def __init__(self, token: str = TOKEN) -> None:
        self.token = token
        self.updates: list[dict[str, Any]] = []
        self.confirmed = 0
        self.calls: list[Call] = []
        self.faults: dict[str, deque[Fault]] = defaultdict(deque)
        self._ids = itertools.count(100)
        self._message_ids = itertools.count(5000)
        self._cond = threading.Condition()
        self._server: LoopbackServer | None = None
        self._stopping = False

    @property
    def url(self) -> str:
        assert self._server is not None
        return self._server.url

    def message(
        self,
        chat_id: int,
        text: str,
        *,
        user_id: int | None = None,
        username: str | None = None,
        chat_type: str = "private",
        reply_to_bot: bool = False,
    ) -> int:
        """Queue an incoming text message; return its update_id."""
        sender: dict[str, Any] = {"id": user_id if user_id is not None else chat_id}
        sender.update(is_bot=False, first_name="Test")
        if username:
            sender["username"] = username
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": chat_type},
            "from": sender,
            "text": text,
        }
        if reply_to_bot:
            message["reply_to_message"] = {
                "message_id": 1,
                "from": {"id": BOT_ID, "is_bot": True, "username": BOT_USERNAME},
                "chat": {"id": chat_id, "type": chat_type},
                "text": "earlier answer",
            }
        with self._cond:
            update_id = next(self._ids)
            self.updates.append({"update_id": update_id, "message": message})
            self._cond.notify_all()
        return update_id

    def fail(self, method: str, *faults: Fault) -> None:
        """Make the next calls of ``method`` fail, one fault per call, in order."""
        with self._cond:
            self.faults[method].extend(faults)

    def called(self, method: str) -> list[Call]:
        with self._cond:
            return [c for c in self.calls if c.method == method]

    def sent(self, chat_id: int | None = None) -> list[dict[str, Any]]:
        """sendMessage params the fake accepted (optionally for one chat), in order."""
        return [
            c.params
            for c in self.called("sendMessage:ok")
            if chat_id is None or str(c.params["chat_id"]) == str(chat_id)
        ]

    def _record(self, method: str, params: dict[str, Any]) -> None:
        with self._cond:
            self.calls.append(Call(method, params, time.monotonic()))

    def _fault(self, method: str) -> Fault | None:
        with self._cond:
            queue = self.faults.get(method)
            return queue.popleft() if queue else None

    def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = params.get("offset")
        limit = int(params.get("limit") or 100)
        deadline = time.monotonic() + float(params.get("timeout") or 0)
        with self._cond:
            if offset is not None:
                self.confirmed = max(self.confirmed, int(offset))
                self.updates = [u for u in self.updates if u["update_id"] >= self.confirmed]
            while True:
                ready = [u for u in self.updates if u["update_id"] >= self.confirmed][:limit]
                left = deadline - time.monotonic()
                if ready or left <= 0 or self._stopping:
                    return ready
                self._cond.wait(min(left, 0.5))

    def answer(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """The status and JSON body for one successful-path call."""
        if method == "getMe":
            me = {"id": BOT_ID, "is_bot": True, "first_name": "agentd", "username": BOT_USERNAME}
            return 200, {"ok": True, "result": me}
        if method == "getUpdates":
            return 200, {"ok": True, "result": self._get_updates(params)}
        if method == "sendChatAction":
            return 200, {"ok": True, "result": True}
        if method == "sendMessage":
            text = str(params.get("text") or "")
            if not text:
                return 400, _error(400, "Bad Request: message text is empty")
            if len(text.encode("utf-16-le")) // 2 > 4096:
                return 400, _error(400, "Bad Request: message is too long")
            if params.get("parse_mode") == "HTML" and (problem := _html_error(text)):
                return 400, _error(400, f"Bad Request: can't parse entities: {problem}")
            self._record("sendMessage:ok", params)
            result = {"message_id": next(self._message_ids), "chat": {"id": params["chat_id"]}}
            return 200, {"ok": True, "result": {**result, "text": text}}
        return 404, _error(404, "Not Found")

    def start(self) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b"{}"
                params = json.loads(raw or b"{}")
                prefix = f"/bot{fake.token}/"
                if not self.path.startswith(prefix):
                    self._json(401, _error(401, "Unauthorized"))
                    return
                method = self.path[len(prefix) :]
                fake._record(method, params)
                fault = fake._fault(method)
                if fault is not None and fault.kind == "drop":
                    self.close_connection = True
                    return
                if fault is not None and fault.kind == "500":
                    self._json(500, _error(500, "Internal Server Error"))
                    return
                if fault is not None and fault.kind == "429":
                    body = _error(429, f"Too Many Requests: retry after {fault.retry_after}")
                    body["parameters"] = {"retry_after": fault.retry_after}
                    self._json(429, body)
                    return
                if fault is not None and fault.kind == "parse" and params.get("parse_mode"):
                    self._json(400, _error(400, "Bad Request: can't parse entities: injected"))
                    return
                self._json(*fake.answer(method, params))

            def _json(self, status: int, data: dict[str, Any]) -> None:
                body = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._server = LoopbackServer(Handler)
        self._server.start()

    def stop(self) -> None:
        """Close the port now; long polls still held open return at once."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._server is not None:
            self._server.stop()


def _error(code: int, description: str) -> dict[str, Any]:
    return {"ok": False, "error_code": code, "description": description}


@contextmanager
def running_fake(**kwargs: Any) -> Iterator[FakeTelegram]:
    fake = FakeTelegram(**kwargs)
    fake.start()
    try:
        yield fake
    finally:
        fake.stop()
