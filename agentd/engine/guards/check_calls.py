"""Check calls: before a turn's first unrouted calls run, the model says whether they are
needed.

A small model calls a tool for "What's 2+2?". Asked apart, under a grammar, yes or no, with
the request and the calls in a short prompt of their own, it drops most of those; a "no" has
the step asked again in words (no call is ever demanded). Routed steps are not checked (the
model named their tool already), nor steps held to a call by the caller or another rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from agentd.engine.asking import Asker
from agentd.engine.guards.base import ACCEPT, Retry, Serves, Verdict
from agentd.engine.turnstate import REQUEST_CHARS, Next, StepPlan, TurnState
from agentd.messages import Message, system, user

log = structlog.get_logger("agentd.engine.guards.check_calls")

CHECK_SYSTEM = "You check whether a tool call is needed. Answer only yes or no."
CHECK_QUESTION = (
    'The user wrote: "{request}"\n\nThe assistant wants to call:\n{calls}\n\n'
    "Is this call needed to answer the user (would an answer without it be worse or wrong)?"
)


@dataclass(slots=True)
class CheckCalls:
    """The answer guard that asks whether a first step's calls are needed."""

    asker: Asker
    name: str = "check_calls"
    serves: Serves = "local"
    calls: bool = True

    def holds(self, state: TurnState, plan: StepPlan) -> bool:
        return (
            state.step == 1
            and plan.route is None
            and bool(plan.tools)
            and not plan.rule.must_call
            and not state.client_led
        )

    async def judge(self, state: TurnState, plan: StepPlan, reply: Message) -> Verdict:
        if not reply.tool_calls or not self.holds(state, plan):
            return ACCEPT
        about = {
            str(s["function"]["name"]): str(s["function"].get("description") or "")
            for s in plan.tools or ()
        }
        calls = "\n".join(
            f"- {c.name}({c.arguments[:200]}): {about.get(c.name, '')[:200]}"
            for c in reply.tool_calls
        )
        question = CHECK_QUESTION.format(request=state.request[:REQUEST_CHARS], calls=calls)
        word = await self.asker.ask(
            state, "check", [system(CHECK_SYSTEM), user(question)], ("yes", "no")
        )
        log.info("turn.check_calls", needed=word != "no", tools=[c.name for c in reply.tool_calls])
        if word != "no":
            return ACCEPT
        return Retry(Next(bare=True))
