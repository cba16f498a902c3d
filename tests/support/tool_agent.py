"""A stub "model" that calls the tool it is told to and answers with the tool's result.

Installed as :attr:`StubLLM.fallback`: a user message ``TOOL:<name> <json arguments>`` gets that
one call; once the request holds its result, the answer is ``RESULT:`` and the result's text.
Requests of several tests may interleave: each answer comes from its request alone.
"""

from __future__ import annotations

import json
from typing import Any

from tests.support.stub_llm import Reply, user_words

PREFIX = "TOOL:"


def _content(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):
        content = " ".join(str(part.get("text") or "") for part in content)
    return user_words(str(content))


def tool_agent(body: dict[str, Any]) -> Reply:
    """The answer to one chat request (see the module docstring)."""
    messages = body.get("messages") or []
    ask = max(
        (
            i
            for i, m in enumerate(messages)
            if m["role"] == "user" and _content(m).startswith(PREFIX)
        ),
        default=None,
    )
    if ask is None:
        return Reply(text="no tool asked")
    results = [_content(m) for m in messages[ask:] if m["role"] == "tool"]
    if results:
        return Reply(text="RESULT:" + results[-1])
    name, _, arguments = _content(messages[ask])[len(PREFIX) :].partition(" ")
    return Reply(tool_calls=[(name, json.loads(arguments or "{}"))])
