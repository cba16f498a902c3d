"""The tool registry: schemas from type hints, validation, and failures as results."""

from __future__ import annotations

import json
from typing import Literal

import anyio
import pytest

from agentd.errors import ToolError
from agentd.messages import ToolCall
from agentd.tools.registry import SchemaTool, Tool, ToolOutcome, ToolRegistry, compact_parameters

pytestmark = pytest.mark.anyio


async def add_numbers(a: int, b: int = 2, mode: Literal["sum", "diff"] = "sum") -> int:
    """Add or subtract two numbers.

    Args:
        a: The first number.
        b (int): The second number.
        mode: What to do with them.
    """
    return a + b if mode == "sum" else a - b


def call(name: str, arguments: str | dict[str, object] = "{}") -> ToolCall:
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return ToolCall(id="c", name=name, arguments=raw)


@pytest.fixture
def registry() -> ToolRegistry:
    reg = ToolRegistry(default_timeout=5)
    reg.add(add_numbers)
    return reg


def test_schema_from_hints_and_docstring(registry: ToolRegistry) -> None:
    """The schema has the docstring's description, typed parameters and required ones."""
    (schema,) = registry.schemas()
    assert schema["type"] == "function"
    fn = schema["function"]
    assert fn["name"] == "add_numbers"
    assert fn["description"] == "Add or subtract two numbers."
    params = fn["parameters"]
    assert params["required"] == ["a"]
    assert params["properties"]["a"] == {"type": "integer", "description": "The first number."}
    assert params["properties"]["b"]["description"] == "The second number."
    assert params["properties"]["b"]["default"] == 2
    assert params["properties"]["mode"]["enum"] == ["sum", "diff"]
    assert "title" not in json.dumps(schema)


def test_an_argument_named_title_stays_in_the_schema() -> None:
    """Only ``title`` keywords are stripped, not an argument (or definition) called title."""
    reg = ToolRegistry()

    async def find_book(title: str, year: int = 0) -> str:
        """Find a book.

        Args:
            title: The book's title.
            year: The year it came out.
        """
        return title

    reg.add(find_book)
    params = reg.schemas()[0]["function"]["parameters"]
    assert params["properties"]["title"] == {"type": "string", "description": "The book's title."}
    assert params["required"] == ["title"]
    assert compact_parameters(
        {"title": "T", "properties": {"properties": {"title": "P", "type": "object"}}}
    ) == {"properties": {"properties": {"type": "object"}}}


async def test_valid_call_runs(registry: ToolRegistry) -> None:
    """A valid call runs the function; non-string results are rendered as JSON."""
    assert await registry.call(call("add_numbers", {"a": 1})) == ToolOutcome("3")
    assert await registry.call(call("add_numbers", {"a": 5, "b": 1, "mode": "diff"})) == (
        ToolOutcome("4")
    )


async def test_empty_arguments_mean_no_arguments() -> None:
    """An empty argument string is an empty object."""
    reg = ToolRegistry()

    async def ping() -> str:
        """Answer pong."""
        return "pong"

    reg.add(ping)
    assert await reg.call(call("ping", "  ")) == ToolOutcome("pong")


@pytest.mark.parametrize(
    ("tool_call", "needle"),
    [
        pytest.param(call("nope"), "unknown tool 'nope'; available: add_numbers", id="unknown"),
        pytest.param(call("add_numbers", "{bad"), "not valid JSON", id="invalid-json"),
        pytest.param(call("add_numbers", "[1]"), "must be a JSON object", id="not-object"),
        pytest.param(call("add_numbers", {}), "a: Field required", id="missing"),
        pytest.param(call("add_numbers", {"a": "x"}), "a: Input should be", id="wrong-type"),
        pytest.param(call("add_numbers", {"a": 1, "c": 2}), "c: unexpected", id="extra"),
        pytest.param(
            call("add_numbers", {"a": 1, "mode": "times"}), "mode: Input should be", id="enum"
        ),
    ],
)
async def test_bad_calls_become_error_results(
    registry: ToolRegistry, tool_call: ToolCall, needle: str
) -> None:
    """Every bad call is an error result the model can read, never an exception."""
    outcome = await registry.call(tool_call)
    assert outcome.error and outcome.content.startswith("error: ")
    assert needle in outcome.content


async def test_exceptions_become_error_results() -> None:
    """A tool that raises produces an error result naming the exception."""
    reg = ToolRegistry()

    async def broken(path: str) -> str:
        """Always fails."""
        raise ToolError(f"no file {path!r}")

    reg.add(broken)
    outcome = await reg.call(call("broken", {"path": "x"}))
    assert outcome == ToolOutcome("error: ToolError: no file 'x'", error=True)


async def test_timeouts_become_error_results() -> None:
    """A tool running past its timeout is cancelled and reported as timed out."""
    reg = ToolRegistry(default_timeout=60)
    finished = False

    async def slow() -> str:
        """Sleeps forever."""
        nonlocal finished
        await anyio.sleep_forever()
        finished = True
        return "never"

    reg.add(slow, timeout=0.01)
    outcome = await reg.call(call("slow"))
    assert outcome == ToolOutcome("error: slow timed out after 0.01s", error=True)
    assert not finished


async def test_default_timeout_applies() -> None:
    """Without a per-tool timeout the registry default applies."""
    reg = ToolRegistry(default_timeout=0.01)

    async def slow() -> str:
        """Sleeps forever."""
        await anyio.sleep_forever()
        return "never"

    reg.add(slow)
    assert (await reg.call(call("slow"))).error


def test_registry_membership_and_removal(registry: ToolRegistry) -> None:
    """Names, membership, iteration and removal reflect what is registered."""
    assert "add_numbers" in registry and len(registry) == 1
    assert registry.names == frozenset({"add_numbers"})
    assert [t.name for t in registry] == ["add_numbers"]
    registry.remove("add_numbers")
    registry.remove("add_numbers")
    assert len(registry) == 0 and registry.schemas() == []


def test_duplicate_names_are_refused(registry: ToolRegistry) -> None:
    """Registering a second tool under a taken name fails."""
    with pytest.raises(ValueError, match="registered already"):
        registry.add(add_numbers)
    registry.add(add_numbers, name="add2")
    assert "add2" in registry


def test_sync_function_is_refused() -> None:
    """Tools must be async functions."""

    def sync() -> str:
        """Not async."""
        return ""

    with pytest.raises(TypeError, match="async"):
        Tool.from_function(sync)  # type: ignore[arg-type]


def test_missing_docstring_is_refused() -> None:
    """The docstring is the model's manual: a tool without one is refused."""

    async def nodoc() -> str:
        return ""

    with pytest.raises(TypeError, match="docstring"):
        Tool.from_function(nodoc)


def test_missing_type_hint_is_refused() -> None:
    """Every parameter needs a type hint to make the schema."""

    async def untyped(x) -> str:  # type: ignore[no-untyped-def]
        """Untyped."""
        return ""

    with pytest.raises(TypeError, match="type hint"):
        Tool.from_function(untyped)


def test_docstring_sections_and_wrapped_argument_lines() -> None:
    """Wrapped argument descriptions are joined; later sections stay out of the schema."""

    async def find(pattern: str, limit: int = 10) -> str:
        """Find notes.

        Searches every note in the workdir.

        Args:
            pattern: A regular expression, matched against
                each line of each note.
            limit: At most this many matches.

        Returns:
            limit: not an argument description.
        """
        return ""

    fn = Tool.from_function(find).schema()["function"]
    assert fn["description"] == "Find notes. Searches every note in the workdir."
    props = fn["parameters"]["properties"]
    assert props["pattern"]["description"] == (
        "A regular expression, matched against each line of each note."
    )
    assert props["limit"]["description"] == "At most this many matches."


def test_tools_that_look_are_known_apart_from_those_that_act() -> None:
    """``looks`` marks a tool whose calls change nothing; every other tool acts."""
    reg = ToolRegistry()

    async def peek(path: str) -> str:
        """Peek.

        Args:
            path: A path.
        """
        return path

    async def poke(path: str) -> str:
        """Poke.

        Args:
            path: A path.
        """
        return path

    reg.add(peek, looks=True)
    reg.add(poke)

    async def schema_fn(args: dict[str, object]) -> str:
        return "ok"

    reg.add_schema_tool(SchemaTool("srv__get", "Get.", {"type": "object"}, schema_fn, looks=True))
    reg.add_schema_tool(SchemaTool("srv__put", "Put.", {"type": "object"}, schema_fn))
    assert reg.looking == {"peek", "srv__get"}
