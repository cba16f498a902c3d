"""Replies as Matrix messages: a plain ``body`` and the Markdown rendered as HTML.

Models answer in Markdown. Matrix carries both forms in one event: ``body`` (the text as
written, for clients without HTML and for notifications) and ``formatted_body`` in
``org.matrix.custom.html``. The HTML comes from markdown-it-py (CommonMark, plus tables and
strikethrough) with raw HTML disabled: whatever HTML the model writes is shown as text, never
passed to clients as markup. A long reply is split on the source text first (paragraph, line,
word; a cut code fence is closed and reopened: :func:`channels.chat.split.split_text`,
one splitter for every chat channel), then each part is rendered.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from markdown_it import MarkdownIt

from channels.chat.split import split_text

HTML_FORMAT = "org.matrix.custom.html"


@cache
def _markdown() -> MarkdownIt:
    # "commonmark" with html=False: raw HTML in the source is escaped, not rendered.
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "breaks": True})
    md.enable(["table", "strikethrough"])
    return md


def to_html(text: str) -> str:
    """``text`` (Markdown) as Matrix HTML."""
    html: str = _markdown().render(text)
    return html.strip()


@dataclass(frozen=True, slots=True)
class Part:
    """One message of a reply: its plain ``body`` and its ``html``."""

    body: str
    html: str

    def content(self) -> dict[str, Any]:
        """The ``m.room.message`` content of this part (without relations)."""
        content: dict[str, Any] = {"msgtype": "m.text", "body": self.body}
        if self.html != _plain_html(self.body):
            content["format"] = HTML_FORMAT
            content["formatted_body"] = self.html
        return content


def _plain_html(body: str) -> str:
    return f"<p>{body}</p>"


def render_parts(text: str, limit: int) -> list[Part]:
    """The messages that carry ``text``, each source part at most ``limit`` characters."""
    return [Part(part, to_html(part)) for part in split_text(text, limit)]
