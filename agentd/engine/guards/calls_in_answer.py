"""Calls written in an answer: asked for once more in words, then cut out.

After its tools ran, a small model sometimes tells of calls in its answer, written out as
JSON ('I checked it with read_file: {"name": "read_file", "arguments": ...}'), calls it never
made or had made already. Such an answer is asked for once more in words; written again, the
calls are cut out of it (fenced blocks that hold one, and bare objects), and an answer of
nothing else is made from the tool results. Structural (JSON with a known tool's name), so it
serves every model.

A step held to a call (the plan's next tool, the caller's ``tool_choice``) whose reply came
back as words that write a call is the same case before any tool ran: the call was broken.
Asked "how tall is Tokyo Tower?" and held to ``web_fetch``, the small local model wrote a URL
that repeated one escaped character until the answer's token cap (69-443 s), the server gave
the unfinished JSON back as text, and the turn answered with it. Before any tool ran and on a
step free to answer, a call in the answer may be the example the user asked for: it stays.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import structlog

from agentd.engine.guards.base import ACCEPT, Replace, Retry, Serves, Verdict
from agentd.engine.guards.empty import answer_from_results
from agentd.engine.notes import answer_now
from agentd.engine.turnstate import Next, StepPlan, TurnState
from agentd.messages import Message, assistant
from agentd.model.textcalls import offered_name

log = structlog.get_logger("agentd.engine.guards.calls_in_answer")

# Keys as models write them, stray blanks included ({"name ": ...}); a dotted name stands for
# the offered one with underscores (see agentd.model.textcalls).
_CALL_NAME = re.compile(r'\{\s*"\s*name\s*"\s*:\s*"([^"]+)"\s*,\s*"\s*(?:arguments|parameters)\s*"')
# A fence left open at the end (the answer cut off at its token cap) runs to the end.
_FENCE = re.compile(r"```[a-z]*\n.*?(?:```|\Z)", re.DOTALL)


def writes_calls(text: str, names: frozenset[str]) -> bool:
    """Whether ``text`` writes out a call of one of the tools ``names`` (a JSON object with
    its ``name`` and ``arguments``) somewhere in its prose."""
    return any(_known(m.group(1), names) for m in _CALL_NAME.finditer(text))


def _known(name: str, names: frozenset[str]) -> bool:
    return offered_name(name, names) in names


def without_calls(text: str, names: frozenset[str]) -> str:
    """``text`` without the calls of tools ``names`` written in it: fenced blocks that hold
    one, and bare JSON objects (with the extra braces of ``{{...}}}}``)."""
    text = _FENCE.sub(lambda m: "" if writes_calls(m.group(0), names) else m.group(0), text)
    decoder = json.JSONDecoder()
    while match := next((m for m in _CALL_NAME.finditer(text) if _known(m.group(1), names)), None):
        start = match.start()
        try:
            _, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            end = len(text)  # cut off mid-call: the rest is the call
        while start > 0 and text[start - 1] == "{":
            start -= 1
        while end < len(text) and text[end] == "}":
            end += 1
        text = text[:start] + text[end:]
    return re.sub(r"\n{3,}", "\n\n", text).strip()


@dataclass(slots=True)
class CallsInAnswer:
    """The answer guard for calls written out in an answer after tools ran."""

    name: str = "calls_in_answer"
    serves: Serves = "any"
    calls: bool = False

    def holds(self, state: TurnState, plan: StepPlan) -> bool:
        return (bool(state.added) or plan.rule.must_call) and not state.client_led

    async def judge(self, state: TurnState, plan: StepPlan, reply: Message) -> Verdict:
        if not self.holds(state, plan) or not writes_calls(reply.content, state.names):
            return ACCEPT
        if self.name not in state.retried and state.requests.spare():
            log.warning("turn.calls_in_answer", step=state.step)
            state.retried.add(self.name)
            return Retry(Next(notes=[answer_now(state)], bare=True))
        log.warning("turn.calls_cut_from_answer", step=state.step)
        kept = without_calls(reply.content, state.names)
        return Replace(assistant(kept or answer_from_results(state.added)))
