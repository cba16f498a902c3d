"""Unfinished: an answer after a change, when the request asked for more than the change.

Asked to change a file and then read it again or run a command on it ("... and show me the
file afterwards", "... then count the lines"), the small local model made the change and
answered: the read or the command never ran. When a tool that acts ran in the turn and the
model answers, it is asked once, apart and under a grammar (yes or no), in whatever language
the request came, whether the request asks for something the calls so far have not done. A
"yes" routes one more step among the turn's tools, the acting ones of the kinds already done
left out (the change is not made twice; a file may be read again); the route may still name
``answer``. Nothing reads the request's words, and no call is ever demanded.

For a small local model only (``serves = "local"``); a capable model finishes what it starts.
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from agentd.engine.asking import Asker
from agentd.engine.guards.base import ACCEPT, Retry, Serves, Verdict
from agentd.engine.turnstate import REQUEST_CHARS, Next, StepPlan, TurnState
from agentd.messages import Message, system, user

log = structlog.get_logger("agentd.engine.guards.unfinished")

YES, NO = "yes", "no"
UNFINISHED_SYSTEM = (
    "You check whether an assistant has done everything a user asked for. Answer only yes or no."
)
UNFINISHED_QUESTION = (
    'The user wrote: "{request}"\n\nIn order, the assistant has run these tools:\n{calls}\n\n'
    "Does the user's request ask for a step that comes after these calls and has not been "
    "done yet?"
)
#: Opens the note of the step after a "yes".
UNFINISHED_HEAD = "(Your tool calls so far did only part of my request.)"
#: Each call's arguments and result in the question, at most.
ARGUMENT_CHARS, RESULT_CHARS = 160, 120
#: The calls listed in the question, at most (the last ones).
LISTED = 6


@dataclass(slots=True)
class Unfinished:
    """The answer guard for answers after a change (see the module docstring)."""

    asker: Asker
    name: str = "unfinished"
    serves: Serves = "local"
    calls: bool = False

    def holds(self, state: TurnState, plan: StepPlan) -> bool:
        return (
            state.fresh
            and not state.client_led
            and self.name not in state.retried
            and state.acted()
        )

    async def judge(self, state: TurnState, plan: StepPlan, reply: Message) -> Verdict:
        if not self.holds(state, plan) or state.step + 1 >= state.max_steps:
            return ACCEPT
        if state.requests.left < 4:  # the question, the route, the step, the answer after it
            return ACCEPT
        rest = _rest(state)
        if not rest:
            return ACCEPT
        state.retried.add(self.name)
        question = UNFINISHED_QUESTION.format(
            request=state.request[:REQUEST_CHARS], calls=_calls(state)
        )
        asked = [system(UNFINISHED_SYSTEM), user(question)]
        word = await self.asker.ask(state, self.name, asked, (YES, NO), apart=True)
        if word is None:
            return ACCEPT
        state.fire(self.name, word)
        log.info("turn.unfinished", more=word == YES)
        if word != YES:
            return ACCEPT
        return Retry(Next(notes=[_note(state)], route=True, tools=rest))


def _done(state: TurnState) -> frozenset[str]:
    """The acting tools that ran without an error in this turn."""
    return frozenset(
        m.name or ""
        for m in state.added
        if m.role == "tool" and not m.metadata.get("error") and m.name in state.acting
    )


def _rest(state: TurnState) -> frozenset[str]:
    """The turn's tools but the acting ones of the kinds already done (a tool of no kind:
    itself); every tool that looks stays (a file read again after its change)."""
    done = _done(state)
    kinds = {state.kinds.get(n, "") for n in done} - {""}
    gone = {n for n in state.acting if n in done or state.kinds.get(n, "") in kinds}
    return state.names - gone


def _calls(state: TurnState) -> str:
    """The turn's calls so far, one a line, with the start of each result."""
    results = {m.tool_call_id: m for m in state.added if m.role == "tool"}
    lines = []
    for message in state.added:
        for call in message.tool_calls or ():
            result = results.get(call.id)
            said = " ".join(result.content.split())[:RESULT_CHARS] if result else ""
            lines.append(f"- {call.name}({call.arguments[:ARGUMENT_CHARS]}) -> {said}")
    return "\n".join(lines[-LISTED:])


def _note(state: TurnState) -> Message:
    return user(
        f'{UNFINISHED_HEAD} My request was: "{state.short_request}". Do the part that is not '
        "done yet with the tool it needs, or answer in words if nothing is left."
    )
