"""Small Markdown helpers shared by the reference generators."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence


def cell(text: object) -> str:
    """``text`` safe inside a Markdown table cell (pipes and HTML escaped, one line)."""
    parts = " ".join(str(text).split()).split("`")
    # Outside code spans: pipes escaped, HTML shown as text; inside, Markdown keeps both.
    for i in range(0, len(parts), 2):
        parts[i] = html.escape(parts[i], quote=False).replace("|", "\\|")
    return "`".join(parts)


def code(text: object) -> str:
    """``text`` as inline code, safe in a table cell."""
    raw = " ".join(str(text).split())  # a pipe in a code span does not split the cell
    fence = "``" if "`" in raw else "`"
    pad = " " if "`" in raw else ""
    return f"{fence}{pad}{raw}{pad}{fence}"


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A Markdown table; cells must already be escaped (:func:`cell`, :func:`code`)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


GENERATED = (
    '!!! note "Generated"\n'
    "    This page is generated from the code when the site is built; edit the code, not the "
    "page.\n"
)
