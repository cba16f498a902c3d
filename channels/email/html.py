"""HTML mail bodies as plain text: what a reader sees, without markup, scripts or styles.

The standard library's tokenizer reads the HTML (it never fetches anything and never fails on
bad markup); block elements end lines, list items get a dash, a link keeps its target after its
text, and runs of blank lines are squeezed.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "div", "dl", "dt", "dd", "footer",
        "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "nav",
        "ol", "p", "pre", "section", "table", "tr", "ul",
    }
)  # fmt: skip
_HIDDEN = frozenset({"script", "style", "head", "title", "template", "noscript"})
_BLANKS = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")
_SPACES = re.compile(r"[ \t\r\f\v]+")


class _TextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self._hidden = 0
        self._pre = 0
        self._href: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self._hidden += 1
        elif tag == "br":
            self.out.append("\n")
        elif tag == "li":
            self.out.append("\n- ")
        elif tag in _BLOCKS:
            self.out.append("\n")
        if tag == "pre":
            self._pre += 1
        elif tag == "a":
            self._href.append(dict(attrs).get("href"))

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _BLOCKS:
            self.out.append("\n")
        if tag == "pre":
            self._pre = max(0, self._pre - 1)
        elif tag == "a" and self._href:
            href = self._href.pop()
            if href and href.startswith(("http://", "https://", "mailto:")):
                self.out.append(f" ({href})")

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        self.out.append(data if self._pre else _SPACES.sub(" ", data.replace("\n", " ")))


def html_to_text(html: str) -> str:
    """The text of ``html`` as a reader would see it."""
    parser = _TextParser()
    parser.feed(html)
    parser.close()
    text = "".join(parser.out)
    lines = [line.strip() for line in text.split("\n")]
    return _BLANKS.sub("\n\n", "\n".join(lines)).strip()
