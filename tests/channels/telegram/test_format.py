"""Splitting replies under Telegram's limit and rendering Markdown as HTML or MarkdownV2."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from channels.chat.split import split_text, utf16_len
from channels.telegram.format import MESSAGE_LIMIT, render, render_parts
from tests.support.fake_telegram import _html_error


def test_short_text_is_one_part() -> None:
    """Text under the limit is sent as it is."""
    assert split_text("hello\n\nworld", 100) == ["hello\n\nworld"]


def test_split_prefers_paragraphs_then_lines_then_words() -> None:
    """Cuts fall on a paragraph end when there is one, else a line end, else a space."""
    paragraphs = "\n\n".join(["a" * 60, "b" * 60, "c" * 60])
    assert split_text(paragraphs, 130) == ["a" * 60 + "\n\n" + "b" * 60, "c" * 60]
    lines = "\n".join(["a" * 60, "b" * 60, "c" * 60])
    assert split_text(lines, 130) == ["a" * 60 + "\n" + "b" * 60, "c" * 60]
    words = " ".join(["word"] * 40)
    parts = split_text(words, 50)
    assert all(len(p) <= 50 for p in parts) and " ".join(parts) == words


def test_unbroken_text_is_cut_hard() -> None:
    """A text with no spaces is cut at the limit without losing characters."""
    parts = split_text("x" * 250, 100)
    assert "".join(parts) == "x" * 250 and all(len(p) <= 100 for p in parts)


def test_code_fence_is_closed_and_reopened_across_parts() -> None:
    """A code block cut in two stays a code block in both parts."""
    code = "intro\n\n```python\n" + "\n".join(f"x = {i}" for i in range(60)) + "\n```\nafter"
    parts = split_text(code, 200)
    assert len(parts) > 2
    for part in parts[1:-1]:
        assert part.startswith("```python\n") and part.endswith("\n```")
    assert all(p.count("```") % 2 == 0 for p in parts)


def test_limit_counts_utf16_units() -> None:
    """Emoji count twice, as Telegram counts them."""
    assert utf16_len("😀a") == 3
    parts = split_text("😀" * 100, 64)
    assert all(utf16_len(p) <= 64 for p in parts) and "".join(parts) == "😀" * 100


@pytest.mark.parametrize(
    ("markdown", "html"),
    [
        pytest.param("a < b & c > d", "a &lt; b &amp; c &gt; d", id="escape"),
        pytest.param(
            "**bold** and *it* and _it_", "<b>bold</b> and <i>it</i> and <i>it</i>", id="b-i"
        ),
        pytest.param("`a<b`", "<code>a&lt;b</code>", id="code"),
        pytest.param("~~gone~~", "<s>gone</s>", id="strike"),
        pytest.param(
            "[site](https://x.org/?a=1&b=2)",
            '<a href="https://x.org/?a=1&amp;b=2">site</a>',
            id="link",
        ),
        pytest.param("## Title", "<b>Title</b>", id="heading"),
        pytest.param(
            "```py\nif a<b:\n  **x**\n```",
            '<pre><code class="language-py">if a&lt;b:\n  **x**</code></pre>',
            id="fence",
        ),
        pytest.param(
            "snake_case_name and 2*3*4", "snake_case_name and 2*3*4", id="no-false-italic"
        ),
    ],
)
def test_html_rendering(markdown: str, html: str) -> None:
    """Markdown becomes the Telegram HTML subset with everything else escaped."""
    assert render(markdown, "HTML") == html


@pytest.mark.parametrize(
    ("markdown", "mdv2"),
    [
        pytest.param("1+1=2. Done!", "1\\+1\\=2\\. Done\\!", id="escape"),
        pytest.param("**bold** (x)", "*bold* \\(x\\)", id="bold"),
        pytest.param("`a_b\\c`", "`a_b\\\\c`", id="code"),
        pytest.param("[a.b](https://x.org/a_b)", "[a\\.b](https://x.org/a_b)", id="link"),
    ],
)
def test_markdownv2_rendering(markdown: str, mdv2: str) -> None:
    """MarkdownV2 escapes every reserved character outside entities."""
    assert render(markdown, "MarkdownV2") == mdv2


def test_plain_mode_sends_source() -> None:
    """parse_mode plain sends the text unchanged and without a parse_mode."""
    [part] = render_parts("**x** <y>", "plain")
    assert part.text == "**x** <y>" and part.parse_mode is None


def test_escaping_growth_is_split_again() -> None:
    """Text that grows when escaped is still sent in parts within the limit, in order."""
    source = "<&>" * 3000
    parts = render_parts(source, "HTML")
    assert all(utf16_len(p.text) <= MESSAGE_LIMIT for p in parts)
    assert "".join(p.source for p in parts) == source


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab *_`<>&[]()~#\n😀"), max_size=600))
def test_any_text_renders_valid_html_within_limit(text: str) -> None:
    """Any text becomes parts within the limit whose HTML Telegram can parse."""
    for part in render_parts(text, "HTML", limit=200):
        assert utf16_len(part.text) <= 200
        assert _html_error(part.text) is None, part.text
