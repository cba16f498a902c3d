"""A stub model script for agent tasks: ``TOOL:<name> <json>`` calls a tool, the next answer
repeats the tool's result, and a scheduled task's run is answered ``REMINDER: <prompt>``."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.support.stub_llm import Reply, echo, user_words


def scripted(body: dict[str, Any], *, slow: Callable[[str], float] | None = None) -> Reply:
    """The stub model's answers: tool calls on ``TOOL:``, the tool's result after it, and
    ``REMINDER: <prompt>`` for a task's run (``slow`` may delay that one)."""
    for message in reversed(body["messages"]):
        content = user_words(message.get("content") or "")
        if message["role"] == "tool":
            return Reply(text=f"tool said: {content}")
        if message["role"] != "user" or content.startswith("(Those are the results"):
            continue  # the loop's nudge after tool results
        if content.startswith("TOOL:"):
            name, _, args = content[5:].partition(" ")
            return Reply(tool_calls=[(name, json.loads(args or "{}"))])
        if content.startswith("[Scheduled task"):
            prompt = content.splitlines()[-1]
            return Reply(text=f"REMINDER: {prompt}", delay=slow(prompt) if slow else 0.0)
        break
    return echo(body)
