"""Tools known by a JSON schema (MCP's): raw arguments, outcomes, timeouts, tenant gating."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from agentd import scope as scopes
from agentd.messages import ToolCall
from agentd.tools.registry import SchemaTool, ToolOutcome, ToolRegistry

pytestmark = pytest.mark.anyio

PARAMS = {
    "type": "object",
    "title": "echoArguments",
    "properties": {"text": {"type": "string", "title": "Text"}},
    "required": ["text"],
    "additionalProperties": False,
}


async def _echo(args: dict[str, Any]) -> str:
    return f"got {args}"


def _registry(**kwargs: Any) -> ToolRegistry:
    registry = ToolRegistry(default_timeout=5)
    registry.add_schema_tool(SchemaTool("srv__echo", "Echo.", PARAMS, _echo, **kwargs))
    return registry


async def test_a_schema_tool_gets_the_raw_arguments_and_a_compact_schema() -> None:
    """The model's arguments object reaches the function as is; the schema loses titles."""
    registry = _registry()
    out = await registry.call(ToolCall("1", "srv__echo", '{"text": "hi", "more": 1}'))
    assert out == ToolOutcome("got {'text': 'hi', 'more': 1}")
    params = registry.schemas()[0]["function"]["parameters"]
    assert params == {
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"],
    }


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        pytest.param("[1]", "error: arguments must be a JSON object", id="not-object"),
        pytest.param("{", "error: arguments are not valid JSON", id="bad-json"),
    ],
)
async def test_bad_arguments_are_error_outcomes(arguments: str, expected: str) -> None:
    """Arguments that are not one JSON object never reach the tool."""
    out = await _registry().call(ToolCall("1", "srv__echo", arguments))
    assert out.error and out.content.startswith(expected)


async def test_outcomes_failures_and_timeouts_are_tool_results() -> None:
    """A returned error outcome passes through; an exception and a timeout become errors."""

    async def refuse(args: dict[str, Any]) -> ToolOutcome:
        return ToolOutcome("error: no", True)

    async def boom(args: dict[str, Any]) -> str:
        raise RuntimeError("broken pipe")

    async def hang(args: dict[str, Any]) -> str:
        await anyio.sleep(30)
        return "late"

    registry = ToolRegistry()
    registry.add_schema_tool(SchemaTool("a", "A.", PARAMS, refuse))
    registry.add_schema_tool(SchemaTool("b", "B.", PARAMS, boom))
    registry.add_schema_tool(SchemaTool("c", "C.", PARAMS, hang, timeout=0.05))
    assert await registry.call(ToolCall("1", "a", "{}")) == ToolOutcome("error: no", True)
    assert await registry.call(ToolCall("1", "b", "{}")) == ToolOutcome(
        "error: RuntimeError: broken pipe", True
    )
    assert await registry.call(ToolCall("1", "c", "{}")) == ToolOutcome(
        "error: c timed out after 0.05s", True
    )
    with pytest.raises(ValueError, match="registered already"):
        registry.add_schema_tool(SchemaTool("a", "A.", PARAMS, refuse))


async def test_a_tenant_limited_tool_is_offered_and_run_in_those_tenants_only() -> None:
    """Other tenants are neither offered it nor may call it; without a scope it is hidden."""

    async def now() -> str:
        """The time."""
        return "noon"

    registry = _registry(tenants=frozenset({"acme"}))
    registry.add(now)
    call = ToolCall("1", "srv__echo", '{"text": "x"}')
    with scopes.use(scopes.Scope("acme")):
        assert registry.names == {"now", "srv__echo"}
        assert [s["function"]["name"] for s in registry.schemas()] == ["srv__echo", "now"]
        assert not (await registry.call(call)).error
    with scopes.use(scopes.Scope("other")):
        assert registry.names == {"now"}
        assert [s["function"]["name"] for s in registry.schemas()] == ["now"]
        out = await registry.call(call)
        assert out.error and "unknown tool 'srv__echo'; available: now" in out.content
    assert registry.names == {"now"}
    registry.remove("srv__echo")
    with scopes.use(scopes.Scope("acme")):
        assert registry.names == {"now"}
