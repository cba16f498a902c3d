"""A looking call written a second time in one step ends the step (agentd.model.repeats)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from agentd.messages import user
from agentd.model.choice import CallRule
from agentd.model.repeats import RepeatWatch
from agentd.model.usage import Usage
from tests.model.test_client import completion, delta, make_client

pytestmark = pytest.mark.anyio

READ = '```json\n{\n  "name": "read_file",\n  "arguments": {\n    "path": "a.txt"\n  }\n}\n```\n'
READ_B = READ.replace("a.txt", "b.txt")
APPEND = '```json\n{"name": "append_file", "arguments": {"path": "a.txt", "text": "x"}}\n```\n'
NAMES = frozenset({"read_file", "append_file"})
LOOKING = frozenset({"read_file"})
TOOLS = [
    {"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
    for n in sorted(NAMES)
]
PROPS = {"chat_template": "{{ messages }}", "default_generation_settings": {"n_ctx": 4096}}


def _ids() -> Iterator[str]:
    n = 0
    while True:
        n += 1
        yield f"call_{n}"


def _watch() -> RepeatWatch:
    ids = _ids()
    return RepeatWatch(NAMES, LOOKING, lambda: next(ids))


def _pieces(text: str, size: int = 7) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def _fed(watch: RepeatWatch, text: str) -> int | None:
    """How many characters were fed when the watch said to cut, or None."""
    fed = 0
    for piece in _pieces(text):
        fed += len(piece)
        if watch.feed(piece):
            return fed
    return None


def test_a_looking_call_written_again_is_cut_after_the_first() -> None:
    watch = _watch()
    at = _fed(watch, READ + READ + READ)
    assert at is not None and len(READ) < at < 2 * len(READ) + 7  # within a piece
    assert watch.kept.strip() == READ.strip()


def test_the_same_arguments_in_another_order_or_spacing_are_the_same_call() -> None:
    again = '```json\n{"arguments": {"path": "a.txt"}, "name": "read_file"}\n```\n'
    watch = _watch()
    assert _fed(watch, READ + again) is not None


def test_distinct_calls_and_repeated_acting_calls_run_on() -> None:
    assert _fed(_watch(), READ + READ_B + APPEND + APPEND) is None  # two appends: two acts
    watch = _watch()
    assert _fed(watch, READ + APPEND + READ_B + READ_B) is not None
    assert watch.kept.strip() == (READ + APPEND + READ_B).strip()


def test_prose_is_never_cut() -> None:
    assert _fed(_watch(), "The file says {a} and {a} and ``` twice ```.") is None


def test_a_stream_cut_short_counts_its_tokens_from_the_last_timings() -> None:
    usage = Usage.from_openai(None, {"cache_n": 1500, "prompt_n": 40, "predicted_n": 90})
    assert (usage.prompt_tokens, usage.completion_tokens, usage.cached_tokens) == (1540, 90, 1500)
    assert usage.evaluated_tokens == 40
    reported = Usage.from_openai({"prompt_tokens": 7, "completion_tokens": 3}, {"prompt_n": 2})
    assert (reported.prompt_tokens, reported.completion_tokens) == (7, 3)


class RepeatingServer:
    """Streams READ three times, a few characters a chunk; records how far it was read."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.sent = 0
        self.chunks = 0

    async def _stream(self) -> AsyncIterator[bytes]:
        pieces = _pieces(READ * 3)
        self.chunks = len(pieces)
        for n, piece in enumerate(pieces, 1):
            self.sent = n
            chunk = delta(content=piece)
            chunk["timings"] = {"cache_n": 100, "prompt_n": 20, "predicted_n": n}
            yield b"data: " + json.dumps(chunk).encode() + b"\n\n"
        yield b"data: [DONE]\n\n"

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/props":
            return httpx.Response(200, json=PROPS)
        body = json.loads(request.content)
        self.bodies.append(body)
        if not body.get("stream"):
            return httpx.Response(200, json=completion(READ * 3))
        return httpx.Response(200, content=self._stream())


@pytest.mark.parametrize("streamed", [False, True])
async def test_the_client_stops_reading_at_the_repeat(streamed: bool) -> None:
    server = RepeatingServer()
    client = make_client(server, tool_grammar="on")
    rule = CallRule(once=LOOKING)
    if streamed:
        events = [e async for e in client.stream([user("a?")], TOOLS, NAMES, rule=rule)]
        result = events[-1].result  # type: ignore[union-attr]
    else:
        result = await client.chat([user("a?")], TOOLS, NAMES, rule=rule)
    body = server.bodies[0]
    assert body["stream"] is True and body["timings_per_token"] is True
    [call] = result.message.tool_calls
    assert call.name == "read_file" and json.loads(call.arguments) == {"path": "a.txt"}
    assert server.sent < 2 * server.chunks / 3  # the third copy was never generated
    assert result.usage.prompt_tokens == 120 and result.usage.completion_tokens == server.sent
    assert result.message.content == ""
    assert result.message.metadata["written"]["text"].strip() == READ.strip()


async def test_without_looking_tools_a_step_is_not_cut() -> None:
    server = RepeatingServer()
    client = make_client(server, tool_grammar="on")
    result = await client.chat([user("a?")], TOOLS, NAMES)
    assert "stream" not in server.bodies[0] and "timings_per_token" not in server.bodies[0]
    assert [c.name for c in result.message.tool_calls] == ["read_file"] * 3
