"""Answered earlier: an answer to an earlier question of the session, not the turn's own.

After its tools ran, a small model sometimes answers an earlier question again ("The capital
of France is Paris." to "And what weekday is it now in New York?", right after
``current_time`` returned Wednesday). Such an answer shares words with the session's earlier
messages that the turn (its request, its calls, their results) does not hold, and no word of
its own turn that the earlier messages lack. Words are compared as written, in any script (no
word list: a word the earlier messages and the turn share tells nothing either way; runs of
Chinese or Japanese characters count by pairs). Found, the answer is asked for once more in
words with the turn alone in view (the earlier turns left out of that one call).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import structlog

from agentd.engine.guards.base import ACCEPT, Retry, Serves, Verdict
from agentd.engine.notes import reminder
from agentd.engine.turnstate import Next, StepPlan, TurnState
from agentd.messages import Message

log = structlog.get_logger("agentd.engine.guards.answered_earlier")

#: A run of letters and digits, in any script.
WORD = re.compile(r"\w+")
#: Scripts written without spaces: Han, Hiragana, Katakana, Hangul.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")


def tokens(text: str) -> frozenset[str]:
    """The words of ``text``, lower-cased; runs of CJK characters as character pairs."""
    out: set[str] = set()
    for word in WORD.findall(text.casefold()):
        runs = _CJK.findall(word)
        if runs:
            for run in runs:
                out.update(run[i : i + 2] for i in range(max(1, len(run) - 1)))
            word = _CJK.sub(" ", word)
            out.update(w for w in word.split() if w)
        else:
            out.add(word)
    return frozenset(out)


def _said(messages: Iterable[Message]) -> frozenset[str]:
    parts: list[str] = []
    for m in messages:
        parts.append(m.content)
        parts.extend(f"{c.name} {c.arguments}" for c in m.tool_calls)
    return tokens("\n".join(parts))


def answers_earlier(answer: str, earlier: Sequence[Message], turn: Sequence[Message]) -> bool:
    """Whether ``answer`` shares words with ``earlier`` (system messages aside) that ``turn``
    lacks, and none of the words only ``turn`` holds."""
    said = tokens(answer)
    if not said:
        return False
    before = _said(m for m in earlier if m.role != "system")
    now = _said(turn)
    return bool((said & before) - now) and not said & (now - before)


@dataclass(slots=True)
class AnsweredEarlier:
    """The answer guard for answers that go back to an earlier question."""

    name: str = "answered_earlier"
    serves: Serves = "local"
    calls: bool = False

    def holds(self, state: TurnState, plan: StepPlan) -> bool:
        return (
            state.turn_start() is not None
            and not state.client_led
            and self.name not in state.retried
        )

    async def judge(self, state: TurnState, plan: StepPlan, reply: Message) -> Verdict:
        at = state.turn_start()
        if at is None or not self.holds(state, plan) or not state.requests.spare():
            return ACCEPT
        messages = state.conversation.messages
        shown = [state.recalled[1]] if state.recalled is not None else []
        if not answers_earlier(reply.content, messages[:at], [*messages[at:], *shown]):
            return ACCEPT
        log.warning("turn.answered_earlier", step=state.step)
        state.retried.add(self.name)
        return Retry(Next(notes=[reminder(state, bare=True)], bare=True, alone=messages[at]))
