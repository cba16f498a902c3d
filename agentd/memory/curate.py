"""Keeping memories current: the model decides whether a new fact adds, updates or repeats one.

Saving "I moved to Berlin" after "I live in Paris" should leave one memory saying Berlin, not
two that disagree; "forget my address" should delete it. Which memory a fact is about is a
question of meaning in the user's language, so the model answers it, never a word list: shown
the new fact (or what to forget) and the most similar memories, numbered, it picks one JSON
object among the few that are valid, under a grammar (``LLMClient.choose``)::

    {"action": "add"}   {"action": "update", "id": 2}   {"action": "delete", "id": 1}
    {"action": "nothing"}

An update keeps the memory's key and sets its text, saved and confirmed times; "nothing" (the
fact is already there) only marks the memory confirmed now. A model that cannot answer leaves
the old behaviour: the fact is added (saving never fails for want of a decision), and nothing
is deleted.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import structlog

from agentd.errors import AgentdError
from agentd.memory.longterm import Memory
from agentd.messages import Message, system, user

log = structlog.get_logger("agentd.memory.curate")

#: ``LLMClient.choose``: one of the options, written by the model under a grammar, or None.
Choose = Callable[[Sequence[Message], Sequence[str]], Awaitable[str | None]]
Action = Literal["add", "update", "delete", "nothing"]
#: Similar memories shown to the model.
CANDIDATES = 5

SAVE_PROMPT = (
    "You keep a person's long-term memory current. They just said a new fact. Below it are the "
    "stored memories most similar to it, numbered. Answer with one JSON object:\n"
    '- {"action": "update", "id": N} when the new fact is about the same thing as memory N '
    "and changes or corrects it (a new address, a moved date, a changed preference): N is "
    "replaced by the new fact;\n"
    '- {"action": "nothing"} when memory N already says exactly the same;\n'
    '- {"action": "add"} when the new fact is about something none of them is about.\n'
    "Memories and facts may be in any language; compare what they mean."
)
FORGET_PROMPT = (
    "You keep a person's long-term memory. They asked you to forget something. Below are the "
    "stored memories most similar to the request, numbered. Answer with one JSON object:\n"
    '- {"action": "delete", "id": N} for the memory N the request is about;\n'
    '- {"action": "nothing"} when none of them is what they want forgotten.\n'
    "Memories and requests may be in any language; compare what they mean."
)


@dataclass(frozen=True, slots=True)
class Decision:
    """What to do with the store: ``memory`` is the chosen candidate (update, delete, nothing)."""

    action: Action
    memory: Memory | None = None


def _option(action: Action, number: int | None = None) -> str:
    body: dict[str, object] = {"action": action}
    if number is not None:
        body["id"] = number
    return json.dumps(body)


def _listing(candidates: Sequence[Memory]) -> str:
    return "\n".join(f"{i}. {m.content}" for i, m in enumerate(candidates, 1))


async def decide_save(choose: Choose, fact: str, candidates: Sequence[Memory]) -> Decision:
    """Add, update one of ``candidates``, or nothing, for the new ``fact``."""
    if not candidates:
        return Decision("add")
    options = {_option("add"): Decision("add")}
    for number, memory in enumerate(candidates, 1):
        options[_option("update", number)] = Decision("update", memory)
    options[_option("nothing")] = Decision("nothing", candidates[0])
    messages = [
        system(SAVE_PROMPT),
        user(f"New fact: {fact}\n\nStored memories:\n{_listing(candidates)}"),
    ]
    return await _ask(choose, messages, options, Decision("add"))


async def decide_forget(choose: Choose, request: str, candidates: Sequence[Memory]) -> Decision:
    """Which of ``candidates`` to delete for ``request``, or nothing."""
    if not candidates:
        return Decision("nothing")
    options = {_option("nothing"): Decision("nothing")}
    for number, memory in enumerate(candidates, 1):
        options[_option("delete", number)] = Decision("delete", memory)
    messages = [
        system(FORGET_PROMPT),
        user(f"Forget: {request}\n\nStored memories:\n{_listing(candidates)}"),
    ]
    return await _ask(choose, messages, options, Decision("nothing"))


async def _ask(
    choose: Choose, messages: Sequence[Message], options: dict[str, Decision], fallback: Decision
) -> Decision:
    try:
        picked = await choose(messages, list(options))
    except AgentdError as exc:
        log.warning("memory.curate_failed", reason=str(exc)[:200], fallback=fallback.action)
        return fallback
    decision = options.get(picked or "", fallback)
    log.info("memory.curated", action=decision.action, answered=picked is not None)
    return decision
