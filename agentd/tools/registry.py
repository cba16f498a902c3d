"""The tool registry: a tool is an async function with type hints and a docstring.

The JSON schema the model sees is made from the signature (pydantic), arguments are validated
before the call, and every failure (invalid JSON, unknown tool, bad arguments, an exception, a
timeout) becomes an error result the model can read and react to, never a crashed turn.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import pydantic
import structlog

from agentd.messages import ToolCall

log = structlog.get_logger("agentd.tools.registry")

ToolFn = Callable[..., Awaitable[Any]]
_ARG_LINE = re.compile(r"^\s*(\w+)\s*(?:\([^)]*\))?\s*:\s*(.+)$")


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    """What a tool call produced: the text the model sees, and whether it is an error."""

    content: str
    error: bool = False


#: Schema keywords whose value maps names (of arguments, of definitions) to schemas.
_NAME_MAPS = frozenset(("properties", "patternProperties", "$defs", "definitions"))


def _strip_titles(node: Any, *, names: bool = False) -> Any:
    """Drop pydantic's ``title`` keys: they cost tokens on every turn and say nothing.

    ``names`` marks a mapping of names to schemas, whose keys all stay: an argument may be
    called ``title``.
    """
    if isinstance(node, dict):
        return {
            k: _strip_titles(v, names=not names and k in _NAME_MAPS)
            for k, v in node.items()
            if names or k != "title"
        }
    if isinstance(node, list):
        return [_strip_titles(v) for v in node]
    return node


def compact_parameters(schema: dict[str, Any]) -> dict[str, Any]:
    """A tool's parameters schema as the model is shown it: no ``title`` keys anywhere and no
    top-level ``additionalProperties`` (arguments are validated here, not by the model)."""
    params: dict[str, Any] = _strip_titles(schema)
    params.pop("additionalProperties", None)
    return params


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """The description (text before ``Args:``) and per-argument descriptions."""
    text = inspect.cleandoc(doc)
    head, _, args_part = text.partition("\nArgs:")
    params: dict[str, str] = {}
    current: str | None = None
    indent = 0
    for line in args_part.splitlines()[1:]:
        if line.strip() and not line[0].isspace():
            break  # the next section (Returns:, Raises:, ...)
        depth = len(line) - len(line.lstrip())
        match = _ARG_LINE.match(line)
        if match and (current is None or depth <= indent):
            current, indent = match.group(1), depth
            params[current] = match.group(2).strip()
        elif current is not None and line.strip():
            params[current] += " " + line.strip()  # a wrapped description line
    description = " ".join(head.split())
    return description, params


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    description: str
    fn: ToolFn
    args_model: type[pydantic.BaseModel]
    timeout: float | None

    @classmethod
    def from_function(
        cls, fn: ToolFn, *, name: str | None = None, timeout: float | None = None
    ) -> Tool:
        if not inspect.iscoroutinefunction(fn):
            raise TypeError(f"tool {fn.__name__!r} must be an async function")
        doc = inspect.getdoc(fn)
        if not doc:
            raise TypeError(f"tool {fn.__name__!r} needs a docstring: it is the model's manual")
        description, arg_docs = _parse_docstring(doc)
        hints = inspect.get_annotations(fn, eval_str=True)
        fields: dict[str, Any] = {}
        for param in inspect.signature(fn).parameters.values():
            if param.name not in hints:
                raise TypeError(f"tool {fn.__name__!r}: parameter {param.name!r} has no type hint")
            default = ... if param.default is inspect.Parameter.empty else param.default
            fields[param.name] = (
                hints[param.name],
                pydantic.Field(default, description=arg_docs.get(param.name)),
            )
        model = pydantic.create_model(
            f"{fn.__name__}_args",
            __config__=pydantic.ConfigDict(extra="forbid"),
            **fields,
        )
        return cls(name or fn.__name__, description, fn, model, timeout)

    def schema(self) -> dict[str, Any]:
        params = compact_parameters(self.args_model.model_json_schema())
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": params},
        }


def _format_validation(exc: pydantic.ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False):
        where = ".".join(str(p) for p in err["loc"]) or "arguments"
        msg = "unexpected argument" if err["type"] == "extra_forbidden" else err["msg"]
        parts.append(f"{where}: {msg}")
    return "; ".join(parts)


def _render(result: Any) -> str:
    if isinstance(result, str):
        return result
    return json.dumps(result, ensure_ascii=False, default=str)


class ToolRegistry:
    """Named tools, their schemas, and safe execution of model-requested calls."""

    def __init__(self, *, default_timeout: float = 30.0) -> None:
        self._tools: dict[str, Tool] = {}
        self._schemas: list[dict[str, Any]] | None = None
        self.default_timeout = default_timeout

    def add(self, fn: ToolFn, *, name: str | None = None, timeout: float | None = None) -> Tool:
        tool = Tool.from_function(fn, name=name, timeout=timeout)
        if tool.name in self._tools:
            raise ValueError(f"a tool named {tool.name!r} is registered already")
        self._tools[tool.name] = tool
        self._schemas = None
        return tool

    def remove(self, name: str) -> None:
        self._tools.pop(name, None)
        self._schemas = None

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self._tools)

    def schemas(self, allowed: frozenset[str] | None = None) -> list[dict[str, Any]]:
        """The tools' JSON schemas, built once (they are sent on every model call); with
        ``allowed``, only those tools' (a turn's tool policy)."""
        if self._schemas is None:
            self._schemas = [tool.schema() for tool in self._tools.values()]
        if allowed is None:
            return self._schemas
        return [s for s in self._schemas if s["function"]["name"] in allowed]

    async def call(self, call: ToolCall, allowed: frozenset[str] | None = None) -> ToolOutcome:
        """Run one tool call; every failure is returned as an error outcome.

        A tool outside ``allowed`` (when given) is unknown to this call: the turn's policy
        did not offer it, so the model cannot make it run by naming it.
        """
        tool = self._tools.get(call.name)
        if allowed is not None and call.name not in allowed:
            tool = None
        if tool is None:
            names = self._tools if allowed is None else [n for n in self._tools if n in allowed]
            available = ", ".join(sorted(names)) or "none"
            return ToolOutcome(f"error: unknown tool {call.name!r}; available: {available}", True)
        try:
            raw = json.loads(call.arguments) if call.arguments.strip() else {}
        except json.JSONDecodeError as exc:
            return ToolOutcome(
                f"error: arguments are not valid JSON ({exc.msg} at char {exc.pos}); "
                "send one JSON object",
                True,
            )
        if not isinstance(raw, dict):
            return ToolOutcome("error: arguments must be a JSON object", True)
        try:
            args = tool.args_model.model_validate(raw)
        except pydantic.ValidationError as exc:
            return ToolOutcome(f"error: invalid arguments: {_format_validation(exc)}", True)
        timeout = tool.timeout or self.default_timeout
        kwargs = {name: getattr(args, name) for name in type(args).model_fields}
        try:
            with anyio.fail_after(timeout):
                result = await tool.fn(**kwargs)
        except TimeoutError:
            log.warning("tool.timeout", tool=call.name, timeout=timeout)
            return ToolOutcome(f"error: {call.name} timed out after {timeout:g}s", True)
        except Exception as exc:
            log.warning("tool.failed", tool=call.name, error=str(exc), exc_type=type(exc).__name__)
            return ToolOutcome(f"error: {type(exc).__name__}: {exc}", True)
        return ToolOutcome(_render(result))
