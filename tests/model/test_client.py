"""The OpenAI-compatible client, driven through httpx.MockTransport (no network)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest

from agentd.errors import ContextExceeded, LLMResponseError, LLMStatusError, LLMUnavailable
from agentd.messages import Message, system, user
from agentd.model import client as llm_module
from agentd.model.client import (
    ChatResult,
    Completed,
    LLMClient,
    TextDelta,
    Usage,
    api_root,
    server_root,
)

pytestmark = pytest.mark.anyio

Handler = Callable[[httpx.Request], httpx.Response]


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Backoff sleeps are recorded instead of waited."""
    recorded: list[float] = []

    async def fake_sleep(delay: float) -> None:
        recorded.append(delay)

    monkeypatch.setattr(llm_module.anyio, "sleep", fake_sleep)
    return recorded


def make_client(handler: Handler, **kwargs: Any) -> LLMClient:
    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    kwargs.setdefault("backoff_base", 0.001)
    return LLMClient(http, base_url="http://llm.test:8080", model="m", **kwargs)


def completion(content: str | None = "hi", tool_calls: list[Any] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls is not None:
        message["tool_calls"] = tool_calls
    return {
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10},
    }


def sse(*chunks: Any, done: bool = True) -> bytes:
    out = b""
    for chunk in chunks:
        data = chunk if isinstance(chunk, str) else json.dumps(chunk)
        out += b"data: " + data.encode() + b"\n\n"
    if done:
        out += b"data: [DONE]\n\n"
    return out


def delta(**fields: Any) -> dict[str, Any]:
    finish = fields.pop("finish_reason", None)
    return {"choices": [{"index": 0, "delta": fields, "finish_reason": finish}]}


async def collect(client: LLMClient, *args: Any, **kwargs: Any) -> tuple[str, ChatResult]:
    shown = []
    result = None
    async for event in client.stream(*args, **kwargs):
        if isinstance(event, TextDelta):
            shown.append(event.text)
        else:
            assert isinstance(event, Completed)
            result = event.result
    assert result is not None
    return "".join(shown), result


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        pytest.param("http://h:8080", "http://h:8080/v1", id="root"),
        pytest.param("http://h:8080/", "http://h:8080/v1", id="root-slash"),
        pytest.param("http://h:8080/v1/", "http://h:8080/v1", id="v1-slash"),
        pytest.param("https://api.example/openai/v1", "https://api.example/openai/v1", id="path"),
    ],
)
def test_api_root(given: str, expected: str) -> None:
    """A server root and its /v1 URL both address the same API root."""
    assert api_root(given) == expected


async def test_chat_sends_model_messages_tools_and_key() -> None:
    """chat() posts the model, messages, tools and bearer key, and parses the answer."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=completion("hello"))

    client = make_client(handler, api_key="sk-123", temperature=0.2, seed=5)
    tools = [{"type": "function", "function": {"name": "t", "parameters": {}}}]
    result = await client.chat([system("s"), user("hi")], tools, frozenset({"t"}))
    assert result.message.role == "assistant" and result.message.content == "hello"
    assert result.usage == Usage(7, 3) and result.usage.total_tokens == 10
    assert result.finish_reason == "stop"
    request = seen[0]
    assert str(request.url) == "http://llm.test:8080/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-123"
    body = json.loads(request.content)
    assert body["model"] == "m" and body["tools"] == tools
    assert body["temperature"] == 0.2 and body["seed"] == 5
    assert body["messages"] == [
        {"role": "system", "content": "s"},
        {"role": "user", "content": "hi"},
    ]
    assert "stream" not in body


async def test_chat_without_key_or_tools_sends_neither() -> None:
    """No api key means no Authorization header; no tools means no tools field."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=completion(None))

    result = await make_client(handler).chat([user("hi")])
    assert result.message.content == ""
    assert "authorization" not in seen[0].headers
    assert "tools" not in json.loads(seen[0].content)


async def test_chat_parses_native_tool_calls() -> None:
    """tool_calls of the answer become ToolCalls; dict arguments are serialised."""
    calls = [
        {"id": "a", "type": "function", "function": {"name": "f", "arguments": '{"x": 1}'}},
        {"type": "function", "function": {"name": "g", "arguments": {"y": 2}}},
    ]
    client = make_client(lambda r: httpx.Response(200, json=completion("", calls)))
    result = await client.chat([user("hi")], tool_names=frozenset({"f", "g"}))
    first, second = result.message.tool_calls
    assert (first.id, first.name, first.arguments) == ("a", "f", '{"x": 1}')
    assert second.name == "g" and json.loads(second.arguments) == {"y": 2}
    assert second.id.startswith("call_")


async def test_chat_turns_text_tool_calls_into_tool_calls() -> None:
    """A <tool_call> block in the content becomes a tool call when tools are offered."""
    text = 'Let me check. <tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>'
    client = make_client(lambda r: httpx.Response(200, json=completion(text)))
    result = await client.chat([user("hi")], tool_names=frozenset({"f"}))
    assert result.message.content == "Let me check."
    assert [c.name for c in result.message.tool_calls] == ["f"]


async def test_chat_leaves_text_alone_without_tools() -> None:
    """With no tools offered, tool-call-looking text stays text."""
    text = '{"name": "f", "arguments": {}}'
    client = make_client(lambda r: httpx.Response(200, json=completion(text)))
    result = await client.chat([user("hi")])
    assert result.message.content == text and not result.message.tool_calls


@pytest.mark.parametrize(
    ("response", "match"),
    [
        pytest.param(httpx.Response(200, text="<html>"), "not JSON", id="not-json"),
        pytest.param(httpx.Response(200, json=[1]), "not an object", id="not-object"),
        pytest.param(httpx.Response(200, json={"choices": []}), "choices", id="no-choices"),
        pytest.param(
            httpx.Response(200, json=completion(content=None, tool_calls={"x": 1})),  # type: ignore[arg-type]
            "not a list",
            id="tool-calls-not-list",
        ),
        pytest.param(
            httpx.Response(200, json=completion("", [{"id": "x"}])),
            "without a function",
            id="tool-call-no-function",
        ),
        pytest.param(
            httpx.Response(
                200, json={"choices": [{"message": {"role": "assistant", "content": [1]}}]}
            ),
            "not a string",
            id="content-not-string",
        ),
    ],
)
async def test_chat_rejects_malformed_answers(response: httpx.Response, match: str) -> None:
    """An answer that is not the protocol raises LLMResponseError saying what is wrong."""
    client = make_client(lambda r: response)
    with pytest.raises(LLMResponseError, match=match):
        await client.chat([user("hi")])


async def test_stream_yields_deltas_and_assembles_split_tool_calls() -> None:
    """Stream text arrives as deltas; tool-call deltas split across chunks are joined by index."""
    body = sse(
        delta(role="assistant", content=""),
        delta(content="Checking"),
        delta(content=" now."),
        delta(
            tool_calls=[
                {"index": 0, "id": "c0", "function": {"name": "read_", "arguments": '{"pa'}}
            ]
        ),
        delta(tool_calls=[{"index": 0, "function": {"name": "file", "arguments": 'th": "a'}}]),
        delta(
            tool_calls=[
                {"index": 1, "id": "c1", "function": {"name": "current_time", "arguments": ""}}
            ]
        ),
        delta(tool_calls=[{"index": 0, "function": {"arguments": '.txt"}'}}]),
        delta(finish_reason="tool_calls"),
        {"choices": [], "usage": {"prompt_tokens": 11, "completion_tokens": 4}},
    )
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})

    client = make_client(handler)
    shown, result = await collect(client, [user("hi")], None, frozenset({"read_file"}))
    assert shown == "Checking now."
    assert result.message.content == "Checking now."
    calls = result.message.tool_calls
    assert [(c.id, c.name) for c in calls] == [("c0", "read_file"), ("c1", "current_time")]
    assert json.loads(calls[0].arguments) == {"path": "a.txt"}
    assert calls[1].arguments == "{}"
    assert result.usage == Usage(11, 4) and result.finish_reason == "tool_calls"
    sent = json.loads(seen[0].content)
    assert sent["stream"] is True and sent["stream_options"] == {"include_usage": True}


async def test_stream_joins_multiline_data_and_ignores_other_fields() -> None:
    """Multi-line data is joined, comments skipped, and a stream without [DONE] ends."""
    head, tail = '{"choices":', json.dumps(delta(content="hi")["choices"]) + "}"
    body = (
        b": keep-alive\n\nevent: message\ndata: "
        + head.encode()
        + b"\ndata: "
        + tail.encode()
        + b"\n\n"
        + b"data: "
        + json.dumps(delta(content="!")).encode()
    )
    client = make_client(lambda r: httpx.Response(200, content=body))
    shown, result = await collect(client, [user("hi")])
    assert shown == "hi!" and result.message.content == "hi!"


async def test_stream_holds_back_text_tool_calls() -> None:
    """A streamed reply that is a tool call written as text is never shown to the user."""
    text = '{"name": "current_time", "arguments": {"timezone": "UTC"}}'
    body = sse(delta(content=text[:5]), delta(content=text[5:]))
    client = make_client(lambda r: httpx.Response(200, content=body))
    shown, result = await collect(client, [user("hi")], None, frozenset({"current_time"}))
    assert shown == ""
    assert result.message.content == ""
    assert [c.name for c in result.message.tool_calls] == ["current_time"]


async def test_stream_hides_a_tool_call_block_after_text() -> None:
    """Text before a streamed <tool_call> block is shown; the block is not."""
    text = 'Sure. <tool_call>{"name": "current_time", "arguments": {}}</tool_call>'
    pieces = [text[i : i + 4] for i in range(0, len(text), 4)]
    body = sse(*(delta(content=p) for p in pieces))
    client = make_client(lambda r: httpx.Response(200, content=body))
    shown, result = await collect(client, [user("hi")], None, frozenset({"current_time"}))
    assert shown == "Sure. "
    assert result.message.content == "Sure."
    assert [c.name for c in result.message.tool_calls] == ["current_time"]


async def test_stream_shows_held_text_beside_native_tool_calls() -> None:
    """Text held back while streaming is shown when the tool calls came natively."""
    body = sse(
        delta(content="[checking]"),
        delta(tool_calls=[{"index": 0, "id": "c", "function": {"name": "current_time"}}]),
    )
    client = make_client(lambda r: httpx.Response(200, content=body))
    shown, result = await collect(client, [user("hi")], None, frozenset({"current_time"}))
    assert shown == "[checking]" == result.message.content
    assert [c.name for c in result.message.tool_calls] == ["current_time"]


async def test_stream_releases_held_text_that_is_not_a_tool_call() -> None:
    """Held-back text that turns out not to be a tool call is shown at the end."""
    body = sse(delta(content="{not"), delta(content=" json} really"))
    client = make_client(lambda r: httpx.Response(200, content=body))
    shown, result = await collect(client, [user("hi")], None, frozenset({"current_time"}))
    assert shown == "{not json} really" == result.message.content
    assert not result.message.tool_calls


@pytest.mark.parametrize(
    ("body", "match"),
    [
        pytest.param(sse("{oops"), "not JSON", id="chunk-not-json"),
        pytest.param(sse("[1, 2]"), "not an object", id="chunk-not-object"),
    ],
)
async def test_stream_rejects_malformed_chunks(body: bytes, match: str) -> None:
    """A chunk that is not a JSON object raises LLMResponseError."""
    client = make_client(lambda r: httpx.Response(200, content=body))
    with pytest.raises(LLMResponseError, match=match):
        await collect(client, [user("hi")])


async def test_stream_broken_off_raises_unavailable() -> None:
    """A stream that breaks off after the headers raises LLMUnavailable (no retry)."""

    class Broken(httpx.AsyncByteStream):
        async def __aiter__(self) -> Any:
            yield sse(delta(content="par"), done=False)
            raise httpx.ReadError("connection reset")

    calls = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        return httpx.Response(200, stream=Broken())

    client = make_client(handler)
    with pytest.raises(LLMUnavailable, match="broke off"):
        await collect(client, [user("hi")])
    assert calls == 1


def scripted(responses: list[Any]) -> tuple[Handler, list[httpx.Request]]:
    seen: list[httpx.Request] = []
    queue: Iterator[Any] = iter(responses)

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        item = next(queue)
        if isinstance(item, Exception):
            raise item
        assert isinstance(item, httpx.Response)
        return item

    return handler, seen


async def test_retries_connect_errors_then_succeeds(sleeps: list[float]) -> None:
    """Connect errors are retried with backoff until the server answers."""
    handler, seen = scripted(
        [
            httpx.ConnectError("refused"),
            httpx.ConnectError("refused"),
            httpx.Response(200, json=completion("up")),
        ]
    )
    result = await make_client(handler, backoff_base=1.0).chat([user("hi")])
    assert result.message.content == "up"
    assert len(seen) == 3 and len(sleeps) == 2
    # Exponential backoff with equal jitter: base * 2**attempt * [0.5, 1].
    assert 0.5 <= sleeps[0] <= 1.0 and 1.0 <= sleeps[1] <= 2.0


async def test_connect_errors_exhaust_into_unavailable(sleeps: list[float]) -> None:
    """After max_retries the error is LLMUnavailable naming the URL and what to do."""
    handler, seen = scripted([httpx.ConnectError("refused")] * 3)
    with pytest.raises(LLMUnavailable) as info:
        await make_client(handler, max_retries=2).chat([user("hi")])
    assert len(seen) == 3
    message = str(info.value)
    assert "http://llm.test:8080/v1" in message and "LLAMA_URL" in message
    assert isinstance(info.value.__cause__, httpx.ConnectError)


@pytest.mark.parametrize("status", [500, 502, 503, 429])
async def test_retries_5xx_and_429(status: int, sleeps: list[float]) -> None:
    """5xx and 429 answers are retried."""
    handler, seen = scripted(
        [
            httpx.Response(status, json={"error": {"message": "busy"}}),
            httpx.Response(200, json=completion()),
        ]
    )
    result = await make_client(handler).chat([user("hi")])
    assert result.message.content == "hi" and len(seen) == 2 and len(sleeps) == 1


async def test_429_honours_retry_after(sleeps: list[float]) -> None:
    """The Retry-After header sets the wait instead of the backoff."""
    handler, _ = scripted(
        [
            httpx.Response(429, headers={"Retry-After": "7"}, json={"error": "slow down"}),
            httpx.Response(503, headers={"Retry-After": "soon"}),
            httpx.Response(200, json=completion()),
        ]
    )
    await make_client(handler, backoff_base=0.001).chat([user("hi")])
    assert sleeps[0] == 7.0
    assert sleeps[1] < 0.01  # an unparsable Retry-After falls back to the backoff


async def test_retry_after_is_capped(sleeps: list[float]) -> None:
    """A huge Retry-After is capped, so one answer cannot park a turn for hours."""
    handler, _ = scripted(
        [
            httpx.Response(429, headers={"Retry-After": "86400"}),
            httpx.Response(200, json=completion()),
        ]
    )
    await make_client(handler).chat([user("hi")])
    assert sleeps == [60.0]


async def test_5xx_exhausts_into_status_error(sleeps: list[float]) -> None:
    """A server that keeps failing raises LLMStatusError with its status and message."""
    handler, seen = scripted(
        [httpx.Response(500, json={"error": {"message": "model crashed"}})] * 2
    )
    with pytest.raises(LLMStatusError) as info:
        await make_client(handler, max_retries=1).chat([user("hi")])
    assert info.value.status_code == 500 and len(seen) == 2
    assert "HTTP 500" in str(info.value) and "model crashed" in str(info.value)


@pytest.mark.parametrize("status", [400, 401, 404, 422])
async def test_4xx_is_not_retried(status: int, sleeps: list[float]) -> None:
    """Client errors other than 429 fail at once."""
    handler, seen = scripted([httpx.Response(status, text="bad request body")])
    with pytest.raises(LLMStatusError) as info:
        await make_client(handler).chat([user("hi")])
    assert info.value.status_code == status
    assert len(seen) == 1 and sleeps == []
    assert "bad request body" in str(info.value)


async def test_stream_retries_before_headers(sleeps: list[float]) -> None:
    """A streaming call is retried while no response has started."""
    handler, seen = scripted(
        [
            httpx.ConnectError("refused"),
            httpx.Response(503, json={"error": {"message": "loading model"}}),
            httpx.Response(200, content=sse(delta(content="ok"))),
        ]
    )
    shown, _ = await collect(make_client(handler), [user("hi")])
    assert shown == "ok" and len(seen) == 3


async def test_stream_4xx_raises_status_error(sleeps: list[float]) -> None:
    """A streaming call answered 4xx raises LLMStatusError with the server's message."""
    handler, _ = scripted([httpx.Response(400, json={"error": {"message": "context too long"}})])
    with pytest.raises(LLMStatusError, match="context too long"):
        await collect(make_client(handler), [user("hi")])


async def test_embed_batches_in_order() -> None:
    """embed() sends batches of EMBED_BATCH and returns vectors in input order."""
    batches: list[list[str]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/v1/embeddings"
        body = json.loads(request.content)
        assert body["model"] == "emb"
        batches.append(body["input"])
        # Answer out of order: the index field decides the order.
        data = [
            {"index": i, "embedding": [float(text.removeprefix("t"))]}
            for i, text in enumerate(body["input"])
        ]
        return httpx.Response(200, json={"data": list(reversed(data))})

    client = make_client(handler, embed_model="emb")
    texts = [f"t{i}" for i in range(llm_module.EMBED_BATCH * 2 + 3)]
    vectors = await client.embed(texts)
    assert [len(b) for b in batches] == [llm_module.EMBED_BATCH, llm_module.EMBED_BATCH, 3]
    assert vectors == [[float(i)] for i in range(len(texts))]
    assert await client.embed_one("t9") == [9.0]
    assert await client.embed([]) == []


async def test_embed_uses_separate_url() -> None:
    """embed_url sends embeddings to another server."""
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, json={"data": [{"index": 0, "embedding": [1]}]})

    client = make_client(handler, embed_url="http://emb.test:9000")
    await client.embed(["x"])
    assert seen == ["http://emb.test:9000/v1/embeddings"]


@pytest.mark.parametrize(
    ("answer", "match"),
    [
        pytest.param({"nope": 1}, "malformed", id="no-data"),
        pytest.param({"data": [{"index": 0}]}, "malformed", id="no-embedding"),
        pytest.param({"data": []}, "returned 0", id="too-few"),
    ],
)
async def test_embed_rejects_malformed_answers(answer: Any, match: str) -> None:
    """A malformed embeddings answer raises LLMResponseError."""
    client = make_client(lambda r: httpx.Response(200, json=answer))
    with pytest.raises(LLMResponseError, match=match):
        await client.embed(["x"])


async def test_embed_retries_5xx(sleeps: list[float]) -> None:
    """Embeddings are retried like chat."""
    handler, seen = scripted(
        [httpx.Response(502), httpx.Response(200, json={"data": [{"embedding": [0.5]}]})]
    )
    assert await make_client(handler).embed(["x"]) == [[0.5]]
    assert len(seen) == 2


async def test_ping() -> None:
    """ping() is True for any HTTP answer and False when nothing answers."""
    up = make_client(lambda r: httpx.Response(404))
    assert await up.ping() is True

    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused")

    assert await make_client(down).ping() is False


async def test_open_client_from_settings() -> None:
    """open_client() builds a client from Settings.llm: URL, key, model and timeouts."""
    from agentd.config import load_settings

    settings = load_settings(
        environ={
            "LLAMA_URL": "http://127.0.0.1:1/",
            "LLM_API_KEY": "k",
            "LLM_MODEL": "q",
            "AGENTD_LLM__TIMEOUT": "42",
            "AGENTD_LLM__CONNECT_TIMEOUT": "2",
        }
    ).settings
    async with llm_module.open_client(settings) as client:
        assert client.base_url == "http://127.0.0.1:1/v1" and client.model == "q"
        assert client._headers == {"Authorization": "Bearer k"}
        timeout = client._http.timeout
        assert (timeout.read, timeout.connect) == (42.0, 2.0)


async def test_timeouts_are_retried_then_unavailable(sleeps: list[float]) -> None:
    """A server that times out is retried, then reported as unavailable."""
    handler, seen = scripted([httpx.ReadTimeout("slow")] * 2)
    with pytest.raises(LLMUnavailable, match="ReadTimeout"):
        await make_client(handler, max_retries=1).chat([user("hi")])
    assert len(seen) == 2 and len(sleeps) == 1


def test_usage_from_openai_tolerates_garbage() -> None:
    """Usage parsing never fails on a missing or odd usage field."""
    assert Usage.from_openai(None) == Usage()
    assert Usage.from_openai({"prompt_tokens": None}) == Usage()


def test_message_type_is_assistant() -> None:
    """Results carry assistant messages (guards the ChatResult contract)."""
    result = ChatResult(Message(role="assistant", content="x"))
    assert result.usage.total_tokens == 0


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param({"choices": [{"message": None}]}, id="message-null"),
        pytest.param({"choices": [{"message": "hi"}]}, id="message-string"),
        pytest.param({"choices": [None]}, id="choice-null"),
    ],
)
async def test_chat_rejects_odd_messages(answer: Any) -> None:
    """A choice whose message is not an object is a protocol error, not a crash."""
    client = make_client(lambda r: httpx.Response(200, json=answer))
    with pytest.raises(LLMResponseError):
        await client.chat([user("hi")])


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param({"data": [[0.1, 0.2]]}, id="rows-not-objects"),
        pytest.param({"data": None}, id="data-null"),
        pytest.param([1], id="not-object"),
    ],
)
async def test_embed_rejects_odd_rows(answer: Any) -> None:
    """An embeddings answer of the wrong shape is a protocol error, not a crash."""
    client = make_client(lambda r: httpx.Response(200, json=answer))
    with pytest.raises(LLMResponseError):
        await client.embed(["x"])


async def test_retry_after_as_http_date(sleeps: list[float]) -> None:
    """Retry-After given as an HTTP date is honoured too."""
    import email.utils
    import time

    when = email.utils.formatdate(time.time() + 30, usegmt=True)
    handler, _ = scripted(
        [httpx.Response(503, headers={"Retry-After": when}), httpx.Response(200, json=completion())]
    )
    await make_client(handler).chat([user("hi")])
    assert 25 <= sleeps[0] <= 30


async def test_stream_error_event_raises() -> None:
    """An error object sent inside the stream raises with the server's message."""
    body = sse(delta(content="par"), {"error": {"message": "out of memory", "code": 500}})
    client = make_client(lambda r: httpx.Response(200, content=body))
    with pytest.raises(LLMResponseError, match="out of memory"):
        await collect(client, [user("hi")])


LLAMA_OVERFLOW = {
    "error": {
        "code": 400,
        "message": "request (4444 tokens) exceeds the available context size (4096 tokens), "
        "try increasing it",
        "type": "exceed_context_size_error",
        "n_prompt_tokens": 4444,
        "n_ctx": 4096,
    }
}
OPENAI_OVERFLOW = {
    "error": {
        "message": "This model's maximum context length is 8192 tokens. However, your messages "
        "resulted in 9000 tokens. Please reduce the length of the messages.",
        "type": "invalid_request_error",
        "param": "messages",
        "code": "context_length_exceeded",
    }
}
VLLM_OVERFLOW = {
    "error": {
        "message": "This model's maximum context length is 4096 tokens. However, you requested "
        "5000 tokens (4500 in the messages, 500 in the completion). Please reduce the length "
        "of the messages or completion.",
        "type": "BadRequestError",
        "param": None,
        "code": 400,
    }
}
OVERFLOWS = [
    pytest.param(LLAMA_OVERFLOW, 4096, 4444, id="llama"),
    pytest.param(OPENAI_OVERFLOW, 8192, 9000, id="openai"),
    pytest.param(VLLM_OVERFLOW, 4096, 5000, id="vllm"),
]


@pytest.mark.parametrize(("body", "limit", "requested"), OVERFLOWS)
async def test_chat_raises_context_exceeded_once(
    body: dict[str, Any], limit: int, requested: int, sleeps: list[float]
) -> None:
    """A 400 saying the context is exceeded raises ContextExceeded with its numbers, unretried."""
    handler, seen = scripted([httpx.Response(400, json=body)] * 4)
    with pytest.raises(ContextExceeded) as info:
        await make_client(handler).chat([user("secret words")])
    assert (info.value.limit, info.value.requested) == (limit, requested)
    assert info.value.status_code == 400 and isinstance(info.value, LLMStatusError)
    assert len(seen) == 1 and sleeps == []
    assert f"{requested} tokens asked, {limit} fit" in str(info.value)
    assert "secret" not in str(info.value)


@pytest.mark.parametrize(("body", "limit", "requested"), OVERFLOWS)
async def test_stream_raises_context_exceeded(
    body: dict[str, Any], limit: int, requested: int, sleeps: list[float]
) -> None:
    """A streaming call answered 400 "context exceeded" raises ContextExceeded, unretried."""
    handler, seen = scripted([httpx.Response(400, json=body)] * 4)
    with pytest.raises(ContextExceeded) as info:
        await collect(make_client(handler), [user("hi")])
    assert (info.value.limit, info.value.requested) == (limit, requested)
    assert len(seen) == 1 and sleeps == []


async def test_context_exceeded_mid_stream() -> None:
    """An overflow reported inside the stream raises ContextExceeded too."""
    body = sse({"error": LLAMA_OVERFLOW["error"]})
    client = make_client(lambda r: httpx.Response(200, content=body))
    with pytest.raises(ContextExceeded) as info:
        await collect(client, [user("hi")])
    assert (info.value.limit, info.value.requested) == (4096, 4444)


@pytest.mark.parametrize(
    "response",
    [
        pytest.param(httpx.Response(400, json={"error": {"message": "bad tools"}}), id="other"),
        pytest.param(httpx.Response(400, text="<html>Bad Request</html>"), id="not-json"),
        pytest.param(httpx.Response(413, json=LLAMA_OVERFLOW), id="other-status"),
    ],
)
async def test_other_errors_stay_status_errors(response: httpx.Response) -> None:
    """Other 400s, and the overflow wording under another status, stay plain LLMStatusError."""
    handler, _ = scripted([response])
    with pytest.raises(LLMStatusError) as info:
        await make_client(handler).chat([user("hi")])
    assert type(info.value) is LLMStatusError


async def test_chat_reads_llama_server_cache_counters() -> None:
    """llama-server's timings give the cached and evaluated prompt tokens of a chat answer."""
    answer = completion() | {"timings": {"cache_n": 5, "prompt_n": 2, "predicted_n": 3}}
    result = await make_client(lambda r: httpx.Response(200, json=answer)).chat([user("hi")])
    assert result.usage == Usage(7, 3, cached_tokens=5, evaluated_tokens=2)


async def test_stream_reads_cache_counters_of_the_last_chunk() -> None:
    """The stream's usage takes cached_tokens from usage details and timings from the last chunk."""
    usage = {
        "prompt_tokens": 9,
        "completion_tokens": 2,
        "prompt_tokens_details": {"cached_tokens": 6},
    }
    body = sse(
        delta(content="a") | {"timings": {"cache_n": 0, "prompt_n": 9}},
        delta(content="b", finish_reason="stop"),
        {"choices": [], "usage": usage, "timings": {"cache_n": 6, "prompt_n": 3}},
    )
    _, result = await collect(make_client(lambda r: httpx.Response(200, content=body)), [user("x")])
    assert result.usage == Usage(9, 2, cached_tokens=6, evaluated_tokens=3)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        pytest.param("http://h:8080/v1", "http://h:8080", id="v1"),
        pytest.param("http://h:8080/v1/", "http://h:8080", id="v1-slash"),
        pytest.param("https://api.example/openai/v1", "https://api.example/openai", id="path"),
        pytest.param("https://api.example/v2", "https://api.example/v2", id="no-v1"),
    ],
)
def test_server_root(given: str, expected: str) -> None:
    """The server root is the API root without its trailing /v1."""
    assert server_root(given) == expected


@pytest.mark.parametrize(
    ("props", "expected"),
    [
        pytest.param({"default_generation_settings": {"n_ctx": 4096}}, 4096, id="llama-server"),
        pytest.param({"n_ctx": 2048}, 2048, id="top-level"),
        pytest.param({"default_generation_settings": {"n_ctx": 0}}, None, id="zero"),
        pytest.param({"default_generation_settings": {"n_ctx": "4096"}}, None, id="string"),
        pytest.param([4096], None, id="not-an-object"),
    ],
)
async def test_context_size_reads_props(props: Any, expected: int | None) -> None:
    """context_size() reads n_ctx from the server root's /props."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=props)

    assert await make_client(handler, api_key="k").context_size() == expected
    assert str(seen[0].url) == "http://llm.test:8080/props"
    assert seen[0].headers["authorization"] == "Bearer k"


async def test_context_size_is_kept_after_the_first_success() -> None:
    """Once known, the context size is not asked again."""
    handler, seen = scripted(
        [httpx.Response(200, json={"default_generation_settings": {"n_ctx": 8192}})]
    )
    client = make_client(handler)
    assert await client.context_size() == 8192
    assert await client.context_size() == 8192
    assert len(seen) == 1


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(httpx.Response(200, text="<html>"), id="not-json"),
        pytest.param(httpx.Response(500), id="500"),
        pytest.param(httpx.ConnectError("refused"), id="down"),
        pytest.param(httpx.ReadTimeout("slow"), id="timeout"),
    ],
)
async def test_context_size_is_none_without_props(answer: Any) -> None:
    """A server without /props (or one that fails) has no known context size; it is asked again."""
    ok = httpx.Response(200, json={"default_generation_settings": {"n_ctx": 1024}})
    handler, seen = scripted([answer, ok])
    client = make_client(handler)
    assert await client.context_size() is None
    assert await client.context_size() == 1024
    assert len(seen) == 2


async def test_a_server_without_props_is_asked_once() -> None:
    """A 404 is a final answer (not llama.cpp): no /props request on every turn."""
    missing = httpx.Response(404, json={"error": {"message": "not found"}})
    handler, seen = scripted([missing])
    client = make_client(handler)
    assert await client.context_size() is None
    assert await client.context_size() is None
    assert len(seen) == 1


async def test_stream_gives_a_delta_per_piece_received() -> None:
    """Chunks that arrive in one piece become one delta; chunks that arrive apart stay apart
    (the text is the same either way)."""
    first = sse(delta(content="Hel"), delta(content="lo"), done=False)
    second = sse(delta(content=" there"), delta(finish_reason="stop"))

    class Pieces(httpx.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            yield first
            yield second

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, stream=Pieces(), headers={"content-type": "text/event-stream"})

    client = make_client(handler)
    texts = [e.text async for e in client.stream([user("hi")]) if isinstance(e, TextDelta)]
    assert texts == ["Hello", " there"]
