"""MCP tool results as the text the model reads."""

from __future__ import annotations

import base64

import mcp_types as types
import pytest

from agentd.mcp.results import CUT_HINT, outcome_of
from agentd.tools.registry import ToolOutcome


def _result(*content: types.ContentBlock, **kwargs: object) -> types.CallToolResult:
    return types.CallToolResult(content=list(content), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        pytest.param(
            _result(types.TextContent(text="a"), types.TextContent(text="b")), "a\nb", id="texts"
        ),
        pytest.param(
            _result(
                types.ImageContent(data=base64.b64encode(b"x" * 2048).decode(), mime_type="a/b")
            ),
            "[image a/b, 2,048 bytes]",
            id="image",
        ),
        pytest.param(
            _result(
                types.EmbeddedResource(
                    resource=types.TextResourceContents(uri="file:///a.txt", text="body")
                )
            ),
            "[resource file:///a.txt]\nbody",
            id="text-resource",
        ),
        pytest.param(
            _result(types.ResourceLink(uri="file:///b", name="b")),
            "[resource link file:///b (b)]",
            id="link",
        ),
        pytest.param(_result(structured_content={"n": 3}), '{"n": 3}', id="structured-only"),
        pytest.param(
            _result(types.TextContent(text="3"), structured_content={"result": 3}),
            "3",
            id="structured-and-text",
        ),
        pytest.param(_result(), "(no output)", id="empty"),
    ],
)
def test_content_becomes_text(result: types.CallToolResult, expected: str) -> None:
    """Text parts are joined, other parts described, structured content shown as JSON."""
    assert outcome_of(result, 10_000) == ToolOutcome(expected)


def test_is_error_makes_an_error_result() -> None:
    """isError answers the model with an error result carrying the server's words."""
    result = _result(types.TextContent(text="no such city"), is_error=True)
    assert outcome_of(result, 1000) == ToolOutcome("error: no such city", True)
    assert outcome_of(_result(is_error=True), 1000).content.startswith("error: the tool failed")


def test_a_long_result_is_cut_with_a_marker() -> None:
    """A result past max_chars is cut, the last line saying how much was left out."""
    text = ("z" * 99 + "\n") * 1000
    out = outcome_of(_result(types.TextContent(text=text)), 2000)
    assert len(out.content) <= 2000
    assert out.content.endswith(CUT_HINT + "]")
