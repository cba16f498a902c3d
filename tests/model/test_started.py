"""A held call started for the model: where the start ends, and what the rest may be."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from agentd.messages import ToolCall, assistant, tool_result, user
from agentd.model.choice import CallRule
from agentd.model.grammar import BARE, FENCED, TAGGED, CallForm, held_call_start, tool_step_grammar
from agentd.model.started import Continued, Start, Starts, form_of
from agentd.model.textcalls import parse_text_tool_calls
from agentd.model.written import keep
from agentd.tools.builtin import register_builtin_tools
from agentd.tools.registry import ToolRegistry
from tests.support.gbnf import accepts, parse


def tool(name: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": "", "parameters": params}}


WRITE = tool(
    "write_file",
    {
        "type": "object",
        "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
        "required": ["path", "content"],
    },
)
TIME = tool("current_time", {"type": "object", "properties": {"timezone": {"type": "string"}}})
READ = tool(
    "read_file",
    {
        "type": "object",
        "properties": {"path": {"type": "string"}, "offset": {"type": "integer"}},
        "required": ["path"],
    },
)


def held(schema: dict[str, Any], **values: str) -> dict[str, Any]:
    name = schema["function"]["name"]
    rule = CallRule(name=name, values=tuple((k, (v,)) for k, v in values.items()))
    [narrowed] = rule.narrow([schema])
    return narrowed


def calls(text: str) -> list[tuple[str, dict[str, Any]]]:
    names = frozenset({"write_file", "current_time", "read_file"})
    _, found = parse_text_tool_calls(text, names, lambda: "call-1")
    return [(c.name, json.loads(c.arguments)) for c in found]


def test_the_start_runs_through_held_arguments_to_the_first_free_string() -> None:
    start, grammar = held_call_start(held(WRITE, path="notes.txt"))
    assert start == (
        '```json\n{\n  "name": "write_file",\n  "arguments": {\n    "path": "notes.txt",\n'
        '    "content":'
    )
    rest = ' "buy oat milk and lemons."\n  }\n}\n```'
    assert accepts(grammar, rest)
    assert calls(start + rest) == [
        ("write_file", {"path": "notes.txt", "content": "buy oat milk and lemons."})
    ]
    # The call cannot be left for prose, another tool or another file.
    assert not accepts(grammar, ' "x"\n  }\n}\n```\nDone!')
    assert not accepts(grammar, ' "x"}}\n{"name": "current_time", "arguments": {}}\n```')
    assert not accepts(grammar, ' "x"}}\n{"name": "write_file", "arguments": {"path": "b", ')


def test_more_calls_of_the_tool_may_follow_unless_single() -> None:
    more = '{"name": "write_file", "arguments": {"path": "notes.txt", "content": "y"}}'
    _, grammar = held_call_start(held(WRITE, path="notes.txt"))
    assert accepts(grammar, f' "x"}}}}\n{more}\n```')
    assert accepts(grammar, f' "x"}}}}\n```\n\n```json\n{more}\n```')
    _, single = held_call_start(held(WRITE, path="notes.txt"), single=True)
    assert accepts(single, ' "x"}}\n```')
    assert not accepts(single, f' "x"}}}}\n{more}\n```')


@pytest.mark.parametrize(
    ("schema", "values", "rest"),
    [
        (TIME, {}, ' {"timezone": "Asia/Tokyo"}\n}\n```'),  # no required argument
        (TIME, {}, " {}\n}\n```"),
        (READ, {"path": "a.txt"}, ' {\n    "path": "a.txt"\n  }\n}\n```'),  # held, the last
    ],
)
def test_without_a_free_string_to_open_the_start_ends_at_the_arguments(
    schema: dict[str, Any], values: dict[str, str], rest: str
) -> None:
    start, grammar = held_call_start(held(schema, **values))
    assert start.endswith('\n  "arguments":')
    assert accepts(grammar, rest)
    assert calls(start + rest)[0][0] == schema["function"]["name"]


def test_the_rest_keeps_held_values_held() -> None:
    _, grammar = held_call_start(held(READ, path="a.txt"))
    assert not accepts(grammar, ' {"path": "b.txt"}\n}\n```')


def test_every_builtin_tool_held_makes_a_readable_grammar(tmp_path: Path) -> None:
    registry = ToolRegistry()
    register_builtin_tools(registry, tmp_path)
    for schema in registry.schemas():
        start, grammar = held_call_start(schema)
        parse(grammar)
        # It ends where the model's own tokens end: after a key's colon.
        assert start.endswith('":'), start


def test_starts_go_off_once() -> None:
    starts = Starts()
    assert starts.for_step([WRITE], CallRule(name="write_file"), []) is not None
    with capture_logs() as logs:
        starts.off("refused")
        starts.off("refused again")
    assert [e["reason"] for e in logs] == ["refused"]
    assert starts.for_step([WRITE], CallRule(name="write_file"), []) is None


@pytest.mark.parametrize(
    ("pieces", "passed", "known"),
    [
        (["ab", "c", "d"], "abcd", True),  # sent back whole
        (["a", "bc", "d"], "abcd", True),  # sent back in pieces
        (["c", "d"], "", False),  # not sent back: nothing passed on
        (["ab"], "ab", True),  # the start alone
        (["a"], "", False),  # a piece of the start, then the end
    ],
)
def test_streamed_pieces_pass_once_the_start_came_back(
    pieces: list[str], passed: str, known: bool
) -> None:
    continued = Continued(Start("ab", "root ::= .*"))
    assert "".join(continued.feed(p) for p in pieces) + continued.flush() == passed
    assert continued.known is known


@pytest.mark.parametrize(
    ("form", "start", "rest"),
    [
        (
            TAGGED,
            '<tool_call>\n{"name": "write_file", "arguments": {"path": "notes.txt", "content":',
            ' "x"}}\n</tool_call>',
        ),
        (
            BARE,
            '{"name": "write_file", "arguments": {"path": "notes.txt", "content":',
            ' "x"}}',
        ),
    ],
)
def test_a_call_on_one_line_is_started_on_one_line(form: CallForm, start: str, rest: str) -> None:
    text, grammar = held_call_start(held(WRITE, path="notes.txt"), single=True, form=form)
    assert text == start
    assert accepts(grammar, rest)
    assert calls(text + rest) == [("write_file", {"path": "notes.txt", "content": "x"})]


def test_more_calls_follow_in_the_form_of_the_first() -> None:
    more = '{"name": "write_file", "arguments": {"path": "notes.txt", "content": "y"}}'
    _, tagged = held_call_start(held(WRITE, path="notes.txt"), form=TAGGED)
    assert accepts(tagged, f' "x"}}}}\n</tool_call>\n<tool_call>\n{more}\n</tool_call>')
    _, bare = held_call_start(held(WRITE, path="notes.txt"), form=BARE)
    assert accepts(bare, f' "x"}}}}\n{more}')
    assert not accepts(bare, ' "x"}}\n```')


READ_CALL = ToolCall(id="c1", name="read_file", arguments="{}")


def said(text: str) -> Any:
    """An assistant message whose call was written as ``text``."""
    call = ToolCall(id="c1", name="read_file", arguments='{"path": "a.txt"}')
    return keep(assistant("", (call,)), text)


@pytest.mark.parametrize(
    ("messages", "form"),
    [
        ([user("x")], FENCED),  # no call yet: a fence, a key a line
        (
            [user("x"), said('```json\n{\n  "name": "read_file",\n  "arguments": {}\n}\n```')],
            FENCED,
        ),
        (
            [user("x"), said('```json\n{"name": "read_file", "arguments": {}}\n```')],
            CallForm(FENCED.opening, False, FENCED.one, FENCED.more),
        ),
        (
            [user("x"), said('<tool_call>\n{"name": "read_file", "arguments": {}}\n</tool_call>')],
            TAGGED,
        ),
        ([user("x"), said('{"name": "read_file", "arguments": {}}')], BARE),
        # Prose before the call: the form is the call's.
        (
            [
                user("x"),
                said('Sure.\n```json\n{\n  "name": "read_file",\n  "arguments": {}\n}\n```'),
            ],
            FENCED,
        ),
        ([user("x"), said('Here: {"name": "read_file", "arguments": {}}')], BARE),
        # A call agentd made itself goes as tool_calls (the template's <tool_call>, one line):
        # the model follows it with an object on one line.
        (
            [
                user("x"),
                assistant("", (READ_CALL,)),
                tool_result(READ_CALL, "text"),
            ],
            BARE,
        ),
    ],
)
def test_a_call_is_started_in_the_form_of_the_last_call(messages: Any, form: CallForm) -> None:
    assert form_of(messages) == form


def render(name: str, args: dict[str, Any], form: CallForm) -> str:
    """A call written in ``form``, as the packaged models write it."""
    quoted = json.dumps(name, ensure_ascii=False)
    if form.pretty:
        inner = json.dumps(args, ensure_ascii=False, indent=2).replace("\n", "\n  ")
        obj = f'{{\n  "name": {quoted},\n  "arguments": {inner}\n}}'
    else:
        obj = f'{{"name": {quoted}, "arguments": {json.dumps(args, ensure_ascii=False)}}}'
    closing = {FENCED.opening: "\n```", TAGGED.opening: "\n</tool_call>"}.get(form.opening, "")
    return form.opening + obj + closing


def props(properties: dict[str, Any], *required: str, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required), **extra}


S = {"type": "string"}
SCHEMAS = [
    # (label, tool, held values, a call's arguments)
    (
        "keys to escape",
        tool("w", props({'a"b': S, "ü\n": S}, 'a"b', "ü\n")),
        (('a"b', ('x"y',)),),
        {'a"b': 'x"y', "ü\n": "z"},
    ),
    (
        "an int held",
        tool("w", props({"n": {"type": "integer"}, "s": S}, "n", "s")),
        (("n", (5,)),),
        {"n": 5, "s": "q"},
    ),
    (
        "required in another order",
        tool("w", props({"content": S, "path": S}, "path", "content")),
        (("path", ("p",)),),
        {"content": "c", "path": "p"},
    ),
    (
        "an optional key first",
        tool("w", props({"opt": S, "path": S, "content": S}, "path", "content")),
        (("path", ("p",)),),
        {"path": "p", "content": "c", "opt": "o"},
    ),
    ("no parameters", tool("w", {}), (), {}),
    (
        "a $ref held",
        tool("w", props({"p": {"$ref": "#/$defs/P"}, "c": S}, "p", "c", **{"$defs": {"P": S}})),
        (("p", ("x",)),),
        {"p": "x", "c": "y"},
    ),
    (
        "anyOf held",
        tool("w", props({"p": {"anyOf": [S, {"type": "null"}]}, "c": S}, "p", "c")),
        (("p", ("x",)),),
        {"p": "x", "c": "y"},
    ),
    (
        "a const",
        tool("w", props({"k": {"const": "K"}, "c": S}, "k", "c")),
        (),
        {"k": "K", "c": "y"},
    ),
    (
        "held to two",
        tool("w", props({"p": S, "c": S}, "p", "c")),
        (("p", ("a", "b")),),
        {"p": "a", "c": "y"},
    ),
]


@pytest.mark.parametrize(("label", "schema", "values", "args"), SCHEMAS)
@pytest.mark.parametrize("form", [FENCED, TAGGED, BARE])
@pytest.mark.parametrize("pretty", [True, False])
@pytest.mark.parametrize("single", [True, False])
def test_start_and_rest_allow_what_the_step_grammar_allows(
    label: str,
    schema: dict[str, Any],
    values: Any,
    args: dict[str, Any],
    form: CallForm,
    pretty: bool,
    single: bool,
) -> None:
    """A call the whole step's grammar accepts begins with the start, and the rest's grammar
    accepts what follows it."""
    form = CallForm(form.opening, pretty, form.one, form.more)
    [narrowed] = CallRule(name=schema["function"]["name"], values=values).narrow([schema])
    start, rest = held_call_start(narrowed, single=single, form=form)
    text = render(schema["function"]["name"], args, form)
    assert accepts(tool_step_grammar([narrowed], required=True, single=single), text)
    assert text.startswith(start)
    assert accepts(rest, text[len(start) :])
