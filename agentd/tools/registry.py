"""The tool registry: a tool is an async function with type hints and a docstring.

The JSON schema the model sees is made from the signature (pydantic), arguments are validated
before the call. A tool that brings its own JSON schema (an MCP server's) is a
:class:`SchemaTool`, called with the arguments object; it may be limited to some tenants.
Every failure (invalid JSON, unknown tool, bad arguments, an exception, a timeout) becomes an
error result the model can read and react to, never a crashed turn.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import anyio
import pydantic
import structlog

from agentd import scope as scopes
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


def _optional(prop: Any) -> Any:
    """An optional argument as the model needs it: leaving it out is how it says "none", so a
    ``null`` branch (``X | None``) and an empty default (``None``, ``""``) go."""
    if not isinstance(prop, dict):
        return prop
    prop = dict(prop)
    if prop.get("default", 0) in (None, ""):
        del prop["default"]
    branches = prop.get("anyOf")
    if isinstance(branches, list):
        kept = [b for b in branches if b != {"type": "null"}]
        if len(kept) == 1 and isinstance(kept[0], dict) and len(kept) < len(branches):
            del prop["anyOf"]
            prop = {**kept[0], **prop}
    return prop


def compact_parameters(schema: dict[str, Any]) -> dict[str, Any]:
    """A tool's parameters schema as the model is shown it: no ``title`` keys anywhere, no
    top-level ``additionalProperties`` (arguments are validated here, not by the model), and
    optional arguments without their ``null`` branch or empty default. Every token of it is
    sent on every model call."""
    params: dict[str, Any] = _strip_titles(schema)
    params.pop("additionalProperties", None)
    props = params.get("properties")
    if isinstance(props, dict):
        required = set(params.get("required") or ())
        params["properties"] = {
            name: prop if name in required else _optional(prop) for name, prop in props.items()
        }
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
    #: The tool only looks (reads, lists, searches): its calls change nothing.
    looks: bool = False
    #: What the tool works on (:mod:`agentd.tools.kinds`); empty: it says nothing.
    kind: str = ""

    @classmethod
    def from_function(
        cls,
        fn: ToolFn,
        *,
        name: str | None = None,
        timeout: float | None = None,
        looks: bool = False,
        kind: str = "",
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
        return cls(name or fn.__name__, description, fn, model, timeout, looks, kind)

    def schema(self) -> dict[str, Any]:
        params = compact_parameters(self.args_model.model_json_schema())
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": params},
        }


#: A tool known only by its JSON schema: called with the arguments object as the model sent it.
SchemaToolFn = Callable[[dict[str, Any]], Awaitable["ToolOutcome | str"]]


@dataclass(frozen=True, slots=True)
class SchemaTool:
    """A tool that comes with its own JSON schema (an MCP server's), not a Python signature.

    Its arguments are not validated here (the schema is the tool's, and so is the last word);
    ``fn`` returns the result text, or a :class:`ToolOutcome` to answer an error. ``tenants``
    limits it to those tenants' turns (None: every tenant): others are neither offered it nor
    may call it, and without a scope it is hidden (fail closed).
    """

    name: str
    description: str
    parameters: dict[str, Any]
    fn: SchemaToolFn
    timeout: float | None = None
    tenants: frozenset[str] | None = None
    #: The tool says it only looks (MCP's ``readOnlyHint``): its calls change nothing.
    looks: bool = False
    #: What the tool works on (:mod:`agentd.tools.kinds`); an MCP server's tools say nothing.
    kind: str = ""

    def schema(self) -> dict[str, Any]:
        params = compact_parameters(self.parameters)
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": params},
        }

    def visible(self) -> bool:
        """Whether the current scope's tenant may use it."""
        if self.tenants is None:
            return True
        scope = scopes.get()
        return scope is not None and scope.tenant in self.tenants


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
        self._tools: dict[str, Tool | SchemaTool] = {}
        self._schemas: list[dict[str, Any]] | None = None
        self._gated = False  # some tool is limited to some tenants
        self.default_timeout = default_timeout

    def add(
        self,
        fn: ToolFn,
        *,
        name: str | None = None,
        timeout: float | None = None,
        looks: bool = False,
        kind: str = "",
    ) -> Tool:
        """Add an async function as a tool; ``looks``: it only reads, never changes anything
        (its calls may be cached within a turn, and a turn that asks for words may use it);
        ``kind``: what it works on (:mod:`agentd.tools.kinds`)."""
        tool = Tool.from_function(fn, name=name, timeout=timeout, looks=looks, kind=kind)
        if tool.name in self._tools:
            raise ValueError(f"a tool named {tool.name!r} is registered already")
        self._tools[tool.name] = tool
        self._schemas = None
        return tool

    def add_schema_tool(self, tool: SchemaTool) -> SchemaTool:
        """Add a tool known by its JSON schema (see :class:`SchemaTool`); its name must be new."""
        if tool.name in self._tools:
            raise ValueError(f"a tool named {tool.name!r} is registered already")
        self._tools[tool.name] = tool
        self._schemas = None
        self._gated = self._gated or tool.tenants is not None
        return tool

    def remove(self, name: str) -> None:
        self._tools.pop(name, None)
        self._schemas = None

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[Tool | SchemaTool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    @property
    def looking(self) -> frozenset[str]:
        """The tools that only look; every other tool acts."""
        return frozenset(name for name, tool in self._tools.items() if tool.looks)

    @property
    def kinds(self) -> dict[str, str]:
        """What each tool that says so works on (:mod:`agentd.tools.kinds`), by name."""
        return {name: tool.kind for name, tool in self._tools.items() if tool.kind}

    @property
    def names(self) -> frozenset[str]:
        """The names of the tools the current scope's tenant may use."""
        if not self._gated:
            return frozenset(self._tools)
        return frozenset(name for name, tool in self._tools.items() if _visible(tool))

    def schemas(self, allowed: frozenset[str] | None = None) -> list[dict[str, Any]]:
        """The JSON schemas of the tools the current scope's tenant may use, built once (they
        are sent on every model call); a tool added or removed shows in the next call. With
        ``allowed``, only those tools' (a turn's tool policy)."""
        if self._schemas is None:
            self._schemas = [tool.schema() for tool in self._tools.values()]
        schemas = self._schemas
        if self._gated:
            tools = self._tools.values()
            schemas = [s for tool, s in zip(tools, schemas, strict=True) if _visible(tool)]
        if allowed is None:
            return schemas
        return [s for s in schemas if s["function"]["name"] in allowed]

    async def call(self, call: ToolCall, allowed: frozenset[str] | None = None) -> ToolOutcome:
        """Run one tool call; every failure is returned as an error outcome.

        A tool outside ``allowed`` (when given) is unknown to this call: the turn's policy
        did not offer it, so the model cannot make it run by naming it.
        """
        tool = self._tools.get(call.name)
        if tool is not None and (
            not _visible(tool) or (allowed is not None and call.name not in allowed)
        ):
            tool = None
        if tool is None:
            names = self.names if allowed is None else self.names & allowed
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
        if isinstance(tool, SchemaTool):
            run: Callable[[], Awaitable[Any]] = partial(tool.fn, raw)
        else:
            try:
                args = tool.args_model.model_validate(raw)
            except pydantic.ValidationError as exc:
                return ToolOutcome(f"error: invalid arguments: {_format_validation(exc)}", True)
            kwargs = {name: getattr(args, name) for name in type(args).model_fields}
            run = partial(tool.fn, **kwargs)
        timeout = tool.timeout or self.default_timeout
        try:
            with anyio.fail_after(timeout):
                result = await run()
        except TimeoutError:
            log.warning("tool.timeout", tool=call.name, timeout=timeout)
            return ToolOutcome(f"error: {call.name} timed out after {timeout:g}s", True)
        except Exception as exc:
            log.warning("tool.failed", tool=call.name, error=str(exc), exc_type=type(exc).__name__)
            return ToolOutcome(f"error: {type(exc).__name__}: {exc}", True)
        if isinstance(result, ToolOutcome):
            return result
        return ToolOutcome(_render(result))


def _visible(tool: Tool | SchemaTool) -> bool:
    return not isinstance(tool, SchemaTool) or tool.visible()
