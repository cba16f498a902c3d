"""Check calls: before a turn's first calls run, the model says whether they are needed.

A small model calls a tool for "What's 2+2?". Asked apart, under a grammar, yes or no, with
the request and the calls in a short prompt of their own, it drops most of those; a "no" has
the step asked again in words (no call is ever demanded). Checked: a first step that was not
routed, and a routed one in a turn the model found to ask for words only (:mod:`.intent`):
routed, it still picked ``current_time`` for "I'm cooking dinner tonight" and ``web_fetch``
for the capital of France. Not checked: a routed step of an action (the model named its tool
already), a step held to the plan's next tool (:mod:`.plan`: named too), a call the caller
demanded, a read held by ``read_first``.
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from agentd.engine.asking import Asker
from agentd.engine.guards.base import ACCEPT, Retry, Serves, Verdict
from agentd.engine.guards.read_first import READ_FIRST
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
        if state.step != 1 or not plan.tools or state.client_led or state.rule.must_call:
            return False
        if plan.route is None:
            return not plan.rule.must_call
        held = plan.route in (READ_FIRST, state.next_planned())  # the model planned it
        return state.may_act is False and not held

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
        # A prompt of its own, asked apart: on the session's slot it would replace the
        # session's cached prompt, and the next step would read the conversation again.
        asked = [system(CHECK_SYSTEM), user(question)]
        word = await self.asker.ask(state, "check", asked, ("yes", "no"), apart=True)
        log.info("turn.check_calls", needed=word != "no", tools=[c.name for c in reply.tool_calls])
        if word != "no":
            return ACCEPT
        return Retry(Next(bare=True))
