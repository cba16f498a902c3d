"""Replies as Telegram messages: split under the length limit, Markdown as HTML or MarkdownV2.

Models answer in Markdown. A reply is first split on the source text (paragraph, then line, then
word boundaries; a code fence cut in two is closed and reopened: :mod:`channels.chat.split`),
then each part is rendered in the configured parse mode. A rendered part that would still exceed
the limit is split again smaller. Each part keeps its source text, which is what is sent when
Telegram rejects the entities ("can't parse entities"): the reader then sees the Markdown, not
nothing.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from channels.chat.split import split_text, utf16_len

#: Telegram's limit for one message, in UTF-16 code units (how Telegram counts).
MESSAGE_LIMIT = 4096

ParseMode = Literal["HTML", "MarkdownV2", "plain"]

_FENCE = re.compile(r"```([\w+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)
_INLINE = re.compile(
    r"`(?P<code>[^`\n]+)`"
    r"|\[(?P<ltext>[^\]\n]+)\]\((?P<url>https?://[^)\s\"]+)\)"
    r"|\*\*(?P<bold>[^\n]+?)\*\*"
    r"|~~(?P<strike>[^\n]+?)~~"
    r"|(?<![\w*])\*(?P<istar>[^\s*][^\n*]*?)(?<!\s)\*(?![\w*])"
    r"|(?<![\w_])_(?P<iunder>[^\s_][^\n_]*?)(?<!\s)_(?![\w_])"
    r"|^(?P<hashes>\#{1,6})[ \t]+(?P<heading>[^\n]+)$",
    re.M,
)
_MDV2_SPECIAL = re.compile(r"([_*\[\]()~`>#+\-=|{}.!\\])")


@dataclass(frozen=True, slots=True)
class Part:
    """One message to send: ``text`` in ``parse_mode`` and the ``source`` to fall back to."""

    text: str
    parse_mode: str | None
    source: str


def _escape_html(text: str) -> str:
    return html.escape(text, quote=False)


def _escape_mdv2(text: str) -> str:
    return _MDV2_SPECIAL.sub(r"\\\1", text)


def _escape_mdv2_url(url: str) -> str:
    return url.replace("\\", "\\\\").replace(")", "\\)")


def _escape_mdv2_code(text: str) -> str:
    return text.replace("\\", "\\\\").replace("`", "\\`")


@dataclass(frozen=True, slots=True)
class _Style:
    escape: Callable[[str], str]
    code: Callable[[str], str]
    pre: Callable[[str, str], str]
    wrap: Callable[[str, str], str]  # (kind, rendered inner) with kind in b/i/s
    link: Callable[[str, str], str]  # (rendered text, url)


_HTML = _Style(
    escape=_escape_html,
    code=lambda t: f"<code>{_escape_html(t)}</code>",
    pre=lambda lang, t: (
        f'<pre><code class="language-{lang}">{_escape_html(t)}</code></pre>'
        if lang
        else f"<pre>{_escape_html(t)}</pre>"
    ),
    wrap=lambda kind, inner: f"<{kind}>{inner}</{kind}>",
    link=lambda text, url: f'<a href="{html.escape(url)}">{text}</a>',
)

_MDV2_MARK = {"b": "*", "i": "_", "s": "~"}
_MDV2 = _Style(
    escape=_escape_mdv2,
    code=lambda t: f"`{_escape_mdv2_code(t)}`",
    pre=lambda lang, t: f"```{lang}\n{_escape_mdv2_code(t)}```",
    wrap=lambda kind, inner: f"{_MDV2_MARK[kind]}{inner}{_MDV2_MARK[kind]}",
    link=lambda text, url: (
        f"[{text}]({url.replace(chr(92), chr(92) * 2).replace(')', chr(92) + ')')})"
    ),
)


def _inline(text: str, style: _Style) -> str:
    out: list[str] = []
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(style.escape(text[pos : m.start()]))
        pos = m.end()
        if m["code"] is not None:
            out.append(style.code(m["code"]))
        elif m["ltext"] is not None:
            out.append(style.link(_inline(m["ltext"], style), m["url"]))
        elif m["bold"] is not None:
            out.append(style.wrap("b", _inline(m["bold"], style)))
        elif m["strike"] is not None:
            out.append(style.wrap("s", _inline(m["strike"], style)))
        elif m["istar"] is not None or m["iunder"] is not None:
            out.append(style.wrap("i", _inline(m["istar"] or m["iunder"], style)))
        else:
            out.append(style.wrap("b", _inline(m["heading"], style)))
    out.append(style.escape(text[pos:]))
    return "".join(out)


def render(text: str, mode: ParseMode) -> str:
    """``text`` (Markdown) in Telegram's ``mode``; ``plain`` returns it unchanged."""
    if mode == "plain":
        return text
    style = _HTML if mode == "HTML" else _MDV2
    out: list[str] = []
    pos = 0
    for m in _FENCE.finditer(text):
        out.append(_inline(text[pos : m.start()], style))
        out.append(style.pre(m[1], m[2].rstrip("\n")))
        pos = m.end()
    out.append(_inline(text[pos:], style))
    return "".join(out)


def render_parts(text: str, mode: ParseMode, limit: int = MESSAGE_LIMIT) -> list[Part]:
    """The messages that carry ``text``: each rendered part within ``limit``, in order."""
    parse_mode = None if mode == "plain" else mode
    parts: list[Part] = []
    # Split for the average growth of escaping and markup; outliers are split again below.
    growth = utf16_len(render(text, mode)) / max(1, utf16_len(text))
    pending = split_text(text, int(limit / max(1.0, growth)))
    while pending:
        source = pending.pop(0)
        rendered = render(source, mode)
        size = utf16_len(rendered)
        if size > limit:
            # Escaping made it longer: split this part smaller, in proportion.
            budget = max(64, int(utf16_len(source) * limit / size) - 16)
            pending[:0] = split_text(source, min(budget, utf16_len(source) - 1))
            continue
        parts.append(Part(rendered, parse_mode, source))
    return parts
