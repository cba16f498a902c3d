"""Async client for OpenAI-compatible model servers (llama.cpp ``llama-server`` by default).

It runs on an injected ``httpx.AsyncClient`` (tests pass one with ``httpx.MockTransport``),
retries connect errors, 5xx and 429 with :class:`~agentd.backoff.Backoff` (honouring
``Retry-After``), parses SSE streams and assembles tool-call deltas, and turns tool calls that
local models write as text into real tool calls (see :mod:`agentd.model.textcalls`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import aclosing, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast

import anyio
import httpx
import structlog

from agentd.backoff import Backoff, parse_retry_after
from agentd.config import secret_values
from agentd.errors import (
    ContextExceeded,
    LLMError,
    LLMResponseError,
    LLMStatusError,
    LLMUnavailable,
)
from agentd.messages import Message, ToolCall, assistant
from agentd.model import pinning
from agentd.model.choice import ANY, CallRule
from agentd.model.grammar import answer_grammar, choice_grammar, tool_step_grammar
from agentd.model.overflow import context_exceeded
from agentd.model.repeats import RepeatWatch
from agentd.model.started import Continued, Start, Starts
from agentd.model.textcalls import TextToolCallFilter, parse_text_tool_calls
from agentd.model.transport import ShardedTransport
from agentd.model.usage import Usage
from agentd.model.written import keep, to_wire
from agentd.redact import Scrubber
from agentd.sse import sse_batches

log = structlog.get_logger("agentd.model.client")

T = TypeVar("T")

EMBED_BATCH = 32
MAX_BACKOFF = 20.0
MAX_RETRY_AFTER = 60.0  # one server answer cannot park a turn for hours
#: What is read after a stream's ``[DONE]`` (the end of its chunked body) so that the connection
#: goes back to the pool instead of being closed and opened anew on every streamed call; a server
#: that goes on talking beyond these bounds is cut off.
AFTER_DONE_CHUNKS, AFTER_DONE_SECONDS = 8, 1.0
PROPS_TIMEOUT = 5.0  # /props is optional: a server slow to say it is treated as not saying


def api_root(base_url: str) -> str:
    """``http://h:8080`` and ``http://h:8080/v1/`` both become ``http://h:8080/v1``."""
    url = base_url.rstrip("/")
    if httpx.URL(url).path in ("", "/"):
        url += "/v1"
    return url


def server_root(api_url: str) -> str:
    """The server's own root under its OpenAI API: ``http://h:8080/v1`` -> ``http://h:8080``."""
    return api_url.rstrip("/").removesuffix("/v1")


@dataclass(slots=True)
class ChatResult:
    """One model answer: the assistant message (maybe with tool calls) and its token usage."""

    message: Message
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str


@dataclass(frozen=True, slots=True)
class Completed:
    result: ChatResult


StreamEvent = TextDelta | Completed


class ChatModel(Protocol):
    """What the agent loop needs of a model client (LLMClient and TimedModel are two).

    ``answer_only`` marks a step of a tool-using turn that offers no tools: the model must
    answer in words now (a constrained client holds it to prose; ``tools`` given then are
    only shown, so the prompt stays the one the server has cached).
    ``rule`` says how the step may call the tools offered (see :mod:`agentd.model.choice`).
    """

    async def chat(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: frozenset[str] = ...,
        *,
        answer_only: bool = ...,
        rule: CallRule = ...,
    ) -> ChatResult: ...

    def stream(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: frozenset[str] = ...,
        *,
        answer_only: bool = ...,
        rule: CallRule = ...,
    ) -> AsyncIterator[StreamEvent]: ...


def matched(text: str, options: Sequence[str]) -> str | None:
    """The option ``text`` says: case and punctuation ignored, an exact match first, then
    the first option it starts with."""
    word = text.strip().lower().lstrip("*\"'` ").rstrip(".!*\"'` ")
    exact = next((o for o in options if word == o.lower()), None)
    return exact or next((o for o in options if word.startswith(o.lower())), None)


def _new_call_id() -> str:
    return "call_" + secrets.token_hex(8)


def _retry_after(response: httpx.Response) -> float | None:
    """Seconds to wait from a Retry-After header (seconds or an HTTP date), capped at 60."""
    seconds = parse_retry_after(response.headers.get("retry-after"))
    return None if seconds is None else min(seconds, MAX_RETRY_AFTER)


def _error_message(err: Any) -> str | None:
    """The message of an OpenAI-style ``error`` field (an object or a string), whole: scrub it
    before cutting it to size, or a secret cut in half escapes the scrubber."""
    if isinstance(err, dict) and isinstance(err.get("message"), str):
        return str(err["message"])
    if isinstance(err, str):
        return err
    return None


def _error_body(response: httpx.Response) -> Any:
    """The decoded JSON of an error answer, or its text when it is not JSON."""
    try:
        return response.json()
    except ValueError:
        return response.text


def _error_text(body: Any, response: httpx.Response, scrub: Scrubber) -> str:
    """What the server said about its error, scrubbed of secrets (it may echo our request)."""
    if isinstance(body, dict):
        message = _error_message(body.get("error"))
        if message is not None:
            return scrub(message)[:500]
    return scrub(response.text)[:200]


def _context_exceeded(status_code: int, body: Any) -> ContextExceeded | None:
    overflow = context_exceeded(body)
    if overflow is None:
        return None
    return ContextExceeded(status_code, limit=overflow.limit, requested=overflow.requested)


class _NotContinued(Exception):
    """A started reply that does not begin with its start: not to be trusted."""

    def __init__(self, usage: Usage) -> None:
        super().__init__("the reply did not repeat its start")
        self.usage = usage


class LLMClient:
    """Chat, streaming chat and embeddings against one OpenAI-compatible server."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        secrets: Iterable[str] = (),
        max_retries: int = 3,
        temperature: float | None = None,
        seed: int | None = None,
        embed_url: str | None = None,
        embed_model: str | None = None,
        backoff_base: float = 0.5,
        tool_grammar: str = "off",
    ) -> None:
        self._http = http
        self.base_url = api_root(base_url)
        self.model = model
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        # Every error this client raises is scrubbed of the key, the other configured
        # ``secrets`` and URL userinfo: its text reaches HTTP clients and logs.
        self._scrub = Scrubber((api_key or "", *secrets))
        self._max_retries = max_retries
        self._temperature = temperature
        self._seed = seed
        self._embed_url = api_root(embed_url) if embed_url else self.base_url
        self._embed_model = embed_model or model
        self._backoff_base = backoff_base
        self._context_size: int | None = None
        self._props: dict[str, Any] | None = None
        self._tool_grammar = tool_grammar
        self._grammar_on: bool | None = {"on": True, "off": False}.get(tool_grammar)
        self._grammars: dict[str, str] = {}
        self._grammars_by_id: dict[tuple[object, ...], tuple[tuple[object, ...], str]] = {}
        self._starts = Starts()

    async def grammar_enabled(self) -> bool:
        """Whether tool-offering steps are sampled under a grammar (``llm.tool_grammar``).

        ``auto`` decides once, by asking the server's ``/props``: llama.cpp answers it (and takes
        a ``grammar`` field), other OpenAI-compatible servers do not.
        """
        if self._grammar_on is None:
            props = await self._server_props()
            if props is None:
                return False  # asked again next time: the server may still be starting
            self._grammar_on = "chat_template" in props
            log.info("llm.tool_grammar", enabled=self._grammar_on, setting=self._tool_grammar)
        return self._grammar_on

    async def choose(
        self,
        messages: Sequence[Message],
        options: Sequence[str],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        usage: Usage | None = None,
        most: int = 1,
    ) -> str | None:
        """One of ``options`` as the model's short answer to ``messages``, or None.

        The request's tokens are added to ``usage`` when given (quotas count them).

        Under a grammar the model can only write one of them; otherwise its first words are
        matched (case and punctuation ignored; an exact match first). ``tools`` are shown in
        the template but cannot be called (the same prompt as a tool step's, so the server's
        cached prompt serves both). With ``most`` above 1 the answer is a list of up to that
        many options, in the model's order, joined by ", " (a plan of steps).
        """
        grammar = await self.grammar_enabled()
        body = self._params(messages, None)
        if tools:
            body["tools"] = list(tools)
            body["tool_choice"] = "none"
        # Enough tokens for the longest option (a tool's name may take several), per item.
        longest = max((len(o) for o in options), default=0)
        body["max_tokens"] = max(4, 2 + longest // 2) * max(1, most)
        body.pop("seed", None)
        body["temperature"] = 0
        if grammar:
            body["grammar"] = choice_grammar(options, most)

        async def call() -> Any:
            response = await self._http.post(
                f"{self.base_url}/chat/completions", json=body, headers=self._headers
            )
            self._check(response)
            return response.json()

        data = await self._with_retries("choose", call)
        if usage is not None and isinstance(data, dict):
            usage.add(Usage.from_openai(data.get("usage"), data.get("timings")))
        try:
            text = str(data["choices"][0]["message"].get("content") or "")
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise LLMResponseError("model server's answer has no choices[0].message") from exc
        if most <= 1:
            return matched(text, options)
        items = [matched(part, options) for part in text.split(",")[:most]]
        kept = [item for item in items if item is not None]
        return ", ".join(kept) if kept else None

    def _grammar_for(self, tools: Sequence[dict[str, Any]], rule: CallRule = ANY) -> str:
        # The registry hands out the same schema objects until the tools change: known by
        # identity, a step's grammar costs a lookup, not serialising every schema to a key.
        # The entry holds its schemas, so their ids cannot pass to other objects meanwhile.
        fast = (*map(id, tools), rule.must_call, rule.single)
        held = self._grammars_by_id.get(fast)
        if held is not None:
            return held[1]
        key = json.dumps([tools, rule.must_call, rule.single], sort_keys=True)
        grammar = self._grammars.get(key)
        if grammar is None:
            if len(self._grammars) >= 32:
                self._grammars.clear()
            grammar = self._grammars[key] = tool_step_grammar(
                tools, required=rule.must_call, single=rule.single
            )
        if len(self._grammars_by_id) >= 32:
            self._grammars_by_id.clear()
        self._grammars_by_id[fast] = (tuple(tools), grammar)
        return grammar

    def _start(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None,
        grammar: bool,
        answer_only: bool,
        rule: CallRule,
    ) -> Start | None:
        """The start of the reply of a step held to one tool under agentd's grammar
        (:mod:`agentd.model.started`), or None."""
        if not (grammar and tools) or answer_only or rule.name is None:
            return None
        return self._starts.for_step(rule.narrow(tools), rule, messages)

    def _params(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None,
        grammar: bool = False,
        answer_only: bool = False,
        rule: CallRule = ANY,
        start: Start | None = None,
    ) -> Any:
        # Under agentd's grammar the model writes its calls as text: they go back as it wrote
        # them, so the next step's prompt starts with the tokens the server holds.
        wire = to_wire(messages, as_written=self._grammar_on is True)
        body: dict[str, Any] = {"model": self.model, "messages": wire}
        if tools:
            body["tools"] = list(tools)
            callable_tools = rule.narrow(tools)
            if grammar and callable_tools and not answer_only:
                # The template still shows the tools; llama-server's own tool parsing is off
                # (it refuses a grammar next to it) and the grammar below takes its place.
                body["tool_choice"] = "none"
                if start is None:
                    body["grammar"] = self._grammar_for(callable_tools, rule)
                else:
                    body["messages"] = [*wire, start.message()]
                    body["grammar"] = start.grammar
            elif grammar and answer_only:
                # Shown (the prompt stays the one the server cached), none callable: words.
                body["tool_choice"] = "none"
                body["grammar"] = answer_grammar()
            else:
                body.update(rule.openai_fields())
        elif grammar and answer_only:
            body["grammar"] = answer_grammar()
        if self._temperature is not None:
            body["temperature"] = self._temperature
        if self._seed is not None:
            body["seed"] = self._seed
        slot = pinning.current()
        if slot is not None:
            body["id_slot"] = slot
        return body

    async def _with_retries(self, what: str, call: Callable[[], Awaitable[T]]) -> T:
        backoff = Backoff(self._backoff_base, MAX_BACKOFF)
        attempt = 0
        while True:
            retry_after: float | None = None
            try:
                return await call()
            except httpx.TransportError as exc:
                if attempt >= self._max_retries:
                    raise LLMUnavailable(
                        f"no model server answers at {self._scrub(self.base_url)} "
                        f"({type(exc).__name__}); "
                        "start llama-server there or set LLAMA_URL / llm.base_url"
                    ) from exc
                reason = type(exc).__name__
            except LLMStatusError as exc:
                # A request that does not fit will not fit the next time either.
                retryable = not isinstance(exc, ContextExceeded) and (
                    exc.status_code == 429 or exc.status_code >= 500
                )
                if not retryable or attempt >= self._max_retries:
                    raise
                retry_after = getattr(exc, "retry_after", None)
                reason = f"HTTP {exc.status_code}"
            delay = backoff.next_delay(retry_after=retry_after)
            attempt += 1
            log.warning(
                "llm.retry", what=what, reason=reason, attempt=attempt, delay=round(delay, 2)
            )
            await anyio.sleep(delay)

    def _check(self, response: httpx.Response) -> None:
        if response.status_code < 400:
            return
        body = _error_body(response)
        if response.status_code == 400:
            overflow = _context_exceeded(400, body)
            if overflow is not None:
                raise overflow
        err = LLMStatusError(
            response.status_code,
            f"model server answered HTTP {response.status_code}: "
            + _error_text(body, response, self._scrub),
        )
        err.retry_after = _retry_after(response)  # type: ignore[attr-defined]
        raise err

    async def chat(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: Iterable[str] = (),
        *,
        answer_only: bool = False,
        rule: CallRule = ANY,
    ) -> ChatResult:
        """One non-streaming completion."""
        grammar = (bool(tools) or answer_only) and await self.grammar_enabled()
        if grammar and rule.once and tools and not answer_only:
            # Streamed, so that a looking call written again ends the step (RepeatWatch).
            events = self.stream(messages, tools, tool_names, rule=rule)
            async with aclosing(events):  # type: ignore[type-var]
                async for event in events:
                    if isinstance(event, Completed):
                        return event.result
            raise LLMResponseError("model server's stream ended without an answer")
        start = self._start(messages, tools, grammar, answer_only, rule)
        if start is not None:
            try:
                return await self._chat_once(messages, tools, tool_names, answer_only, rule, start)
            except (_NotContinued, LLMStatusError) as exc:
                first = self._start_failed(exc)
            again = await self.chat(messages, tools, tool_names, answer_only=answer_only, rule=rule)
            again.usage.add(first)
            return again
        return await self._chat_once(messages, tools, tool_names, answer_only, rule, None)

    async def _chat_once(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None,
        tool_names: Iterable[str],
        answer_only: bool,
        rule: CallRule,
        start: Start | None,
    ) -> ChatResult:
        grammar = (bool(tools) or answer_only) and await self.grammar_enabled()
        body = self._params(messages, tools, grammar, answer_only, rule, start)

        async def call() -> dict[str, Any]:
            response = await self._http.post(
                f"{self.base_url}/chat/completions", json=body, headers=self._headers
            )
            if response.status_code >= 400:
                await response.aread()
            self._check(response)
            try:
                data = response.json()
            except ValueError as exc:
                raise LLMResponseError("model server sent a body that is not JSON") from exc
            if not isinstance(data, dict):
                raise LLMResponseError("model server sent JSON that is not an object")
            return data

        try:
            data = await self._with_retries("chat", call)
        except LLMStatusError as exc:
            # A started request that fails is asked again unstarted (chat), not without grammar.
            if start is not None or not (grammar and _grammar_refused(exc)):
                raise
            self._drop_grammar(exc)
            body = self._params(messages, tools, rule=rule)
            data = await self._with_retries("chat", call)
        try:
            choice = data["choices"][0]
            raw = choice["message"]
        except (KeyError, IndexError, TypeError) as exc:
            raise LLMResponseError("model server's answer has no choices[0].message") from exc
        if not isinstance(raw, dict):
            raise LLMResponseError("model server's choices[0].message is not an object")
        calls = tuple(_parse_tool_calls(raw.get("tool_calls")))
        content = raw.get("content") or ""
        if not isinstance(content, str):
            raise LLMResponseError("model server's message content is not a string")
        usage = Usage.from_openai(data.get("usage"), data.get("timings"))
        if start is not None and not calls and not content.startswith(start.text):
            raise _NotContinued(usage)
        message = assistant(content, calls)
        if not calls:
            rest, calls = parse_text_tool_calls(content, frozenset(tool_names), _new_call_id)
            message = keep(assistant(rest, calls), content)
        return ChatResult(message=message, usage=usage, finish_reason=choice.get("finish_reason"))

    def _start_failed(self, exc: Exception) -> Usage:
        """A started step failed with ``exc``: a reply that did not continue its start, or an
        HTTP 400 other than a context overflow (a server that refuses a last assistant
        message, as llama-server does with a template's thinking on, or the rest's grammar).
        Starts go off (the step is asked again without one); the usage the failed request
        cost. Any other error is raised again."""
        if isinstance(exc, ContextExceeded) or (
            isinstance(exc, LLMStatusError) and exc.status_code != 400
        ):
            raise exc
        self._starts.off(str(exc))
        return exc.usage if isinstance(exc, _NotContinued) else Usage()

    async def warm(
        self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None = None
    ) -> Usage:
        """Have the server evaluate ``messages`` and ``tools`` once, generating one token, so
        its prompt cache holds them for the next request that starts the same way.

        The body is a tool step's (:meth:`chat`'s, the grammar included) with ``max_tokens``
        1: the same template renders the same prefix. Returns the request's token usage.
        """
        grammar = bool(tools) and await self.grammar_enabled()
        body = self._params(messages, tools, grammar)
        body["max_tokens"] = 1

        async def call() -> Any:
            response = await self._http.post(
                f"{self.base_url}/chat/completions", json=body, headers=self._headers
            )
            self._check(response)
            return response.json()

        data = await self._with_retries("warm", call)
        if not isinstance(data, dict):
            raise LLMResponseError("model server sent JSON that is not an object")
        return Usage.from_openai(data.get("usage"), data.get("timings"))

    async def stream(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        tool_names: Iterable[str] = (),
        *,
        answer_only: bool = False,
        rule: CallRule = ANY,
    ) -> AsyncIterator[StreamEvent]:
        """A streaming completion: text deltas as they come, then one Completed event.

        Text that starts like a tool call written as text is held back until the end, so the
        user never sees raw tool-call JSON.
        """
        grammar = (bool(tools) or answer_only) and await self.grammar_enabled()
        start = self._start(messages, tools, grammar, answer_only, rule)
        first: Usage | None = None
        if start is not None:
            started = self._stream_once(messages, tools, tool_names, answer_only, rule, start)
            try:
                async with aclosing(started):  # type: ignore[type-var]
                    async for event in started:
                        yield event
                return
            except (_NotContinued, LLMStatusError) as exc:
                first = self._start_failed(exc)  # nothing of it was shown
        events = self._stream_once(messages, tools, tool_names, answer_only, rule, None)
        async with aclosing(events):  # type: ignore[type-var]
            async for event in events:
                if first is not None and isinstance(event, Completed):
                    event.result.usage.add(first)
                yield event

    async def _stream_once(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None,
        tool_names: Iterable[str],
        answer_only: bool,
        rule: CallRule,
        start: Start | None,
    ) -> AsyncIterator[StreamEvent]:
        grammar = (bool(tools) or answer_only) and await self.grammar_enabled()
        body = self._params(messages, tools, grammar, answer_only, rule, start)
        body["stream"] = True
        body["stream_options"] = {"include_usage": True}
        names = frozenset(tool_names)
        watch = None
        if grammar and rule.once and names and not answer_only:
            watch = RepeatWatch(names, rule.once, _new_call_id)
            # Every chunk then carries the counts so far: a stream cut short still has them.
            body["timings_per_token"] = True
        # The same request without the grammar, for a server that refuses it (a shallow copy:
        # the messages are not serialised twice on every streamed call); a started request
        # that fails is asked again unstarted (stream).
        plain = (
            {
                **{k: v for k, v in body.items() if k not in ("grammar", "tool_choice")},
                **rule.openai_fields(),
            }
            if grammar and start is None
            else None
        )
        continued = Continued(start) if start is not None else None
        assembler = _StreamAssembler(self._scrub)
        text_filter = TextToolCallFilter(enabled=bool(names))
        cut = False
        async with (
            self._open_stream(body, plain) as response,
            # httpx types it an iterator; it is an async generator (it has aclose).
            aclosing(cast("AsyncGenerator[bytes, None]", response.aiter_bytes())) as chunks,
            aclosing(sse_batches(chunks)) as batches,
        ):
            async for batch in batches:
                # What arrived together goes on together: one delta per piece received.
                text = "".join([assembler.feed(_stream_chunk(data)) for data in batch])
                if continued is not None:
                    text = continued.feed(text)
                if watch is not None and text and watch.feed(text):
                    cut = True  # closing the connection stops the server generating
                    break
                shown = text_filter.feed(text) if text else ""
                if shown:
                    yield TextDelta(shown)
            if not cut:
                await _read_to_end(chunks)
        late = continued.flush() if continued is not None and not cut else ""
        if late and (shown := text_filter.feed(late)):
            yield TextDelta(shown)
        content, calls = assembler.content(), tuple(assembler.tool_calls())
        if start is not None and not calls and not content.startswith(start.text):
            raise _NotContinued(assembler.usage)  # nothing of it shown: held back until known
        if cut and watch is not None:
            log.info("llm.repeat_cut", chars=len(content), kept=len(watch.kept))
            content = watch.kept
        message = assistant(content, calls)
        written_calls = False
        if not calls:
            said, calls = parse_text_tool_calls(content, names, _new_call_id)
            message = keep(assistant(said, calls), content)
            written_calls = bool(calls)
        # Held-back text that was not a tool call after all is the user's to see.
        rest = "" if written_calls else text_filter.flush()
        if rest:
            yield TextDelta(rest)
        yield Completed(ChatResult(message, assembler.usage, assembler.finish_reason))

    def _drop_grammar(self, exc: LLMStatusError) -> None:
        """The server refused our grammar: go on without one (a bug of ours, not the user's)."""
        log.warning("llm.grammar_refused", error=str(exc))
        self._grammar_on = False

    @asynccontextmanager
    async def _open_stream(
        self, body: dict[str, Any], plain: dict[str, Any] | None = None
    ) -> AsyncIterator[httpx.Response]:
        # Retries apply until the response headers arrive; a stream cut later is an error.
        async def call() -> httpx.Response:
            request = self._http.build_request(
                "POST", f"{self.base_url}/chat/completions", json=body, headers=self._headers
            )
            response = await self._http.send(request, stream=True)
            if response.status_code >= 400:
                await response.aread()
                await response.aclose()
            self._check(response)
            return response

        try:
            response = await self._with_retries("stream", call)
        except LLMStatusError as exc:
            if plain is None or not _grammar_refused(exc):
                raise
            self._drop_grammar(exc)
            body = plain
            response = await self._with_retries("stream", call)
        try:
            yield response
        except httpx.TransportError as exc:
            raise LLMUnavailable(
                f"the model server's stream broke off ({self._scrub(repr(exc))})"
            ) from exc
        finally:
            await response.aclose()

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embeddings for ``texts``, in order, sent in batches."""
        out: list[list[float]] = []
        for start in range(0, len(texts), EMBED_BATCH):
            batch = list(texts[start : start + EMBED_BATCH])
            out.extend(await self._embed_batch(batch))
        return out

    async def embed_one(self, text: str) -> list[float]:
        return (await self.embed([text]))[0]

    async def _embed_batch(self, batch: list[str]) -> list[list[float]]:
        # No id_slot: llama-server gives an embedding the idle slot used least recently anyway.
        body: dict[str, Any] = {"model": self._embed_model, "input": batch}

        async def call() -> Any:
            response = await self._http.post(
                f"{self._embed_url}/embeddings", json=body, headers=self._headers
            )
            self._check(response)
            return response.json()

        data = await self._with_retries("embed", call)
        try:
            rows = sorted(data["data"], key=lambda row: row.get("index", 0))
            vectors = [[float(x) for x in row["embedding"]] for row in rows]
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise LLMResponseError("model server's embeddings answer is malformed") from exc
        if len(vectors) != len(batch):
            raise LLMResponseError(
                f"asked for {len(batch)} embeddings, the server returned {len(vectors)}"
            )
        return vectors

    async def ping(self) -> bool:
        """Whether the server answers at all (any HTTP status counts)."""
        try:
            await self._http.get(f"{self.base_url}/models", headers=self._headers, timeout=3.0)
        except httpx.TransportError:
            return False
        return True

    async def context_size(self) -> int | None:
        """The model's context size in tokens, from llama-server's ``GET /props``.

        None when the server has no such endpoint (vLLM, OpenAI...) or it fails; the answer is
        asked again next time then, and kept for good after the first success.
        """
        if self._context_size is None:
            self._context_size = _props_n_ctx(await self._server_props())
        return self._context_size

    async def _server_props(self) -> dict[str, Any] | None:
        """llama-server's ``GET /props`` (kept after the first answer), or None."""
        if self._props is not None:
            return self._props
        url = f"{server_root(self.base_url)}/props"
        try:
            response = await self._http.get(url, headers=self._headers, timeout=PROPS_TIMEOUT)
            data = response.json() if response.status_code == 200 else None
        except (httpx.HTTPError, ValueError):
            return None
        if isinstance(data, dict):
            self._props = data
        elif 400 <= response.status_code < 500:
            self._props = {}  # a final "no such thing": not asked again
        return self._props


def _grammar_refused(exc: LLMStatusError) -> bool:
    return exc.status_code == 400 and "grammar" in str(exc).lower()


def _props_n_ctx(data: Any) -> int | None:
    """``default_generation_settings.n_ctx`` of a ``/props`` answer (or a top-level ``n_ctx``).

    llama-server reports the context of one slot there, which is what one request may use.
    """
    if not isinstance(data, dict):
        return None
    settings = data.get("default_generation_settings")
    for where in (settings, data):
        n_ctx = where.get("n_ctx") if isinstance(where, dict) else None
        if isinstance(n_ctx, int) and not isinstance(n_ctx, bool) and n_ctx > 0:
            return n_ctx
    return None


def _parse_tool_calls(raw: Any) -> Iterable[ToolCall]:
    if not raw:
        return
    if not isinstance(raw, list):
        raise LLMResponseError("model server's tool_calls is not a list")
    for item in raw:
        try:
            fn = item["function"]
            name = fn["name"]
            args = fn.get("arguments") or "{}"
        except (KeyError, TypeError) as exc:
            raise LLMResponseError("model server sent a tool call without a function") from exc
        if not isinstance(args, str):
            args = json.dumps(args)
        yield ToolCall(id=item.get("id") or _new_call_id(), name=str(name), arguments=args)


class _StreamAssembler:
    """Collects a chat stream's content, tool-call deltas (by index), usage and finish reason."""

    def __init__(self, scrub: Scrubber) -> None:
        self._scrub = scrub
        self._text: list[str] = []
        self._calls: dict[int, dict[str, Any]] = {}
        self._usage: Any = None
        self._timings: Any = None
        self.finish_reason: str | None = None

    @property
    def usage(self) -> Usage:
        """The last usage object and the last llama-server ``timings`` the stream carried."""
        return Usage.from_openai(self._usage, self._timings)

    def feed(self, chunk: Any) -> str:
        if not isinstance(chunk, dict):
            raise LLMResponseError("model server sent a stream chunk that is not an object")
        if chunk.get("error"):
            # llama-server and OpenAI report a failure after the headers inside the stream.
            overflow = _context_exceeded(400, {"error": chunk["error"]})
            if overflow is not None:
                raise overflow
            detail = self._scrub(_error_message(chunk["error"]) or "no details")[:500]
            raise LLMResponseError(f"model server reported an error mid-stream: {detail}")
        if chunk.get("usage"):
            self._usage = chunk["usage"]
        if chunk.get("timings"):
            self._timings = chunk["timings"]
        choices = chunk.get("choices") or []
        if not choices:
            return ""
        choice = choices[0]
        if choice.get("finish_reason"):
            self.finish_reason = choice["finish_reason"]
        delta = choice.get("delta") or {}
        for part in delta.get("tool_calls") or []:
            slot = self._calls.setdefault(
                int(part.get("index", len(self._calls))), {"id": None, "name": "", "args": []}
            )
            if part.get("id"):
                slot["id"] = part["id"]
            fn = part.get("function") or {}
            if fn.get("name"):
                slot["name"] += fn["name"]
            if fn.get("arguments"):
                slot["args"].append(fn["arguments"])
        text = delta.get("content") or ""
        if text:
            self._text.append(text)
        return str(text)

    def content(self) -> str:
        return "".join(self._text)

    def tool_calls(self) -> Iterable[ToolCall]:
        for _, slot in sorted(self._calls.items()):
            yield ToolCall(
                id=slot["id"] or _new_call_id(),
                name=slot["name"],
                arguments="".join(slot["args"]) or "{}",
            )


@asynccontextmanager
async def open_client(settings: Any) -> AsyncIterator[LLMClient]:
    """An LLMClient with its own connection pool, configured from ``Settings.llm``."""
    llm = settings.llm
    timeout = httpx.Timeout(llm.timeout, connect=llm.connect_timeout)
    transport = ShardedTransport(shards=8, connections_per_shard=32)
    async with httpx.AsyncClient(timeout=timeout, transport=transport) as http:
        yield LLMClient(
            http,
            base_url=llm.base_url,
            model=llm.model,
            api_key=llm.api_key.get_secret_value() if llm.api_key else None,
            secrets=secret_values(settings),
            max_retries=llm.max_retries,
            temperature=llm.temperature,
            seed=llm.seed,
            embed_url=llm.embed_url,
            embed_model=llm.embed_model,
            tool_grammar=llm.tool_grammar,
        )


__all__ = [
    "ChatResult",
    "Completed",
    "LLMClient",
    "LLMError",
    "StreamEvent",
    "TextDelta",
    "Usage",
    "api_root",
    "open_client",
    "server_root",
]


async def _read_to_end(chunks: AsyncIterator[bytes]) -> None:
    """Read what is left after ``[DONE]`` (bounded), so the response ends cleanly."""
    with anyio.move_on_after(AFTER_DONE_SECONDS):
        count = 0
        async for _ in chunks:
            count += 1
            if count >= AFTER_DONE_CHUNKS:
                return


def _stream_chunk(data: str) -> Any:
    """One event of a model server's stream, as JSON."""
    try:
        return json.loads(data)
    except ValueError as exc:
        raise LLMResponseError("model server sent a stream chunk that is not JSON") from exc
