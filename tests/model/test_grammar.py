"""The tool-step grammar: valid calls and prose pass, leaked or invalid calls cannot be sampled."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest

from agentd.memory.longterm import MemoryAccess
from agentd.model.grammar import (
    MAX_CALLS,
    ONE_LINE,
    answer_grammar,
    held_call_start,
    literal,
    tool_step_grammar,
)
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.memory import MOST_TAGS, register_memory_tools
from agentd.tools.registry import ToolRegistry
from tests.support.gbnf import accepts, parse


def tool(name: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": "", "parameters": params}}


AREA = tool(
    "calculate_triangle_area",
    {
        "type": "object",
        "properties": {
            "base": {"type": "integer"},
            "height": {"type": "number"},
            "unit": {"type": "string", "enum": ["cm", "m"]},
        },
        "required": ["base", "height"],
    },
)
TIME = tool("current_time", {"type": "object", "properties": {"timezone": {"type": "string"}}})
TOOLS = [AREA, TIME]
GRAMMAR = tool_step_grammar(TOOLS)


def call(name: str, args: dict[str, Any]) -> str:
    return json.dumps({"name": name, "arguments": args})


@pytest.mark.parametrize(
    "text",
    [
        call("calculate_triangle_area", {"base": 10, "height": 5}),
        call("calculate_triangle_area", {"base": 10, "height": 5.5, "unit": "cm"}),
        call("current_time", {}),
        call("current_time", {"timezone": "Asia/Tokyo"}),
        "<tool_call>\n" + call("current_time", {"timezone": "UTC"}) + "\n</tool_call>",
        "```json\n" + call("current_time", {}) + "\n```",
        '```json\n{\n  "name": "current_time",\n  "arguments": {\n    "timezone": "UTC"\n'
        "  }\n}\n```",
        call("current_time", {}) + "\n" + call("calculate_triangle_area", {"base": 1, "height": 2}),
        "<tool_call>"
        + call("current_time", {})
        + "</tool_call>\n<tool_call>"
        + call("current_time", {"timezone": "UTC"})
        + "</tool_call>",
    ],
)
def test_valid_calls_are_accepted(text: str) -> None:
    assert accepts(GRAMMAR, text)


@pytest.mark.parametrize(
    "text",
    [
        call("translate", {"text": "good morning"}),  # not an offered tool
        call("calculate_triangle_area", {"base": 10}),  # a required argument missing
        call("calculate_triangle_area", {"base": "10", "height": 5}),  # wrong type
        call("calculate_triangle_area", {"base": 1.5, "height": 5}),  # not an integer
        call("calculate_triangle_area", {"base": 1, "height": 5, "unit": "km"}),  # not in enum
        call("calculate_triangle_area", {"base": 1, "height": 5, "color": "red"}),  # unknown arg
        call("current_time", {"timezone": "UTC"})[:-1],  # cut short
        '{{"name": "current_time", "arguments": {}}}',  # the template's doubled braces
        '```python\n{"name": "current_time", "arguments": {}}\n```',  # a call in a fence
        '[{"name": "current_time", "arguments": {}}]',
        '<tools><function name="current_time" arguments="{}"/></tools>',
        "<tool_call>\n{}\n</tool_call>",
        "",  # an empty answer
        "\n\n",
        " It is Tuesday.",  # leading blank
        '<json>{"name": "current_time", "arguments": {}}</json>',
        '<response>{"name": "current_time", "arguments": {}}</response>',
    ],
)
def test_leaked_invalid_and_empty_replies_are_rejected(text: str) -> None:
    assert not accepts(GRAMMAR, text)


@pytest.mark.parametrize(
    "text",
    [
        "4",
        "It is Tuesday in Tokyo.",
        "Bonjour !\nThat is 'good morning' in French.",
        "```python\ndef add(a, b):\n    return a + b\n```",
        '```\n{"debug": true}\n```',  # JSON that is not a call is fine
        '{"debug": true}',
        'Set it like this:\n```yaml\ndebug: true\n```\nor `{"debug": true}` in JSON.',
        "`ls` lists files.",
        "[1, 2, 3]",
        "Let me check the time.\n```json\n" + call("current_time", {}) + "\n```",  # then a call
        "I'll look.\n" + call("current_time", {"timezone": "UTC"}),
    ],
)
def test_prose_is_accepted(text: str) -> None:
    assert accepts(GRAMMAR, text)


def test_answer_grammar_is_prose_only() -> None:
    grammar = answer_grammar()
    assert accepts(grammar, "Done: the note is in notes.txt.")
    assert not accepts(grammar, "")
    assert not accepts(grammar, call("current_time", {}))


def test_builtin_tool_schemas_make_a_readable_grammar(tmp_path: Path) -> None:
    """Every schema agentd offers converts, and a call to each tool with its required
    arguments is accepted."""
    registry = ToolRegistry()
    register_builtin_tools(registry, tmp_path)
    schemas = registry.schemas()
    grammar = tool_step_grammar(schemas)
    parse(grammar)  # every rule defined, all syntax understood
    samples = {"string": "x", "integer": 1, "number": 1.5, "boolean": True}
    for schema in schemas:
        fn = schema["function"]
        params = fn["parameters"]
        args = {
            key: samples.get(params["properties"][key].get("type", "string"), "x")
            for key in params.get("required", [])
        }
        assert accepts(grammar, call(fn["name"], args)), fn["name"]


def test_nested_arrays_refs_and_unions() -> None:
    schema = tool(
        "plan",
        {
            "type": "object",
            "properties": {
                "steps": {"type": "array", "items": {"$ref": "#/$defs/Step"}, "minItems": 1},
                "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                "tags": {"type": ["array", "null"], "items": {"type": "string"}},
                "extra": {"type": "object"},
                "kind": {"const": "daily"},
            },
            "required": ["steps"],
            "$defs": {
                "Step": {
                    "type": "object",
                    "properties": {"at": {"type": "string"}, "n": {"type": "integer"}},
                    "required": ["at"],
                }
            },
        },
    )
    grammar = tool_step_grammar([schema])
    ok = {
        "steps": [{"at": "9:00"}, {"at": "10:00", "n": 2}],
        "note": None,
        "tags": ["a"],
        "extra": {"any": [1, {"x": None}]},
        "kind": "daily",
    }
    assert accepts(grammar, call("plan", ok))
    assert accepts(grammar, call("plan", {"steps": [{"at": "9"}], "tags": None}))
    assert not accepts(grammar, call("plan", {"steps": []}))  # minItems
    assert not accepts(grammar, call("plan", {"steps": [{"n": 1}]}))  # nested required
    assert not accepts(grammar, call("plan", {"steps": [{"at": "9"}], "kind": "weekly"}))


def test_max_items_bounds_a_list() -> None:
    """A list's maxItems holds the model to that many items (with none, a small model listed
    a memory's tags to the token cap); maxItems 0 is the empty list only."""
    props = {
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
        "none": {"type": "array", "items": {"type": "string"}, "maxItems": 0},
    }
    grammar = tool_step_grammar([tool("save", {"type": "object", "properties": props})])
    assert accepts(grammar, call("save", {"tags": []}))
    assert accepts(grammar, call("save", {"tags": ["a", "b", "a"]}))
    assert not accepts(grammar, call("save", {"tags": ["a", "b", "a", "b"]}))
    assert accepts(grammar, call("save", {"none": []}))
    assert not accepts(grammar, call("save", {"none": ["a"]}))


def test_the_memory_tools_bound_their_tags() -> None:
    """memory_save's and memory_search's tags carry maxItems into the schema the model sees."""
    registry = ToolRegistry(default_timeout=10)
    register_memory_tools(registry, cast("MemoryAccess", None))
    for schema in registry.schemas():
        name = schema["function"]["name"]
        assert schema["function"]["parameters"]["properties"]["tags"]["maxItems"] == MOST_TAGS
        grammar = tool_step_grammar([schema])
        text = "content" if name == "memory_save" else "query"
        words = [str(i) for i in range(MOST_TAGS + 1)]
        assert accepts(grammar, call(name, {text: "x", "tags": words[:MOST_TAGS]}))
        assert not accepts(grammar, call(name, {text: "x", "tags": words}))


def test_names_and_keys_are_escaped() -> None:
    assert literal('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'
    odd = tool("say", {"type": "object", "properties": {'q"uote': {"type": "string"}}})
    grammar = tool_step_grammar([odd])
    assert accepts(grammar, call("say", {'q"uote': 'he said "hi"\n'}))


def test_no_tools_is_the_answer_grammar() -> None:
    assert tool_step_grammar([]) == answer_grammar()


def test_required_calls_leave_no_room_for_prose() -> None:
    """tool_choice "required": the step is calls only."""
    rules = tool_step_grammar(TOOLS, required=True)
    assert accepts(rules, call("current_time", {}))
    assert accepts(rules, "<tool_call>\n" + call("current_time", {}) + "\n</tool_call>")
    assert not accepts(rules, "It is noon.")
    assert not accepts(rules, "")


def test_single_allows_one_call_only() -> None:
    """parallel_tool_calls false: one call per step, in any of the forms."""
    rules = tool_step_grammar(TOOLS, single=True)
    one = call("current_time", {})
    assert accepts(rules, one)
    assert accepts(rules, "```json\n" + one + "\n```")
    assert accepts(rules, "<tool_call>\n" + one + "\n</tool_call>")
    assert accepts(rules, "It is noon.")
    assert not accepts(rules, one + "\n" + call("current_time", {"timezone": "UTC"}))
    assert not accepts(rules, f"<tool_call>{one}</tool_call>\n<tool_call>{one}</tool_call>")


@pytest.mark.parametrize("form", ["bare", "tagged"])
def test_a_step_makes_at_most_max_calls(form: str) -> None:
    """Held to one tool, the model wrote the same call line after line to the token cap."""
    one = call("current_time", {})
    line = one if form == "bare" else f"<tool_call>{one}</tool_call>"
    assert accepts(GRAMMAR, "\n".join([line] * MAX_CALLS))
    assert not accepts(GRAMMAR, "\n".join([line] * (MAX_CALLS + 1)))


def test_calls_made_together_may_be_written_one_fence_each() -> None:
    """Several ```json fences, one call each, are calls; fences stay bounded by MAX_CALLS."""
    fence = "```json\n" + call("current_time", {}) + "\n```"
    assert accepts(GRAMMAR, fence + "\n" + fence)
    assert accepts(GRAMMAR, "\n\n".join([fence] * MAX_CALLS))
    assert not accepts(GRAMMAR, "\n".join([fence] * (MAX_CALLS + 1)))
    single = tool_step_grammar(TOOLS, single=True)
    assert not accepts(single, fence + "\n" + fence)


def test_prose_cannot_open_with_a_name_key_written_loosely() -> None:
    """An answer opening ``{"name "`` (a call with a blank in its key) is no answer."""
    assert not accepts(GRAMMAR, '{"name ": "current_time", "arguments": {}}')
    assert not accepts(GRAMMAR, '{"names": ["a"]}')
    assert accepts(GRAMMAR, '{"debug": true}')


def _edit_tool() -> dict[str, Any]:
    props = {k: {"type": "string"} for k in ("path", "old", "new")}
    props["old"] = {"type": "string", "pattern": ONE_LINE}
    params = {"type": "object", "properties": props, "required": ["path", "old", "new"]}
    return {"type": "function", "function": {"name": "edit_file", "parameters": params}}


def _edit_call(old: str, new: str = "x = 2") -> str:
    args = f'{{"path": "a.conf", "old": "{old}", "new": "{new}"}}'
    return f'```json\n{{"name": "edit_file", "arguments": {args}}}\n```'


@pytest.mark.parametrize(
    ("old", "ok"),
    [
        pytest.param("x = 1", True, id="one-line"),
        pytest.param('heure_depart = 07:15 \\u00e9\\t\\"q\\"', True, id="escapes"),
        pytest.param("x = 1\\ny = 2", False, id="newline"),
        pytest.param("x = 1\\r", False, id="carriage-return"),
        pytest.param("x = 1\\u000Ay", False, id="newline-as-u-escape"),
        pytest.param("x\\u000d", False, id="cr-as-u-escape"),
        pytest.param("x\\u0009y", True, id="tab-as-u-escape"),
    ],
)
def test_a_one_line_string_holds_no_line_break(old: str, ok: bool) -> None:
    """ONE_LINE: a string on one line; the argument beside it may hold line breaks."""
    grammar = tool_step_grammar([_edit_tool()])
    assert accepts(grammar, _edit_call(old)) is ok
    assert accepts(grammar, _edit_call("x = 1", "x = 2\\ny = 3"))


def test_a_held_call_start_keeps_the_line_rule() -> None:
    """Started up to ``"old":`` (path held), the rest still holds old to one line."""
    tool = _edit_tool()
    tool["function"]["parameters"]["properties"]["path"] = {"type": "string", "enum": ["a.conf"]}
    start, grammar = held_call_start(tool)
    assert start.endswith('"old":')
    assert accepts(grammar, ' "x = 1", "new": "x = 2"\n  }\n}\n```')
    assert not accepts(grammar, ' "x = 1\\ny", "new": "x = 2"\n  }\n}\n```')
