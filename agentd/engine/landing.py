"""A session made ready for its summary before the summary lands.

A summary goes in front of the messages it kept, and llama-server's cache reuse follows what was
dropped, never what was inserted: once a summary is applied, the session's whole prompt has to
be read again (in the 50-turn long session ~2,700 tokens, ~40 s on 2 cores). Read on the
session's slot after the summary landed, the next turn found it half read and read the rest
itself (40.5 s); read there before, it would replace the prompt the turns before the summary
still use.

So :class:`SummaryLanding` has the server read the session's next prompt (the conversation as it
will be with the summary, fitted as the budget sends it, then the user's words) on the slot the
summary was written on, in pieces out of the turns' way (:mod:`agentd.engine.readahead`), while
the session's turns go on with their own prompt on theirs. When the summary is applied (under
the session's lock) that slot's cache is copied into the session's slot (llama-server's slot
save and restore, :meth:`agentd.model.slots.SlotFiles.copy`: ~0.05 s each for 3,000 tokens):
the next turn reads only what came after the read. Without saved slots (``llm.sidecar.
keep_slots`` off) the prompt is read on the session's slot once the summary landed, as
before. Either way the plan question's prompt is then read again on the questions' slot, where
the summary replaced it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import structlog

from agentd.engine import readahead
from agentd.engine.readahead import GoOn, Warm
from agentd.messages import Conversation, Message
from agentd.model import pinning
from agentd.model.pinning import SessionKey, SlotPins

log = structlog.get_logger("agentd.engine.landing")

#: The prompt a session's next turn begins with, for its conversation: the messages (the
#: user's words a placeholder) and the tools offered.
NextPrompt = Callable[[Conversation], tuple[list[Message], list[dict[str, Any]] | None]]
#: The plan question's prompt (None when the question is not asked).
PlanPrompt = Callable[[], Awaitable[list[Message] | None]]
#: Copies one server slot's prompt cache into others; the tokens restored.
Copy = Callable[[int, Sequence[int]], Awaitable[int]]


@dataclass(slots=True)
class SummaryLanding:
    """One summary's landing in its session (see the module docstring)."""

    key: SessionKey
    warm: Warm
    #: Waits until no turn is in flight (the runtime's ``quiet``).
    quiet: GoOn
    pins: SlotPins
    next_prompt: NextPrompt
    plan_prompt: PlanPrompt
    #: Copies a slot's cache into another, when the server's slots can be saved.
    copy: Copy | None = None
    #: The slot holding the session's next prompt, read whole (set by :meth:`read`).
    ready: int | None = None
    landed: bool = False

    async def read(self, conversation: Conversation) -> None:
        """Have the server read the next prompt of ``conversation`` (the session as it will be
        with the summary) on the current slot, the summary's. Only with a way to copy it."""
        if self.copy is None:
            return
        prompt, tools = self.next_prompt(conversation)
        read = await readahead.read_ahead(self.warm, prompt, tools, self.quiet)
        if read.done:
            await self.warm(prompt, tools)
            self.ready = pinning.current()
        log.info("compaction.read_ahead", pieces=read.pieces, done=read.done)

    async def land(self) -> None:
        """Under the session's lock, the summary applied: copy the prompt read into the
        session's slot (a failed copy leaves it to :meth:`after`)."""
        slot = self.pins.slot_of(self.key)
        if self.copy is None or self.ready is None or slot is None:
            return
        self.landed = await self.copy(self.ready, [slot]) > 0

    async def after(self, conversation: Conversation) -> None:
        """Outside the lock, once the summary landed: read the next prompt on the session's
        slot if it was not copied there, then the plan question's prompt on its slot."""
        slot = self.pins.slot_of(self.key)
        length = len(conversation.messages)

        async def go_on() -> bool:
            # A turn of the session that started meanwhile has read its prompt itself.
            await self.quiet()
            return len(conversation.messages) == length

        done = True
        if not self.landed and slot is not None:
            prompt, tools = self.next_prompt(conversation)
            with pinning.use(slot):
                read = await readahead.read_ahead(self.warm, prompt, tools, go_on)
                if read.done:
                    await self.warm(prompt, tools)
            done = read.done
        question = await self.plan_prompt()
        if done and question is not None:
            with pinning.use(self.pins.questions):
                if (await readahead.read_ahead(self.warm, question, None, go_on)).done:
                    await self.warm(question, None)
        log.info("compaction.warmed", slot=slot, copied=self.landed, done=done)
