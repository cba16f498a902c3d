"""Keeping memories current: the model decides whether a new fact adds, updates or repeats one.

Saving "I moved to Berlin" after "I live in Paris" should leave one memory saying Berlin, not
two that disagree; "forget my address" should delete it. Which memory a fact is about is a
question of meaning in the user's language, so the model answers it, never a word list: shown
the new fact (or what to forget) and the most similar memories, numbered, it picks one JSON
object among the few that are valid, under a grammar (``LLMClient.choose``)::

    {"action": "add"}   {"action": "update", "id": 2}   {"action": "delete", "id": 1}
    {"action": "nothing"}

An update keeps the memory's key and sets its text, saved and confirmed times; "nothing" (the
fact is already there) only marks the memory confirmed now. A model that cannot answer, or not
within :data:`DECIDE_WITHIN`, leaves the old behaviour: the fact is added (saving never fails
for want of a decision), and nothing is deleted.

An update overwrites, so the model is shown only memories that may be about the same thing
(:func:`about_the_same`): a small model offered unrelated ones picks one to replace (on the
memory benchmark, "I live in a flat on Elm Road" replaced a calligraphy class, and a school
meeting replaced a birthday, when every stored memory was shown). A new fact is compared with
stored ones as stored texts are (document vectors: a question and its answer lie further apart
than two facts about one thing), by its cosine around the store's mean once the store has one
(:mod:`agentd.memory.centre`), by plain cosine (the embedding model's own floor) before, by
sharing half its trigrams, or by the tags the model gave both: the same set names the same
subject in the model's own words, whatever the facts' wording (end to end, "I moved to a house
on Cherwell Street in Oxford" and "I live in a flat on Elm Road in Reading", both tagged
address and location, were too far apart by vector to be compared, and both stayed: the older
address was recalled, the newer one was not).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

import anyio
import structlog

from agentd.errors import AgentdError
from agentd.memory.fulltext import share
from agentd.memory.longterm import Memory
from agentd.messages import Message, system, user

log = structlog.get_logger("agentd.memory.curate")

#: ``LLMClient.choose``: one of the options, written by the model under a grammar, or None.
Choose = Callable[[Sequence[Message], Sequence[str]], Awaitable[str | None]]
Action = Literal["add", "update", "delete", "nothing"]
#: Similar memories shown to the model.
CANDIDATES = 5
#: Closeness (cosine around the store's mean) from which a memory may be about the same thing
#: as a new fact. multilingual-e5-small on the memory benchmark's dev half (fact against fact,
#: stores of 16): 95% of the facts knowledge updates replace reach 0.42, and for 90% of the
#: facts that update nothing no memory reaches 0.40.
SAME_THING = 0.4
#: Share of a new fact's trigrams a memory holding that many is shown for.
SAME_WORDS = 0.5
#: Seconds the model has to decide before the fact is added undecided (a tool's call is
#: stopped at 30 s by default, and a save that times out keeps nothing).
DECIDE_WITHIN = 20.0


@runtime_checkable
class Neighbours(Protocol):
    """A store that finds the memories nearest to a fact about to be stored (compared as
    stored texts), and gives the fact's vector for its save."""

    async def neighbours(
        self, content: str, top_k: int, words: str = ""
    ) -> tuple[list[float], list[Memory]]:
        """(the vector of the fact with the user's ``words``, the nearest memories, best
        first)."""
        ...


def about_the_same(fact: str, memory: Memory, similar: float, tags: Sequence[str] = ()) -> bool:
    """Whether ``memory`` may be about what ``fact`` (tagged ``tags``) is: closeness
    :data:`SAME_THING` or more when the store gave one, else plain cosine ``similar`` or more;
    half the fact's trigrams; or the same tags (:func:`same_tags`)."""
    if memory.closeness is not None:
        close = memory.closeness >= SAME_THING
    else:
        close = memory.score is not None and memory.score >= similar
    return close or same_tags(tags, memory.tags) or share(fact, memory.content) >= SAME_WORDS


def same_tags(new: Sequence[str], stored: Sequence[str]) -> bool:
    """Whether two memories carry the same tags, at least one (case and spacing aside)."""
    folded = _folded(new)
    return bool(folded) and folded == _folded(stored)


def _folded(tags: Sequence[str]) -> frozenset[str]:
    return frozenset(" ".join(tag.split()).casefold() for tag in tags if tag.strip())


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


async def decide_save(
    choose: Choose, fact: str, candidates: Sequence[Memory], within: float = DECIDE_WITHIN
) -> Decision:
    """Add, update one of ``candidates``, or nothing, for the new ``fact`` (add when the
    model has not decided within ``within`` seconds)."""
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
    with anyio.move_on_after(within):
        return await _ask(choose, messages, options, Decision("add"))
    log.warning("memory.curate_failed", reason=f"no decision within {within:g} s", fallback="add")
    return Decision("add")


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
