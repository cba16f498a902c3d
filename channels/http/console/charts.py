"""Small line charts as SVG markup, rendered on the server (no chart library, no script).

The markup carries presentation attributes only (no ``style``), so the console's
Content-Security-Policy needs no ``'unsafe-inline'``; every number is formatted here and every
label is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH, HEIGHT, PAD = 600, 120, 24


@dataclass(frozen=True, slots=True)
class Line:
    """One series of a chart (None: no value that minute) and its CSS class."""

    name: str
    values: Sequence[float | None]
    css: str = "line-a"


def _fmt(value: float) -> str:
    if value >= 100 or value == int(value):
        return f"{value:.0f}"
    return f"{value:.2g}" if value < 1 else f"{value:.1f}"


def line_chart(title: str, lines: Sequence[Line], *, unit: str = "", slots: int = 60) -> Markup:
    """An SVG chart of ``lines`` over the last ``slots`` minutes, the newest at the right edge,
    its axis from 0 to the largest value."""
    count = max([slots, *(len(line.values) for line in lines)])
    peak = max((v for line in lines for v in line.values if v is not None), default=0.0)
    top = peak if peak > 0 else 1.0
    step = (WIDTH - 2 * PAD) / max(count - 1, 1)
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line class="axis" x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" '
        f'y2="{HEIGHT - PAD}"/>',
        f'<text class="tick" x="2" y="{PAD - 8}">{escape(_fmt(peak))}{escape(unit)}</text>',
        f'<text class="tick" x="2" y="{HEIGHT - PAD + 16}">-{count} min</text>',
        f'<text class="tick" x="{WIDTH - PAD - 20}" y="{HEIGHT - PAD + 16}">now</text>',
    ]
    for line in lines:
        offset = count - len(line.values)
        points = [
            f"{PAD + (offset + i) * step:.1f},{HEIGHT - PAD - (v / top) * (HEIGHT - 2 * PAD):.1f}"
            for i, v in enumerate(line.values)
            if v is not None
        ]
        if len(points) == 1:
            x, y = points[0].split(",")
            parts.append(f'<circle class="{escape(line.css)}" cx="{x}" cy="{y}" r="3"/>')
        elif points:
            parts.append(
                f'<polyline class="{escape(line.css)}" fill="none" points="{" ".join(points)}"/>'
            )
    parts.append("</svg>")
    return Markup("".join(parts))
