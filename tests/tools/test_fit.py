"""cut_to_fit: any tool result cut to a size, with a marker saying what was dropped."""

from __future__ import annotations

import pytest

from agentd.tools.fit import cut_to_fit, more_marker

HINT = "the full text is in notes.md"


def test_short_text_is_unchanged() -> None:
    """A text within the limit comes back as it is."""
    assert cut_to_fit("hello", 5, hint=HINT) == "hello"
    assert cut_to_fit("", 0, hint=HINT) == ""


def test_long_text_is_cut_with_a_marker() -> None:
    """A long text keeps its start, then a line with the dropped count and the hint."""
    text = "x" * 10_000
    out = cut_to_fit(text, 200, hint=HINT)
    head, marker = out.rsplit("\n", 1)
    assert len(out) <= 200 and set(head) == {"x"}
    assert marker == f"[... {10_000 - len(head):,} more characters; {HINT}]"


def test_the_cut_prefers_a_line_end() -> None:
    """When a line ends in the second half of the room, the cut falls there."""
    text = "\n".join(f"line {i:03}" for i in range(100))
    out = cut_to_fit(text, 120, hint="")
    head, marker = out.rsplit("\n", 1)
    assert head.endswith("line 009") and text.startswith(head + "\n")
    assert marker == f"[... {len(text) - len(head):,} more characters]"


@pytest.mark.parametrize("max_chars", [0, 1, 10, 40, 57, 58, 59, 100, 999])
def test_the_result_never_exceeds_max_chars(max_chars: int) -> None:
    """Whatever the size, the result (marker included) has at most max_chars characters."""
    text = ("abc\n" * 300)[:1000]
    out = cut_to_fit(text, max_chars, hint=HINT)
    assert len(out) <= max_chars
    if max_chars >= 100:
        dropped = len(text) - len(out.rsplit("\n", 1)[0])
        assert out.endswith(more_marker(dropped, HINT))


def test_a_negative_size_gives_nothing() -> None:
    """A size below zero is treated as zero."""
    assert cut_to_fit("abc", -5, hint=HINT) == ""


def test_more_marker_groups_digits() -> None:
    """The count is written with thousands separators; the hint is optional."""
    assert more_marker(12345, "read on") == "[... 12,345 more characters; read on]"
    assert more_marker(3) == "[... 3 more characters]"
