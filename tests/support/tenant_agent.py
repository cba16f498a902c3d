"""A stub "model" for tenant isolation tests: it acts on commands and echoes all it was sent.

Installed as :attr:`StubLLM.fallback`, it answers every request from the request alone (no
script, so requests of several principals may interleave):

- a user message (its last line) ``SAVE <text>`` gets a ``memory_save`` call, ``SEARCH <query>`` a
  ``memory_search`` call (top 5);
- after a tool result, and for any other message, it answers ``seen: `` and every marker in
  the user and tool messages of the request (recalled memories included), then the memory
  tools' verdicts (``saved memory``, ``no memories found``).

Whatever data the daemon showed the model, of whichever tenant, is thus in the reply the client
reads (all test data are markers).
Markers (:func:`marker`) name the tenant whose data they are, so a leak is a marker of another
tenant in what a principal reads (:func:`foreign`).
"""

from __future__ import annotations

import re
from typing import Any

from tests.support.stub_llm import Reply

MARKER = re.compile(r"zq([a-z]+)x(\w+?)q\b")
#: What the memory tools answer, repeated in the reply when a tool said it.
VERDICTS = ("saved memory", "no memories found")


def marker(tenant: str, tag: str) -> str:
    """A word that says it belongs to ``tenant`` (letters only) and is unique by ``tag``."""
    return f"zq{tenant}x{tag}q"


def foreign(text: str, tenant: str) -> list[str]:
    """The markers in ``text`` that belong to a tenant other than ``tenant``."""
    return [m.group(0) for m in MARKER.finditer(text) if m.group(1) != tenant]


def own(text: str, tenant: str) -> list[str]:
    """The markers in ``text`` that belong to ``tenant``."""
    return [m.group(0) for m in MARKER.finditer(text) if m.group(1) == tenant]


def _content(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):
        content = " ".join(str(part.get("text") or "") for part in content)
    return str(content)


def tenant_agent(body: dict[str, Any]) -> Reply:
    """The answer to one chat request (see the module docstring)."""
    messages = body.get("messages") or []
    last = messages[-1] if messages else {"role": "user", "content": ""}
    if last.get("role") == "user":
        # Recall puts remembered memories in front of the message: the command is last.
        lines = _content(last).splitlines() or [""]
        command, _, argument = lines[-1].partition(" ")
        if command == "SAVE" and argument:
            return Reply(tool_calls=[("memory_save", {"content": argument})])
        if command == "SEARCH" and argument:
            return Reply(tool_calls=[("memory_search", {"query": argument, "top_k": 5})])
    # Only the markers and the tools' verdicts: whole contents would make every answer repeat
    # all earlier ones, and a long session outgrow the context (its oldest turns then dropped).
    said = [_content(m) for m in messages if m.get("role") in ("user", "tool")]
    words = dict.fromkeys(m.group(0) for text in said for m in MARKER.finditer(text))
    verdicts = dict.fromkeys(v for text in said for v in VERDICTS if text.startswith(v))
    return Reply(text="seen: " + " ".join([*words, *verdicts]))
