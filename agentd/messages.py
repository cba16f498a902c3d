"""Messages in the OpenAI chat format, conversations, and the strict decoder of stored rows."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import pydantic

from agentd.errors import StoredRowError

Role = Literal["system", "user", "assistant", "tool"]
ROLES: frozenset[str] = frozenset(("system", "user", "assistant", "tool"))


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A model's request to run a tool; ``arguments`` is the raw JSON text the model sent."""

    id: str
    name: str
    arguments: str

    def to_openai(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


@dataclass(slots=True)
class Message:
    """One chat message. ``tool_call_id`` and ``name`` are set on tool results."""

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)
    timestamp: float = field(default_factory=time.time)
    tool_call_id: str | None = None
    name: str | None = None

    def to_openai(self) -> dict[str, Any]:
        """The message as the OpenAI chat API expects it (metadata and timestamp stay local)."""
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [call.to_openai() for call in self.tool_calls]
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        if self.name is not None and self.role == "tool":
            out["name"] = self.name
        return out

    def to_stored(self) -> str:
        """The JSON text stored for this message; :func:`decode_stored_message` reverses it."""
        row: dict[str, Any] = {"role": self.role, "content": self.content, "ts": self.timestamp}
        if self.tool_calls:
            row["tool_calls"] = [
                {"id": c.id, "name": c.name, "arguments": c.arguments} for c in self.tool_calls
            ]
        if self.metadata:
            row["metadata"] = self.metadata
        if self.tool_call_id is not None:
            row["tool_call_id"] = self.tool_call_id
        if self.name is not None:
            row["name"] = self.name
        return json.dumps(row, ensure_ascii=False, separators=(",", ":"))


def system(content: str) -> Message:
    return Message(role="system", content=content)


def user(content: str) -> Message:
    return Message(role="user", content=content)


def assistant(content: str, tool_calls: Iterable[ToolCall] = ()) -> Message:
    return Message(role="assistant", content=content, tool_calls=tuple(tool_calls))


def tool_result(call: ToolCall, content: str, *, error: bool = False) -> Message:
    meta: dict[str, Any] = {"error": True} if error else {}
    return Message(
        role="tool", content=content, tool_call_id=call.id, name=call.name, metadata=meta
    )


@dataclass(slots=True)
class Conversation:
    """An ordered list of messages; the system message, when present, comes first."""

    messages: list[Message] = field(default_factory=list)
    #: The first message the context budget sent last time (kept while it fits, so the
    #: prompt's prefix, and the model server's cache of it, stays the same).
    sent_from: Message | None = field(default=None, repr=False, compare=False)
    #: Prompt tokens of the last model call, as the server counted them (0: unknown).
    prompt_tokens: int = field(default=0, repr=False, compare=False)
    #: Whether the last turn's first step offered tools (an answer in words is sent none, and
    #: the model server renders the tools into the prompt's start).
    first_step_tools: bool = field(default=True, repr=False, compare=False)

    def __iter__(self) -> Iterator[Message]:
        return iter(self.messages)

    def __len__(self) -> int:
        return len(self.messages)

    def append(self, message: Message) -> None:
        self.messages.append(message)

    def extend(self, messages: Iterable[Message]) -> None:
        self.messages.extend(messages)

    @property
    def system(self) -> Message | None:
        first = self.messages[0] if self.messages else None
        return first if first is not None and first.role == "system" else None

    def set_system(self, content: str) -> None:
        """Replace (or insert) the system message."""
        if self.system is not None:
            self.messages[0] = Message(role="system", content=content)
        else:
            self.messages.insert(0, Message(role="system", content=content))

    def request(self) -> str:
        """The last user message's text ("" when there is none): what a turn answers."""
        return next((m.content for m in reversed(self.messages) if m.role == "user"), "")

    def copy(self) -> Conversation:
        return Conversation(list(self.messages))

    def to_openai(self) -> list[dict[str, Any]]:
        return [m.to_openai() for m in self.messages]


class _StoredToolCall(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", strict=True)
    id: str
    name: str = pydantic.Field(min_length=1)
    arguments: str


class _StoredMessage(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", strict=True)
    role: Role
    content: str
    ts: float | int
    tool_calls: list[_StoredToolCall] = []
    metadata: dict[str, Any] = {}
    tool_call_id: str | None = None
    name: str | None = None

    @pydantic.model_validator(mode="after")
    def _shape(self) -> _StoredMessage:
        if self.tool_calls and self.role != "assistant":
            raise ValueError("only assistant messages carry tool calls")
        if self.role == "tool" and not self.tool_call_id:
            raise ValueError("a tool message needs its tool_call_id")
        return self


def decode_stored_message(raw: str | bytes) -> Message:
    """Decode one stored row, or raise StoredRowError.

    The error says only that the row is malformed: neither the row's content nor the parser's
    diagnostics (which quote it) appear, so a corrupt row cannot leak into logs. Callers fail
    the whole read rather than skip the row.
    """
    try:
        row = _StoredMessage.model_validate_json(raw)
    except (pydantic.ValidationError, ValueError, TypeError):
        raise StoredRowError("stored message is malformed") from None
    return Message(
        role=row.role,
        content=row.content,
        tool_calls=tuple(ToolCall(c.id, c.name, c.arguments) for c in row.tool_calls),
        metadata=row.metadata,
        timestamp=float(row.ts),
        tool_call_id=row.tool_call_id,
        name=row.name,
    )
