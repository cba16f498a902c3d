"""An MCP tool result as the text the model reads.

Text parts are joined; an image, audio clip or binary resource is described in one line (its
kind, type and size: a small model cannot look at it); an embedded text resource is its text
under its URI, a resource link its URI. Structured content is shown as JSON when no text part
carries the result (the spec asks servers to send both, and then they say the same thing).
``isError`` makes it an error result. The text is capped like other tools' results.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import mcp_types as types

from agentd.tools.fit import cut_to_fit
from agentd.tools.registry import ToolOutcome

__all__ = ["outcome_of"]

CUT_HINT = "the MCP tool's answer was cut to fit"


def outcome_of(result: types.CallToolResult, max_chars: int) -> ToolOutcome:
    """The outcome the model sees for ``result``, at most ``max_chars`` characters."""
    parts = [_part(block) for block in result.content]
    has_text = any(isinstance(b, types.TextContent) for b in result.content)
    if result.structured_content is not None and not has_text:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False, default=str))
    text = "\n".join(p for p in parts if p) or ("(no output)" if not result.is_error else "")
    if result.is_error:
        text = "error: " + (text or "the tool failed and said nothing more")
    return ToolOutcome(cut_to_fit(text, max_chars, hint=CUT_HINT), error=result.is_error)


def _part(block: Any) -> str:
    if isinstance(block, types.TextContent):
        return block.text
    if isinstance(block, types.ImageContent | types.AudioContent):
        kind = "image" if isinstance(block, types.ImageContent) else "audio"
        return f"[{kind} {block.mime_type}, {_size(block.data)}]"
    if isinstance(block, types.ResourceLink):
        return f"[resource link {block.uri}" + (f" ({block.name})" if block.name else "") + "]"
    if isinstance(block, types.EmbeddedResource):
        res = block.resource
        if isinstance(res, types.TextResourceContents):
            return f"[resource {res.uri}]\n{res.text}"
        return f"[resource {res.uri}, {res.mime_type or 'binary'}, {_size(res.blob)}]"
    return f"[{getattr(block, 'type', 'unknown')} content]"


def _size(data: str) -> str:
    """The decoded size of base64 ``data``, in words."""
    try:
        size = len(base64.b64decode(data, validate=False))
    except ValueError:
        size = len(data)
    return f"{size:,} bytes"
