"""The BFCL benchmark's other parts: the wheel reader, the tool conversion, call validity, the
two ways of asking (against fakes) and the report."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest

from agentd.engine.loop import AgentLoop
from agentd.errors import LLMStatusError
from bench.bfcl.answer import Answer
from bench.bfcl.convert import PYTHON_HINT, to_openai_tools
from bench.bfcl.data import BFCL_VERSION, WHEEL_NAME, WheelMissing, load_category, load_items
from bench.bfcl.report import append_jsonl, model_table, render, write_csv
from bench.bfcl.runner import ask_direct, ask_first_step, compacted, judge, reported_modes
from bench.bfcl.validity import call_problem, looks_like_call
from tests.support.fake_model import FakeModel, answer

ROOT = Path(__file__).resolve().parents[2]
FACTORIAL = {
    "name": "math.factorial",
    "description": "Calculate the factorial of a given positive integer.",
    "parameters": {
        "type": "dict",
        "properties": {"number": {"type": "integer", "description": "The number."}},
        "required": ["number"],
    },
}


def _entry(i: int, category: str = "simple_python") -> dict[str, Any]:
    return {
        "id": f"{category}_{i}",
        "question": [[{"role": "user", "content": f"What is {i}!?"}]],
        "function": [FACTORIAL],
    }


def _wheel(path: Path, n: int = 20) -> Path:
    """A wheel laid out like bfcl-eval's, with made-up entries."""
    wheel = path / WHEEL_NAME
    with zipfile.ZipFile(wheel, "w") as archive:
        rows = "\n".join(json.dumps(_entry(i)) for i in range(n))
        answers = "\n".join(
            json.dumps(
                {"id": f"simple_python_{i}", "ground_truth": [{"math.factorial": {"number": [i]}}]}
            )
            for i in range(n)
        )
        archive.writestr("bfcl_eval/data/BFCL_v4_simple_python.json", rows + "\n")
        archive.writestr("bfcl_eval/data/possible_answer/BFCL_v4_simple_python.json", answers)
        irrelevant = "\n".join(json.dumps(_entry(i, "irrelevance")) for i in range(3))
        archive.writestr("bfcl_eval/data/BFCL_v4_irrelevance.json", irrelevant)
    return wheel


def test_entries_come_with_their_answers(tmp_path: Path) -> None:
    """Entries are read from the wheel in place, each with its ground truth by id."""
    items = load_category(_wheel(tmp_path), "simple_python")
    assert len(items) == 20
    assert items[3].messages == [{"role": "user", "content": "What is 3!?"}]
    assert items[3].ground_truth == [{"math.factorial": {"number": [3]}}]
    assert [i.ground_truth for i in load_category(_wheel(tmp_path), "irrelevance")] == [[]] * 3


def test_the_subset_is_seeded(tmp_path: Path) -> None:
    """The same seed picks the same items (in file order), another seed others; 0 means all."""
    wheel = _wheel(tmp_path)
    first = [i.id for i in load_items(wheel, ["simple_python"], 5, seed=1)]
    assert first == [i.id for i in load_items(wheel, ["simple_python"], 5, seed=1)]
    assert first != [i.id for i in load_items(wheel, ["simple_python"], 5, seed=2)]
    assert first == sorted(first, key=lambda name: int(name.rsplit("_", 1)[1]))
    assert len(load_items(wheel, ["simple_python", "irrelevance"], 0, seed=1)) == 23


def test_a_missing_wheel_says_make_bench_data(tmp_path: Path) -> None:
    """Without the wheel the error names the make target that fetches it."""
    with pytest.raises(WheelMissing, match="make bench-data"):
        load_category(tmp_path / WHEEL_NAME, "simple_python")
    with pytest.raises(ValueError, match="unknown BFCL category"):
        load_category(tmp_path / WHEEL_NAME, "multi_turn_base")


def test_the_makefile_pins_the_same_version() -> None:
    """`make bench-data` downloads the release the loader expects."""
    makefile = (ROOT / "Makefile").read_text()
    match = re.search(r"^BFCL_VERSION := (\S+)$", makefile, re.M)
    assert match is not None and match.group(1) == BFCL_VERSION


def test_tools_are_converted_as_bfcl_does() -> None:
    """Dots become underscores, dict -> object, float -> number with a note, the Python hint."""
    doc = {
        "name": "geo.distance",
        "description": "Distance.",
        "parameters": {
            "type": "dict",
            "properties": {
                "scale": {"type": "float", "description": "Scale."},
                "points": {"type": "tuple", "items": {"type": "float"}, "description": "P."},
                "opts": {"type": "dict", "properties": {"fast": {"type": "boolean"}}},
                "anything": {"type": "any", "description": "A."},
                "untyped": {"description": "U."},
            },
            "required": ["scale"],
        },
    }
    (tool,) = to_openai_tools([doc])
    fn = tool["function"]
    assert tool["type"] == "function"
    assert fn["name"] == "geo_distance"
    assert fn["description"] == "Distance." + PYTHON_HINT
    props = fn["parameters"]["properties"]
    assert fn["parameters"]["type"] == "object"
    assert props["scale"] == {
        "type": "number",
        "format": "float",
        "description": "Scale. This is a float type value.",
    }
    assert props["points"]["type"] == "array"
    assert props["points"]["items"] == {"type": "number"}
    assert props["opts"]["properties"]["fast"]["type"] == "boolean"
    assert props["anything"]["type"] == props["untyped"]["type"] == "string"
    assert doc["name"] == "geo.distance"  # the docs are copied, not changed


TOOLS = to_openai_tools([FACTORIAL])


@pytest.mark.parametrize(
    ("call", "problem"),
    [
        pytest.param(("math_factorial", '{"number": 5}'), None, id="valid"),
        pytest.param(("math_factorial", '{"number": 5.0}'), None, id="integral-float"),
        pytest.param(("math_factorial", "{number: 5}"), "unparseable", id="not-json"),
        pytest.param(("math_factorial", "[5]"), "unparseable", id="not-an-object"),
        pytest.param(("math.factorial", '{"number": 5}'), "unknown tool", id="unknown-tool"),
        pytest.param(("math_factorial", "{}"), "schema: arguments: 'number' is missing", id="req"),
        pytest.param(
            ("math_factorial", '{"number": "5"}'),
            "schema: arguments.number: expected integer, got str",
            id="type",
        ),
        pytest.param(
            ("math_factorial", '{"number": true}'),
            "schema: arguments.number: expected integer, got bool",
            id="bool",
        ),
    ],
)
def test_call_validity(call: tuple[str, str], problem: str | None) -> None:
    """Invalid: unparseable, an unknown tool, or arguments against the schema."""
    assert call_problem(call, TOOLS) == problem


def test_schema_keywords() -> None:
    """enum, items, additionalProperties and bounds are checked; unknown keywords ignored."""
    tool = {
        "type": "function",
        "function": {
            "name": "f",
            "parameters": {
                "type": "object",
                "properties": {
                    "unit": {"type": "string", "enum": ["c", "f"], "optional": True},
                    "xs": {"type": "array", "items": {"type": "number"}, "maxItems": 2},
                    "n": {"type": "integer", "minimum": 1, "required": True},
                },
                "additionalProperties": False,
            },
        },
    }

    def problem(args: dict[str, Any]) -> str | None:
        return call_problem(("f", json.dumps(args)), [tool])

    assert problem({"unit": "c", "xs": [1, 2.5], "n": 1}) is None
    assert problem({"unit": "k"}) == "schema: arguments.unit: 'k' is not one of ['c', 'f']"
    assert problem({"xs": [1, "a"]}) == "schema: arguments.xs[1]: expected number, got str"
    assert problem({"xs": [1, 2, 3]}) == "schema: arguments.xs: more than 2 items"
    assert problem({"n": 0}) == "schema: arguments.n: 0 is below the minimum 1"
    assert problem({"m": 0}) == "schema: arguments: unexpected 'm'"


@pytest.mark.parametrize(
    ("text", "looks"),
    [
        pytest.param('{"name": "f", "arguments": {"a": 1}}', True, id="json"),
        pytest.param('```json\n{"name": "f", "parameters": {}}\n```', True, id="fenced"),
        pytest.param('<tool_call>\n{"name": "f"}', True, id="tag"),
        pytest.param("The factorial of 5 is 120.", False, id="prose"),
        pytest.param('{"name": "Ada"}', False, id="json-no-arguments"),
    ],
)
def test_looks_like_call(text: str, looks: bool) -> None:
    """Text with a tool-call tag, or with "name" and "arguments" keys, reads like a call."""
    assert looks_like_call(text) is looks


def _item(tmp_path: Path) -> Any:
    return load_category(_wheel(tmp_path, 6), "simple_python")[5]


@pytest.mark.anyio
async def test_direct_sends_tools_and_decodes_tool_calls(tmp_path: Path) -> None:
    """Direct: the item's messages and tools go to llama-server; its tool_calls are the calls."""
    sent: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        call = {
            "id": "c1",
            "type": "function",
            "function": {"name": "math_factorial", "arguments": '{"number": 5}'},
        }
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
        return httpx.Response(
            200, json={"choices": [{"message": message, "finish_reason": "tool_calls"}]}
        )

    item = _item(tmp_path)
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        got = await ask_direct(http, "http://llama", item, TOOLS, seed=7)
    assert sent[0]["tools"] == TOOLS
    assert sent[0]["messages"] == item.messages
    assert (sent[0]["temperature"], sent[0]["seed"], sent[0]["max_tokens"]) == (0, 7, 256)
    assert got.calls == [("math_factorial", '{"number": 5}')]
    assert got.finish_reason == "tool_calls"
    result = judge("m", "direct", item, TOOLS, got)
    assert result.correct and result.problems == [None] and not result.left_as_text


@pytest.mark.anyio
async def test_direct_text_is_no_call_and_errors_are_failures(tmp_path: Path) -> None:
    """A call written as text stays text (counted as left as text); an HTTP error or a timeout
    is a failed request, not the end of the run."""
    replies = [
        httpx.Response(
            200,
            json={
                "choices": [
                    {
                        "message": {
                            "content": '{"name": "math_factorial", "arguments": {"number": 5}}'
                        }
                    }
                ]
            },
        ),
        httpx.Response(500, text="grammar error"),
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        if not replies:
            raise httpx.ReadTimeout("slow", request=request)
        return replies.pop(0)

    item = _item(tmp_path)
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        text = await ask_direct(http, "http://llama", item, TOOLS, seed=7)
        failed = await ask_direct(http, "http://llama", item, TOOLS, seed=7)
        timed_out = await ask_direct(http, "http://llama", item, TOOLS, seed=7)
    result = judge("m", "direct", item, TOOLS, text)
    assert not result.correct and result.left_as_text and result.calls == []
    assert failed.failure == "HTTP 500: grammar error"
    assert timed_out.failure == "ReadTimeout"
    assert judge("m", "direct", item, TOOLS, failed).error_type == "request_failed"


@pytest.mark.anyio
async def test_agentd_first_step_gets_the_prompt_and_compacted_tools(tmp_path: Path) -> None:
    """first-step: one model call with agentd's system prompt, the item's messages and the tools."""
    model = FakeModel()
    model.add(answer("", ("math_factorial", '{"number": 5}')))
    item = _item(tmp_path)
    schemas = compacted(TOOLS)
    got = await ask_first_step(AgentLoop(model), "AGENTD PROMPT", item, schemas)
    (request,) = model.requests
    assert [(m.role, m.content) for m in request.messages] == [
        ("system", "AGENTD PROMPT"),
        ("user", "What is 5!?"),
    ]
    assert request.tools == schemas == TOOLS  # nothing to compact in BFCL's docs
    assert request.tool_names == frozenset({"math_factorial"})
    assert got.calls == [("math_factorial", '{"number": 5}')]
    assert judge("m", "first-step", item, schemas, got).correct
    model.add(LLMStatusError(500, "model server answered HTTP 500: boom"))
    failed = await ask_first_step(AgentLoop(model), "AGENTD PROMPT", item, schemas)
    assert failed.failure == "LLMStatusError: model server answered HTTP 500: boom"


def _result(mode: str, category: str, correct: bool, **extra: Any) -> Any:
    item = load_category(_wheel(Path(extra.pop("tmp")), 2), "simple_python")[1]
    res = judge("m1", mode, item, TOOLS, Answer(extra.pop("calls", []), "", 1.0))
    res.category, res.correct = category, correct
    return res


def test_the_table_and_files(tmp_path: Path) -> None:
    """One row per category and one for all; accuracy, invalid calls of all calls, text calls;
    the per-item files hold every result."""
    results = [
        _result(
            "direct",
            "simple_python",
            True,
            tmp=tmp_path,
            calls=[("math_factorial", '{"number": 1}')],
        ),
        _result("http", "simple_python", False, tmp=tmp_path, calls=[("nope", "{}")]),
        _result("direct", "parallel", False, tmp=tmp_path),
        _result("http", "parallel", True, tmp=tmp_path),
    ]
    table = model_table(results, "m1", ["simple_python", "parallel"], ["direct", "http"])
    lines = table.splitlines()
    assert lines[0].startswith("| category | items | direct accuracy | http accuracy |")
    cells = "100% (1/1) | 0% (0/1) | 0% (0/1) | 100% (1/1) | 0% (0/1) | 0% (0/1)"
    assert lines[2] == f"| simple_python | 1 | {cells} |"
    assert lines[3] == "| parallel | 1 | 0% (0/1) | 100% (1/1) | - | - | 0% (0/1) | 0% (0/1) |"
    assert lines[4].startswith("| **all** | 2 | 50% (1/2) | 50% (1/2) |")
    report = render(results, ["m1", "m2"], ["simple_python", "parallel"], ["direct"], {"m1": 1.5})
    assert report.startswith("### m1\n\n| category | items | direct accuracy |")
    assert "load 1.5 s; direct 1.0 s/item" in report
    assert "m2" not in report  # no results, no table
    for result in results:
        append_jsonl(tmp_path / "r.jsonl", result)
    write_csv(tmp_path / "r.csv", results)
    rows = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [r["mode"] for r in rows] == ["direct", "http", "direct", "http"]
    assert rows[1]["problems"] == ["unknown tool"]
    assert len((tmp_path / "r.csv").read_text().splitlines()) == 5


def test_direct_is_reported_strict_and_lenient() -> None:
    """A run of direct reports it twice, as it is and read leniently, before the other modes."""
    assert reported_modes(["direct", "http"]) == ["direct", "direct-lenient", "http"]
    assert reported_modes(["first-step"]) == ["first-step"]
