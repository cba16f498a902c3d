"""The direct mode's lenient read: calls a model wrote as text, read by agentd's text parser."""

from __future__ import annotations

import pytest

from bench.bfcl.answer import Answer, lenient
from bench.bfcl.convert import to_openai_tools
from bench.bfcl.data import Item
from bench.bfcl.runner import judge

FACTORIAL = {
    "name": "math.factorial",
    "description": "Calculate the factorial of a given positive integer.",
    "parameters": {
        "type": "dict",
        "properties": {"number": {"type": "integer", "description": "The number."}},
        "required": ["number"],
    },
}
TOOLS = to_openai_tools([FACTORIAL])
CALL_5 = '{"name": "math_factorial", "arguments": {"number": 5}}'
CALL_7 = '{"name": "math_factorial", "arguments": {"number": 7}}'
PARALLEL = Item(
    id="parallel_0",
    category="parallel",
    messages=[{"role": "user", "content": "What are 5! and 7!?"}],
    functions=[FACTORIAL],
    ground_truth=[{"math.factorial": {"number": [5]}}, {"math.factorial": {"number": [7]}}],
)


@pytest.mark.parametrize(
    ("text", "numbers", "rest"),
    [
        pytest.param(CALL_5, [5], "", id="bare"),
        pytest.param(f"```json\n{CALL_5}\n```", [5], "", id="fenced"),
        pytest.param(f"{CALL_5}\n{CALL_7}", [5, 7], "", id="one-per-line"),
        pytest.param(f"[{CALL_5}, {CALL_7}]", [5, 7], "", id="list"),
        pytest.param(f"<tool_call>\n{CALL_5}\n</tool_call>", [5], "", id="template-tags"),
        pytest.param(
            f"I will compute it:\n```json\n{CALL_5}\n```",
            [5],
            "I will compute it:",
            id="after-prose",
        ),
        pytest.param(
            '{"name": "math_factorial", "parameters": {"number": 5}}', [5], "", id="parameters-key"
        ),
    ],
)
def test_calls_written_as_text_are_read(text: str, numbers: list[int], rest: str) -> None:
    """Bare, fenced, listed or tagged JSON calls of offered tools become the answer's calls."""
    read = lenient(Answer([], text, 1.5, "stop"), TOOLS)
    assert [name for name, _ in read.calls] == ["math_factorial"] * len(numbers)
    assert [f'{{"number": {n}}}' for n in numbers] == [args for _, args in read.calls]
    assert read.content == rest
    assert (read.seconds, read.finish_reason) == (1.5, "stop")


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(Answer([], "5! is 120.", 1.0), id="prose"),
        pytest.param(
            Answer([], '{"name": "math.gamma", "arguments": {"number": 5}}', 1.0),
            id="tool-not-offered",
        ),
        pytest.param(Answer([], '{"name": "Ada", "age": 3}', 1.0), id="json-not-a-call"),
        pytest.param(Answer([("math_factorial", '{"number": 7}')], CALL_5, 1.0), id="has-calls"),
        pytest.param(Answer([], CALL_5, 1.0, failure="HTTP 500: boom"), id="failed"),
        pytest.param(Answer([], "", 1.0), id="empty"),
    ],
)
def test_other_answers_stay_as_they_are(answer: Answer) -> None:
    """Prose, a call of a tool that was not offered, an answer that has calls already and a
    failed request are left alone: the lenient read adds calls only where there were none."""
    assert lenient(answer, TOOLS) is answer


def test_parallel_calls_written_as_text_score_together() -> None:
    """Two calls written one per line (fenced) are one parallel answer: strict misses it,
    the lenient read scores it."""
    answer = Answer([], f"```json\n{CALL_5}\n{CALL_7}\n```", 1.0)
    strict = judge("m", "direct", PARALLEL, TOOLS, answer)
    read = judge("m", "direct-lenient", PARALLEL, TOOLS, lenient(answer, TOOLS))
    assert not strict.correct and strict.left_as_text
    assert (read.correct, read.left_as_text, len(read.calls)) == (True, False, 2), read
