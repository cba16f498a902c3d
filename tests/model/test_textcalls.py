"""Tool calls that local models write as text."""

from __future__ import annotations

import itertools
import json

import pytest

from agentd.model.textcalls import TextToolCallFilter, parse_text_tool_calls

NAMES = frozenset({"current_time", "read_file"})


def ids() -> itertools.count[int]:
    return itertools.count(1)


def parse(text: str, names: frozenset[str] = NAMES) -> tuple[str, list[tuple[str, object]]]:
    counter = itertools.count(1)
    rest, calls = parse_text_tool_calls(text, names, lambda: f"id{next(counter)}")
    return rest, [(c.name, json.loads(c.arguments)) for c in calls]


@pytest.mark.parametrize(
    ("text", "rest", "calls"),
    [
        pytest.param(
            '<tool_call>{"name": "current_time", "arguments": {"timezone": "UTC"}}</tool_call>',
            "",
            [("current_time", {"timezone": "UTC"})],
            id="block",
        ),
        pytest.param(
            'Sure.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a"}}\n</tool_call>'
            '\n<tool_call>{"name": "current_time", "arguments": {}}</tool_call>',
            "Sure.",
            [("read_file", {"path": "a"}), ("current_time", {})],
            id="two-blocks-with-text",
        ),
        pytest.param(
            'On it. <tool_call>{"name": "read_file", "arguments": {"path": "a"}}\n',
            "On it.",
            [("read_file", {"path": "a"})],
            id="unterminated-block-at-end",
        ),
        pytest.param(
            '{"name": "current_time", "arguments": {"timezone": "UTC"}}',
            "",
            [("current_time", {"timezone": "UTC"})],
            id="bare-object",
        ),
        pytest.param(
            '{"name": "current_time", "parameters": {"timezone": "UTC"}}',
            "",
            [("current_time", {"timezone": "UTC"})],
            id="bare-parameters",
        ),
        pytest.param(
            '{{"name": "current_time", "arguments": {"timezone": "Asia/Tokyo"}}}',
            "",
            [("current_time", {"timezone": "Asia/Tokyo"})],
            id="doubled-braces",
        ),
        pytest.param(
            '{"name": "current_time", "arguments": "{\\"timezone\\": \\"UTC\\"}"}',
            "",
            [("current_time", {"timezone": "UTC"})],
            id="arguments-as-string",
        ),
        pytest.param(
            '{"name": "current_time"}',
            "",
            [("current_time", {})],
            id="no-arguments",
        ),
        pytest.param(
            '```json\n{"name": "read_file", "arguments": {"path": "x"}}\n```',
            "",
            [("read_file", {"path": "x"})],
            id="fenced",
        ),
        pytest.param(
            '[{"name": "current_time", "arguments": {}}, {"name": "read_file", '
            '"arguments": {"path": "b"}}]',
            "",
            [("current_time", {}), ("read_file", {"path": "b"})],
            id="list",
        ),
        pytest.param(
            '{"name": "current_time", "arguments": {}}\n\n{"name": "read_file", '
            '"arguments": {"path": "c"}}',
            "",
            [("current_time", {}), ("read_file", {"path": "c"})],
            id="one-per-line",
        ),
        pytest.param(
            '```json\n{\n  "name": "current_time",\n  "arguments": {}\n}\n{\n  "name": '
            '"read_file",\n  "arguments": {\n    "path": "d"\n  }\n}\n```',
            "",
            [("current_time", {}), ("read_file", {"path": "d"})],
            id="pretty-printed-in-one-fence",
        ),
        pytest.param(
            '{{"name": "current_time", "arguments": {"timezone": "Japan"}}}}',
            "",
            [("current_time", {"timezone": "Japan"})],
            id="doubled-braces-extra-closing",
        ),
        pytest.param(
            '<tools>\n{ "name": "read_file", "arguments": {"path": "n"} }\n</tools>',
            "",
            [("read_file", {"path": "n"})],
            id="tools-wrapper",
        ),
        pytest.param(
            '<response>{"name": "current_time", "arguments": {"timezone": "UTC"}}</response>',
            "",
            [("current_time", {"timezone": "UTC"})],
            id="response-wrapper",
        ),
        pytest.param(
            'I will read it.\n```json\n{"name": "read_file", "arguments": {"path": "p"}}\n```',
            "I will read it.",
            [("read_file", {"path": "p"})],
            id="prose-then-fenced-call",
        ),
        pytest.param(
            'Checking.\n{"name": "current_time", "arguments": {}}',
            "Checking.",
            [("current_time", {})],
            id="prose-then-bare-call",
        ),
    ],
)
def test_tool_calls_in_text_are_recognised(
    text: str, rest: str, calls: list[tuple[str, object]]
) -> None:
    """Blocks and bare JSON objects naming registered tools become tool calls."""
    assert parse(text) == (rest, calls)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Just an answer.", id="plain"),
        pytest.param('{"name": "rm_rf", "arguments": {}}', id="unregistered-name"),
        pytest.param('{"city": "Paris", "population": 2}', id="unrelated-json"),
        pytest.param('Here: {"name": "current_time", "arguments": {}}', id="json-inside-prose"),
        pytest.param("[1, 2, 3]", id="json-list"),
        pytest.param("[]", id="empty-list"),
        pytest.param('{"name": "current_time"}\nnot json', id="lines-with-garbage"),
        pytest.param("{broken", id="broken-json"),
        pytest.param("", id="empty"),
        pytest.param("Wrap calls in a <tool_call> tag, like this.", id="tag-in-prose"),
        pytest.param('[{"name": "current_time"}, {"name": "nope"}]', id="one-unknown-in-list"),
        pytest.param('Try:\n{"name": "translate", "arguments": {}}', id="prose-then-unknown"),
        pytest.param('Example:\n{"name": "current_time"}\nthat is all', id="call-then-prose"),
    ],
)
def test_everything_else_stays_text(text: str) -> None:
    """Text that is not a tool call of a registered tool is left alone."""
    assert parse(text) == (text, [])


def test_no_tools_means_no_parsing() -> None:
    """Without registered tools nothing is parsed."""
    text = '{"name": "current_time", "arguments": {}}'
    assert parse(text, frozenset()) == (text, [])


def test_broken_block_is_still_a_call() -> None:
    """A <tool_call> block with broken JSON is a call whose arguments will be rejected."""
    counter = itertools.count()
    rest, calls = parse_text_tool_calls(
        '<tool_call>{"name": "read_file", "arguments": {</tool_call>',
        NAMES,
        lambda: f"id{next(counter)}",
    )
    assert rest == "" and len(calls) == 1
    assert calls[0].name == "read_file" and calls[0].id == "id0"
    with pytest.raises(ValueError):
        json.loads(calls[0].arguments)
    _, calls = parse_text_tool_calls("<tool_call>garbage</tool_call>", NAMES, lambda: "x")
    assert calls[0].name == "unknown"


def test_block_without_name_stays_text() -> None:
    """A <tool_call> block holding no callable object leaves the text unchanged."""
    text = "<tool_call>[1]</tool_call>"
    assert parse(text) == (text, [])


def test_filter_passes_plain_text_through() -> None:
    """Ordinary text is shown as it streams."""
    f = TextToolCallFilter(enabled=True)
    assert f.feed("Hel") == "Hel"
    assert f.feed("{lo}") == "{lo}"
    assert f.flush() == ""


def test_filter_holds_text_that_starts_like_a_tool_call() -> None:
    """A reply that starts with '{', '[', a fence or <tool_call> is held until flush."""
    for start in ('{"na', "[", "```", "<tool_call>", "  <tool_call>"):
        f = TextToolCallFilter(enabled=True)
        assert f.feed(start) == ""
        assert f.feed(" more") == ""
        assert f.flush() == start + " more"


def test_filter_holds_a_partial_tag_until_it_is_decided() -> None:
    """A reply starting with part of '<tool_call>' stays held while it may still become one."""
    f = TextToolCallFilter(enabled=True)
    assert f.feed("<tool") == ""
    assert f.feed("_call>{") == ""
    assert f.flush() == "<tool_call>{"


def test_filter_waits_for_a_decisive_prefix() -> None:
    """Whitespace and a partial '<' are held until the reply is known to be plain text."""
    f = TextToolCallFilter(enabled=True)
    assert f.feed("  ") == ""
    assert f.feed("<") == ""
    assert f.feed("b>bold") == "  <b>bold"
    assert f.feed(" rest") == " rest"


def test_filter_disabled_passes_everything() -> None:
    """With no tools offered, nothing is held."""
    f = TextToolCallFilter(enabled=False)
    assert f.feed("{") == "{"


def test_filter_holds_a_tool_call_block_after_text() -> None:
    """Text before a <tool_call> block is shown; the block is held, even with a split tag."""
    f = TextToolCallFilter(enabled=True)
    shown = [f.feed(piece) for piece in ("Let me check. <to", "ol_ca", 'll>{"name": ', '"x"}')]
    assert "".join(shown) == "Let me check. "
    assert f.feed("</tool_call>") == ""
    assert f.flush() == '<tool_call>{"name": "x"}</tool_call>'


def test_filter_releases_a_false_alarm_tag() -> None:
    """A '<' that does not become <tool_call> is shown with the next piece."""
    f = TextToolCallFilter(enabled=True)
    assert f.feed("a < b and c <t") == "a < b and c "
    assert f.feed("d") == "<td"
    assert f.feed(" done <") == " done "
    assert f.flush() == "<"


def test_filter_holds_a_fenced_call_after_prose() -> None:
    f = TextToolCallFilter(enabled=True)
    shown = f.feed("I will check.\n") + f.feed("```js") + f.feed('on\n{"name": "x"}\n```')
    assert shown == "I will check."
    assert f.flush() == '\n```json\n{"name": "x"}\n```'


CALL = '{"name": "read_file", "arguments": {"path": "j.txt"}}'


@pytest.mark.parametrize(
    "tail",
    ['{"name": "read_file", "argum', '{"name": "read_file", "arguments": {"path": "j.t', "{"],
)
def test_calls_cut_off_at_the_token_cap_keep_the_complete_ones(tail: str) -> None:
    """A step that wrote the same call line after line until the token cap: the complete
    calls are calls (the loop runs them once), the cut one is dropped, nothing is left as text."""
    text, calls = parse(f"{CALL}\n{CALL}\n{tail}")
    assert text == "" and calls == [("read_file", {"path": "j.txt"})] * 2


def test_a_broken_object_after_calls_is_not_a_cut() -> None:
    text = f'{CALL}\n{{"name": "read_file", "arguments": {{}} oops}}'
    assert parse(text) == (text, [])


def test_calls_written_one_fence_each_are_all_read() -> None:
    """Calls made together, written as one ```json fence each, are every one of them."""
    one = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
    two = '{"name": "get_weather", "arguments": {"city": "Rome"}}'
    text = f"```json\n{one}\n```\n\n```json\n{two}\n```"
    rest, calls = parse_text_tool_calls(text, ["get_weather"], lambda: "id")
    assert rest == "" and [json.loads(c.arguments)["city"] for c in calls] == ["Paris", "Rome"]


def test_fences_after_prose_are_the_calls_it_announces() -> None:
    """Prose, then one fence per call: the prose stays, every fence is a call."""
    one = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
    two = '{"name": "get_weather", "arguments": {"city": "Rome"}}'
    text = f"I'll check both:\n```json\n{one}\n```\n```json\n{two}\n```"
    rest, calls = parse_text_tool_calls(text, ["get_weather"], lambda: "id")
    assert rest == "I'll check both:" and len(calls) == 2


def test_a_dotted_name_is_the_offered_name_with_underscores() -> None:
    """``random_forest.train`` written for the offered ``random_forest_train`` is that call;
    a dotted name with no such tool stays text."""
    text = '{"name": "random_forest.train", "arguments": {"n_estimators": 100}}'
    _, calls = parse_text_tool_calls(text, ["random_forest_train"], lambda: "id")
    assert [c.name for c in calls] == ["random_forest_train"]
    rest, none = parse_text_tool_calls(text, ["other_tool"], lambda: "id")
    assert none == () and rest == text


def test_keys_with_stray_blanks_are_read() -> None:
    """A key written ``"name "`` is the call's name all the same."""
    text = '{"name ": "read_file", "arguments": {"path": "notes.md"}}'
    _, calls = parse_text_tool_calls(text, ["read_file"], lambda: "id")
    assert [c.name for c in calls] == ["read_file"]
