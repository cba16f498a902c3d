"""The OpenAI chat-completions wire format, as the HTTP channel reads and writes it.

Requests are validated strictly (a wrong type is a 400 naming the field, never coerced);
unknown fields (``temperature``...) are accepted and ignored, because the agent decides how it
calls its model. The client's own function ``tools`` are read (see :class:`ToolIn`): the model is
offered them beside the agent's, and a call of one is answered to the client to run.
Responses, stream chunks and errors follow the OpenAI shapes exactly, so
every OpenAI client library reads them.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field

from agentd.messages import Message, Role, ToolCall
from agentd.model.choice import ANY, CallRule
from agentd.model.client import Usage
from agentd.model.grammar import tool_step_grammar

SESSION_ID = re.compile(r"^[\w.:@+-]{1,128}$")


class ApiError(Exception):
    """An error answered to the client in the OpenAI error shape."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        type: str = "invalid_request_error",
        code: str | None = None,
        param: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.type = type
        self.code = code
        self.param = param
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return error_body(self.message, self.type, code=self.code, param=self.param)


def error_body(
    message: str, type: str, *, code: str | None = None, param: str | None = None
) -> dict[str, Any]:
    return {"error": {"message": message, "type": type, "param": param, "code": code}}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


class ContentPart(_Strict):
    type: str
    text: str | None = None


class FunctionIn(_Strict):
    name: str
    arguments: str


class ToolCallIn(_Strict):
    id: str
    type: Literal["function"] = "function"
    function: FunctionIn


class MessageIn(_Strict):
    role: Literal["system", "developer", "user", "assistant", "tool"]
    content: str | list[ContentPart] | None = None
    name: str | None = None
    tool_calls: list[ToolCallIn] | None = None
    tool_call_id: str | None = None


class FunctionDef(_Strict):
    name: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    description: str | None = None
    parameters: dict[str, Any] | None = None
    strict: bool | None = None


class ToolIn(_Strict):
    """A client tool: an OpenAI function tool, run by the client when the model calls it."""

    type: Literal["function"]
    function: FunctionDef

    def offered(self) -> dict[str, Any]:
        """The tool as the model is offered it (OpenAI ``tools`` entry, no empty fields)."""
        return {"type": "function", "function": self.function.model_dump(exclude_none=True)}


class NamedFunction(_Strict):
    name: str


class ToolChoiceFunction(_Strict):
    type: Literal["function"]
    function: NamedFunction


ToolChoice = Literal["auto", "none", "required"] | ToolChoiceFunction


class StreamOptions(_Strict):
    include_usage: bool = False


class ChatRequest(_Strict):
    model: str | None = None
    messages: list[MessageIn] = Field(min_length=1)
    stream: bool | None = False
    stream_options: StreamOptions | None = None
    user: str | None = None
    n: int | None = None
    tools: list[ToolIn] | None = None
    tool_choice: ToolChoice | None = None
    parallel_tool_calls: bool | None = None


@dataclass(frozen=True, slots=True)
class RequestLimits:
    """How much one request may carry: per message, in all messages, and how many messages."""

    message_chars: int = 100_000
    request_chars: int = 200_000
    messages: int = 1000


@dataclass(slots=True)
class ParsedRequest:
    """A validated chat request in agentd's terms."""

    messages: list[Message]
    stream: bool
    include_usage: bool
    user: str | None
    max_message_chars: int
    #: The client's tools as the model is offered them (OpenAI ``tools`` entries).
    tools: list[dict[str, Any]] = field(default_factory=list)
    #: ``tool_choice: "none"``: this request offers the model no tools at all.
    no_tools: bool = False
    #: ``tool_choice`` "required" or a named function, and ``parallel_tool_calls: false``.
    rule: CallRule = ANY

    @property
    def tool_names(self) -> frozenset[str]:
        return frozenset(t["function"]["name"] for t in self.tools)

    def trailing_tool_results(self) -> list[Message]:
        """The ``tool`` messages ending the request: a session's results for its pending calls."""
        results: list[Message] = []
        for message in reversed(self.messages):
            if message.role != "tool":
                break
            results.append(message)
        return results[::-1]

    def trailing_user_text(self) -> str:
        """The user messages after the last non-user message, joined (what a session appends).

        The joined text is one stored message, so it is held to the per-message limit too.
        """
        texts: list[str] = []
        for message in reversed(self.messages):
            if message.role != "user":
                break
            texts.append(message.content)
        if not texts:
            raise ApiError(
                400,
                "with a session the last message must be a user message",
                param="messages",
                code="no_user_message",
            )
        text = "\n\n".join(reversed(texts))
        if len(text) > self.max_message_chars:
            raise ApiError(
                400,
                f"the trailing user messages make one message of {len(text)} characters, "
                f"longer than max_message_chars ({self.max_message_chars})",
                param="messages",
                code="message_too_long",
            )
        return text


def _where(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc if part not in ("str", "list[ContentPart]"))


def parse_request(body: bytes, limits: RequestLimits) -> ParsedRequest:
    """Validate a chat request body, or raise ApiError(400) saying what is wrong and where."""
    try:
        req = ChatRequest.model_validate_json(body)
    except pydantic.ValidationError as exc:
        err = exc.errors(include_url=False, include_input=False)[0]
        if err["type"] == "json_invalid":
            raise ApiError(400, "request body is not valid JSON", code="invalid_json") from None
        where = _where(err["loc"])
        reason = f"{where}: {err['msg']}" if where else err["msg"]
        raise ApiError(400, reason, param=where or None, code="invalid_value") from None
    if req.n not in (None, 1):
        raise ApiError(400, "only n=1 is supported", param="n", code="invalid_value")
    if len(req.messages) > limits.messages:
        raise ApiError(
            400,
            f"{len(req.messages)} messages are more than max_messages ({limits.messages})",
            param="messages",
            code="too_many_messages",
        )
    messages = [_to_message(i, m, limits.message_chars) for i, m in enumerate(req.messages)]
    total = sum(len(m.content) for m in messages)
    if total > limits.request_chars:
        raise ApiError(
            400,
            f"the messages hold {total} characters, more than max_request_chars "
            f"({limits.request_chars})",
            param="messages",
            code="request_too_long",
        )
    check_tool_exchanges(messages)
    tools = [t.offered() for t in req.tools or ()]
    _check_tools(tools)
    return ParsedRequest(
        messages=messages,
        stream=bool(req.stream),
        include_usage=bool(req.stream_options and req.stream_options.include_usage),
        user=req.user,
        max_message_chars=limits.message_chars,
        tools=tools,
        no_tools=req.tool_choice == "none",
        rule=_rule(req),
    )


def _rule(req: ChatRequest) -> CallRule:
    choice = req.tool_choice
    return CallRule(
        required=choice == "required",
        name=choice.function.name if isinstance(choice, ToolChoiceFunction) else None,
        single=req.parallel_tool_calls is False,
    )


#: How deeply a client tool's parameters schema may nest (the grammar builder recurses).
MAX_SCHEMA_DEPTH = 32


def _depth(node: Any) -> int:
    # Iterative: the point is to refuse what recursion would choke on.
    deepest, todo = 0, [(node, 1)]
    while todo:
        value, depth = todo.pop()
        deepest = max(deepest, depth)
        if depth > MAX_SCHEMA_DEPTH:
            break
        children = value.values() if isinstance(value, dict) else value
        if isinstance(value, dict | list):
            todo.extend((child, depth + 1) for child in children)
    return deepest


def _check_tools(tools: list[dict[str, Any]]) -> None:
    """Names unique, and each parameters schema one the model's grammar can be built from."""
    seen: set[str] = set()
    for index, tool in enumerate(tools):
        name = tool["function"]["name"]
        parameters = tool["function"].get("parameters")
        if parameters is not None:
            unusable = _depth(parameters) > MAX_SCHEMA_DEPTH
            if not unusable:
                try:
                    tool_step_grammar([tool])
                except Exception:  # a schema from the caller: any failure is its fault
                    unusable = True
            if unusable:
                raise ApiError(
                    400,
                    f"tools.{index}: the parameters are not a JSON schema agentd can use "
                    f"(nested at most {MAX_SCHEMA_DEPTH} deep, definitions an object)",
                    param=f"tools.{index}.function.parameters",
                    code="invalid_tools",
                )
        if name in seen:
            raise ApiError(
                400,
                f"tools.{index}: the tool name {name!r} is used twice",
                param=f"tools.{index}.function.name",
                code="invalid_tools",
            )
        seen.add(name)


def check_tool_clash(parsed: ParsedRequest, agent_tools: frozenset[str]) -> None:
    """Raise ApiError(400) when a client tool has the name of one of the agent's tools."""
    for index, tool in enumerate(parsed.tools):
        name = tool["function"]["name"]
        if name in agent_tools:
            raise ApiError(
                400,
                f"tools.{index}: the agent has a tool named {name!r} already; "
                "rename the client tool",
                param=f"tools.{index}.function.name",
                code="tool_name_clash",
            )


def check_tool_choice(parsed: ParsedRequest, agent_tools: frozenset[str]) -> None:
    """Raise ApiError(400) when ``tool_choice`` names a function no one offers."""
    name = parsed.rule.name
    if name is not None and name not in parsed.tool_names | agent_tools:
        raise ApiError(
            400,
            f"tool_choice names the function {name!r}, which neither the request's tools "
            "nor the agent's tools have",
            param="tool_choice",
            code="unknown_tool_choice",
        )


def check_tool_exchanges(messages: list[Message]) -> None:
    """Raise ApiError(400) unless every tool call has its result and every result its call.

    An assistant message's calls must each be answered by a ``tool`` message before the next
    user or assistant message; a ``tool`` message must answer an open call; call ids are unique.
    """
    open_calls: dict[str, int] = {}
    seen: set[str] = set()
    for index, message in enumerate(messages):
        if message.role in ("user", "assistant") and open_calls:
            _unanswered(open_calls, f"before message {index}")
        if message.role == "assistant":
            for call in message.tool_calls:
                if call.id in seen:
                    raise ApiError(
                        400,
                        f"message {index}: tool call id {call.id!r} is used twice",
                        param=f"messages.{index}.tool_calls",
                        code="invalid_tool_calls",
                    )
                seen.add(call.id)
                open_calls[call.id] = index
        elif message.role == "tool":
            call_id = message.tool_call_id or ""
            if open_calls.pop(call_id, None) is None:
                raise ApiError(
                    400,
                    f"message {index}: tool message answers no open tool call "
                    f"(tool_call_id {call_id!r})",
                    param=f"messages.{index}.tool_call_id",
                    code="invalid_tool_calls",
                )
    if open_calls:
        _unanswered(open_calls, "at the end of the messages")


def _unanswered(open_calls: dict[str, int], where: str) -> None:
    call_id, index = next(iter(open_calls.items()))
    raise ApiError(
        400,
        f"message {index}: tool call {call_id!r} has no tool message with its result {where}",
        param=f"messages.{index}.tool_calls",
        code="invalid_tool_calls",
    )


def _to_message(index: int, raw: MessageIn, max_chars: int) -> Message:
    param = f"messages.{index}.content"
    if raw.content is None:
        content = ""
    elif isinstance(raw.content, str):
        content = raw.content
    else:
        parts = []
        for part in raw.content:
            if part.type != "text" or part.text is None:
                raise ApiError(
                    400, "only text content parts are supported", param=param, code="unsupported"
                )
            parts.append(part.text)
        content = "".join(parts)
    if len(content) > max_chars:
        raise ApiError(
            400,
            f"message {index} is longer than {max_chars} characters",
            param=param,
            code="message_too_long",
        )
    role: Role = "system" if raw.role == "developer" else raw.role
    if role == "tool" and not raw.tool_call_id:
        raise ApiError(
            400, "a tool message needs tool_call_id", param=f"messages.{index}.tool_call_id"
        )
    calls = tuple(
        ToolCall(c.id, c.function.name, c.function.arguments) for c in raw.tool_calls or ()
    )
    if calls and role != "assistant":
        raise ApiError(400, "only assistant messages carry tool_calls", param=f"messages.{index}")
    return Message(
        role=role,
        content=content,
        tool_calls=calls,
        tool_call_id=raw.tool_call_id if role == "tool" else None,
        name=raw.name if role == "tool" else None,
    )


def session_id(header: str | None, user: str | None) -> str | None:
    """The session named by ``X-Session-Id`` (first) or the ``user`` field, validated."""
    value = header if header is not None else user
    if value is None or value == "":
        return None
    if not SESSION_ID.match(value):
        raise ApiError(
            400,
            "a session id is 1-128 characters of letters, digits and . : @ + - _",
            param="user" if header is None else None,
            code="invalid_session",
        )
    return value


def usage_body(usage: Usage) -> dict[str, Any]:
    """OpenAI's usage object; prompt tokens the model server reused from its cache included."""
    return {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "total_tokens": usage.total_tokens,
        "prompt_tokens_details": {"cached_tokens": usage.cached_tokens},
    }


@dataclass(slots=True)
class Reply:
    """Identity of one completion: its id, creation time and model name."""

    model: str
    id: str = field(default_factory=lambda: "chatcmpl-" + secrets.token_hex(12))
    created: int = field(default_factory=lambda: int(time.time()))

    def completion(
        self, content: str, usage: Usage, tool_calls: tuple[ToolCall, ...] = ()
    ) -> dict[str, Any]:
        """The whole answer; with ``tool_calls`` it asks the client to run them."""
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if tool_calls:
            message["content"] = content or None
            message["tool_calls"] = [call.to_openai() for call in tool_calls]
        return {
            "id": self.id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "logprobs": None,
                    "finish_reason": "tool_calls" if tool_calls else "stop",
                }
            ],
            "usage": usage_body(usage),
        }

    def chunk(
        self,
        delta: dict[str, Any],
        finish_reason: str | None = None,
        *,
        with_usage: bool = False,
    ) -> bytes:
        data: dict[str, Any] = {
            "id": self.id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "choices": [
                {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
            ],
        }
        if with_usage:
            data["usage"] = None
        return sse(data)

    def tool_call_chunks(self, calls: tuple[ToolCall, ...], *, with_usage: bool) -> bytes:
        """The client's calls as stream deltas, one per call, each whole (OpenAI's shape)."""
        return b"".join(
            self.chunk(
                {"tool_calls": [{"index": index, **call.to_openai()}]}, with_usage=with_usage
            )
            for index, call in enumerate(calls)
        )

    def usage_chunk(self, usage: Usage) -> bytes:
        return sse(
            {
                "id": self.id,
                "object": "chat.completion.chunk",
                "created": self.created,
                "model": self.model,
                "choices": [],
                "usage": usage_body(usage),
            }
        )


def sse(data: dict[str, Any]) -> bytes:
    """One server-sent event carrying ``data`` as compact JSON."""
    return b"data: " + json.dumps(data, separators=(",", ":")).encode() + b"\n\n"


DONE = b"data: [DONE]\n\n"
