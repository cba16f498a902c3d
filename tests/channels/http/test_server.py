"""The HTTP channel as OpenAI clients see it: the official ``openai`` package on a real socket.

Auth, models and the probes, which need no socket, are tested in process in test_api.py.
"""

from __future__ import annotations

import openai
import pytest

from agentd.engine.runtime import Runtime
from tests.channels.conftest import SYSTEM
from tests.support.http_channel import serving
from tests.support.stub_llm import Reply, StubLLM

pytestmark = pytest.mark.anyio


def _client(url: str, key: str = "unused") -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=f"{url}/v1", api_key=key, max_retries=0, timeout=30)


async def test_non_streaming_completion(stub_runtime: Runtime, stub_llm: StubLLM) -> None:
    """A plain completion returns the agent's answer, usage and the configured model name."""
    async with serving(stub_runtime) as channel, _client(channel.url) as client:
        reply = await client.chat.completions.create(
            model="anything", messages=[{"role": "user", "content": "hello"}]
        )
    assert reply.choices[0].message.content == "echo: hello"
    assert reply.choices[0].finish_reason == "stop"
    assert reply.model == "agentd"
    assert reply.usage is not None and reply.usage.completion_tokens > 0
    assert reply.usage.total_tokens == reply.usage.prompt_tokens + reply.usage.completion_tokens
    assert stub_llm.requests[0]["messages"][0] == {"role": "system", "content": SYSTEM}


async def test_streaming_completion_with_usage(stub_runtime: Runtime) -> None:
    """A stream carries the text as chunks (pieces that arrive together go out as one), then a
    usage chunk (include_usage), then ends."""
    async with serving(stub_runtime) as channel, _client(channel.url) as client:
        stream = await client.chat.completions.create(
            model="agentd",
            messages=[{"role": "user", "content": "one two three"}],
            stream=True,
            stream_options={"include_usage": True},
        )
        chunks = [chunk async for chunk in stream]
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == "echo: one two three"
    assert [c for c in chunks if c.choices and c.choices[0].delta.content]
    assert chunks[0].choices[0].delta.role == "assistant"
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].choices == [] and chunks[-1].usage is not None
    assert chunks[-1].usage.completion_tokens > 0
    assert len({c.id for c in chunks}) == 1


async def test_streaming_without_usage_request_has_no_usage_chunk(stub_runtime: Runtime) -> None:
    """Without stream_options the stream has no usage chunk."""
    async with serving(stub_runtime) as channel, _client(channel.url) as client:
        stream = await client.chat.completions.create(
            model="agentd", messages=[{"role": "user", "content": "hi"}], stream=True
        )
        chunks = [chunk async for chunk in stream]
    assert all(c.usage is None for c in chunks)
    assert all(c.choices for c in chunks)


@pytest.mark.parametrize("source", ["timings", "cached_tokens"])
async def test_usage_reports_the_model_servers_prompt_cache(
    stub_runtime: Runtime, stub_llm: StubLLM, source: str
) -> None:
    """The reply's usage says how many prompt tokens the model server reused, the OpenAI way."""
    setattr(stub_llm, source, True)
    session = {"extra_headers": {"X-Session-Id": "cache"}}
    async with serving(stub_runtime) as channel, _client(channel.url) as client:
        first = await client.chat.completions.create(
            model="agentd", messages=[{"role": "user", "content": "hello there"}], **session
        )
        second = await client.chat.completions.create(
            model="agentd",
            messages=[{"role": "user", "content": "and again"}],
            stream=True,
            stream_options={"include_usage": True},
            **session,
        )
        chunks = [chunk async for chunk in second]
    assert first.usage is not None and first.usage.prompt_tokens_details is not None
    assert first.usage.prompt_tokens_details.cached_tokens == 0
    usage = chunks[-1].usage
    assert usage is not None and usage.prompt_tokens_details is not None
    cached = usage.prompt_tokens_details.cached_tokens
    assert cached is not None and 0 < cached < usage.prompt_tokens


@pytest.mark.parametrize(
    "how",
    [pytest.param("header", id="x-session-id"), pytest.param("user", id="user-field")],
)
async def test_session_continuity(stub_runtime: Runtime, stub_llm: StubLLM, how: str) -> None:
    """With a session, the daemon's own history carries over and only new messages are added."""
    extra: dict[str, object] = (
        {"extra_headers": {"X-Session-Id": "alice"}} if how == "header" else {"user": "alice"}
    )
    async with serving(stub_runtime) as channel, _client(channel.url) as client:
        first = await client.chat.completions.create(
            model="agentd", messages=[{"role": "user", "content": "my name is Alice"}], **extra
        )
        # The client resends the whole exchange, as chat UIs do; only the last message is new.
        second = await client.chat.completions.create(
            model="agentd",
            messages=[
                {"role": "user", "content": "my name is Alice"},
                {"role": "assistant", "content": first.choices[0].message.content},
                {"role": "user", "content": "what is my name?"},
            ],
            stream=True,
            **extra,
        )
        # Read the stream to its end: closing it early would cancel the turn.
        text = "".join([c.choices[0].delta.content or "" async for c in second if c.choices])
    assert text == "echo: what is my name?"
    sent = stub_llm.requests[1]["messages"]
    assert [(m["role"], m["content"]) for m in sent] == [
        ("system", SYSTEM),
        ("user", "my name is Alice"),
        ("assistant", "echo: my name is Alice"),
        ("user", "what is my name?"),
    ]
    history = await stub_runtime.history("http:alice")
    assert [m.content for m in history[1:]] == [
        "my name is Alice",
        "echo: my name is Alice",
        "what is my name?",
        "echo: what is my name?",
    ]


async def test_stateless_request_uses_its_messages_and_stores_nothing(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """Without a session the request's messages are the conversation, and nothing is kept."""
    messages = [
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": "first"},
        {"role": "assistant", "content": "ok"},
        {
            "role": "user",
            "content": [{"type": "text", "text": "sec"}, {"type": "text", "text": "ond"}],
        },
    ]
    async with serving(stub_runtime) as channel, _client(channel.url) as client:
        reply = await client.chat.completions.create(model="agentd", messages=messages)  # type: ignore[arg-type]
    assert reply.choices[0].message.content == "echo: second"
    sent = stub_llm.requests[0]["messages"]
    assert sent[0] == {"role": "system", "content": SYSTEM + "\n\nAnswer briefly."}
    assert [m["content"] for m in sent[1:]] == ["first", "ok", "second"]
    assert len(stub_runtime.sessions) == 0


async def test_tools_run_inside_and_client_sees_the_answer(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """A tool call runs inside agentd; the client only gets the final answer."""
    stub_llm.add(Reply(tool_calls=[("current_time", {"timezone": "UTC"})]), Reply(text="Noon."))
    async with serving(stub_runtime) as channel, _client(channel.url) as client:
        reply = await client.chat.completions.create(
            model="agentd", messages=[{"role": "user", "content": "time?"}], user="bob"
        )
    assert reply.choices[0].message.content == "Noon."
    assert reply.choices[0].message.tool_calls is None
    # The tool result, then agentd's reminder of the request (sent, not stored).
    assert [m["role"] for m in stub_llm.requests[1]["messages"]][-2:] == ["tool", "user"]
    roles = [m.role for m in await stub_runtime.history("http:bob")]
    assert roles == ["system", "user", "assistant", "tool", "assistant"]


async def test_model_server_down_is_503(stub_runtime: Runtime, stub_llm: StubLLM) -> None:
    """When the model server is gone, streaming and non-streaming requests get a real 503."""
    stub_llm.stop()
    async with serving(stub_runtime) as channel, _client(channel.url) as client:
        for stream in (False, True):
            with pytest.raises(openai.APIStatusError) as caught:
                await client.chat.completions.create(
                    model="agentd", messages=[{"role": "user", "content": "hi"}], stream=stream
                )
            assert caught.value.status_code == 503
            assert caught.value.code == "model_unavailable"


async def test_model_error_mid_stream_is_an_error_event(
    stub_runtime: Runtime, stub_llm: StubLLM
) -> None:
    """A model failure after the stream began arrives as an error event the client raises."""
    stub_llm.add(
        Reply(tool_calls=[("current_time", {})], text="checking"),
        Reply(status=400, text="context too long"),
    )
    async with serving(stub_runtime) as channel, _client(channel.url) as client:
        stream = await client.chat.completions.create(
            model="agentd", messages=[{"role": "user", "content": "hi"}], stream=True
        )
        with pytest.raises(openai.APIError, match="context too long"):
            async for _ in stream:
                pass
