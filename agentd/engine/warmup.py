"""Warm start: the model server evaluates, once and early, every prompt prefix a turn begins with.

On 2 cores the ~1,500 tokens of the system prompt and the tool schemas take the model longer
to read than most answers take to write, and llama-server keeps what it read in its prompt
cache. So after the daemon is ready, and again after SIGHUP changed the prompt, the warm-up
sends each request a first turn makes before its own words, asking for one token
(:meth:`Runtime.first_requests`): the step's (the same system message, tools and template as
every turn's) and, with a small local model, the intent question's (its rules, tools and worked
examples, the same for every request: :mod:`agentd.engine.guards.intent`, asked by the plan
question of :mod:`agentd.engine.guards.plan`). The first user turn then reads only its own
words in each of them.

Measured before the intent question was warmed too (first turn after READY, "What is 17 times
23?"): the warm-up read the system prompt and tools (1,546 tokens, 30 s), then the turn's
intent question, on the same slot, read its 764 tokens cold (12 s) and replaced that cache, so
the step after it read its prompt again: 15.8 s for a 3-token answer. With the sessions pinned
the intent question goes to a slot of its own (:func:`agentd.model.pinning.shared_question`),
where the warm-up put its prefix.

It never stands in a turn's way: it runs in the daemon's task group after ``READY=1``, and a
turn that starts before it is done cancels it (the turn reads the prefix itself; a request
running beside it on another server slot would only halve its speed). ``state`` is what
``/readyz`` shows as ``checks.warm``: ``off``, ``pending``, ``warming``, ``done`` (every
prefix warmed), ``skipped`` (a turn came first) or ``failed`` (logged; turns are cold,
nothing else changes).

Before that, ``restore`` loads the prompt caches a previous run saved (the sidecar's slots,
:mod:`agentd.model.slots`, the questions' slot among them). They begin as the turns' prompts
do, so when it restored any the warm-up requests are not sent (``done``): on the server's slot
of the best match they would replace a restored session's cache. With the sessions pinned to
slots (:mod:`agentd.model.pinning`), the step's prefix goes to the slot the next new session
will take, the plan question's to the questions' slot, and the intent question that confirms
a planned command to the quick slot; then that session slot's cache is copied into the other
empty session slots (``spread``: saved and restored, :meth:`agentd.model.slots.SlotFiles.copy`),
so the second new session finds the prefix too (it read it cold: 1,570 tokens, 22 s, in the
agentic suite's second case).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import anyio
import structlog

from agentd.messages import Message, user
from agentd.model import pinning
from agentd.model.pinning import SlotPins
from agentd.model.usage import Usage

log = structlog.get_logger("agentd.engine.warmup")

WarmState = Literal["off", "pending", "warming", "done", "skipped", "failed"]


@dataclass(frozen=True, slots=True)
class Prefix:
    """A request a first turn makes, with :data:`PLACEHOLDER` for the user's words: the
    template renders everything before them as the turn's request does."""

    messages: list[Message]
    tools: list[dict[str, Any]] | None = None
    #: Asked alike by every session (the intent question): on the questions' slot, when
    #: pinned; else on the session's.
    shared: bool = False
    #: Asked beside another shared question (the intent question that confirms a planned
    #: command): on the quick slot, when pinned.
    apart: bool = False


#: The requests every first turn makes (:meth:`Runtime.first_requests`).
FirstRequests = Callable[[], Awaitable[list[Prefix]]]
#: Evaluates a prompt and generates (almost) nothing: ``LLMClient.warm``.
Warm = Callable[[Sequence[Message], Sequence[dict[str, Any]] | None], Awaitable[Usage]]
#: Loads saved prompt caches into the model server; the tokens it restored.
Restore = Callable[[], Awaitable[int]]
#: Copies one server slot's prompt cache into others; the tokens restored.
Spread = Callable[[int, Sequence[int]], Awaitable[int]]
#: The user's part of a warm-up request. The template renders everything before it as a
#: turn's request does; only what follows the prefix differs.
PLACEHOLDER = "Hello."


def step_prefix(messages: list[Message], tools: list[dict[str, Any]] | None) -> Prefix:
    """The step's request: the turn's messages before the user's, then :data:`PLACEHOLDER`."""
    return Prefix([*messages, user(PLACEHOLDER)], tools)


class Warmup:
    """Warms the model server's prompt cache once per prompt (see the module docstring)."""

    def __init__(
        self,
        first_requests: FirstRequests,
        warm: Warm,
        *,
        enabled: bool,
        restore: Restore | None = None,
        pins: SlotPins | None = None,
        spread: Spread | None = None,
    ) -> None:
        self._first_requests = first_requests
        self._warm = warm
        self._restore = restore
        self._spread = spread
        self._pins = pins
        self.state: WarmState = "pending" if enabled else "off"
        self._wanted = anyio.Event()
        self._generation = 0
        self._request: anyio.CancelScope | None = None
        if enabled:
            self._wanted.set()

    def trigger(self) -> None:
        """The prompt changed (SIGHUP): warm the new one."""
        if self.state == "off":
            return
        self._generation += 1
        self.state = "pending"
        if self._request is not None:
            self._request.cancel()  # it warms the old prompt
        self._wanted.set()

    def turn_started(self) -> None:
        """A turn goes first: it reads the prefix itself, so the warm-up stops."""
        if self.state not in ("pending", "warming"):
            return
        self.state = "skipped"
        if self._request is not None:
            self._request.cancel()
        log.info("warm.skipped", reason="a turn started first")

    async def serve(self) -> None:
        """Restore saved caches, then warm whenever asked to (at start, and after each
        :meth:`trigger`) until cancelled."""
        if await self._restored() and self.state == "pending":
            self.state = "done"
            log.info("warm.done", restored=True)
        if self.state == "off":
            return
        while True:
            await self._wanted.wait()
            self._wanted = anyio.Event()
            if self.state == "pending":
                await self._once()

    async def _restored(self) -> bool:
        """Whether ``restore`` loaded any saved cache (a failure is logged: none was)."""
        if self._restore is None:
            return False
        try:
            return await self._restore() > 0
        except Exception as exc:
            log.warning("warm.restore_failed", error=str(exc), exc_type=type(exc).__name__)
            return False

    async def _once(self) -> None:
        generation = self._generation
        self.state = "warming"
        started = anyio.current_time()
        usage = Usage()
        with anyio.CancelScope() as request:
            self._request = request
            try:
                step_slot = None
                for prefix in await self._first_requests():
                    slot = self._slot(prefix)
                    with pinning.use(slot):
                        usage.add(await self._warm(prefix.messages, prefix.tools))
                    if not (prefix.shared or prefix.apart):
                        step_slot = slot
                await self._spread_from(step_slot)
            except Exception as exc:
                if generation == self._generation and self.state == "warming":
                    self.state = "failed"
                log.warning("warm.failed", error=str(exc), exc_type=type(exc).__name__)
                return
            finally:
                self._request = None
        if request.cancelled_caught or generation != self._generation:
            return  # a turn came first, or the prompt changed meanwhile: warmed again next
        self.state = "done"
        log.info(
            "warm.done",
            seconds=round(anyio.current_time() - started, 3),
            prompt_tokens=usage.prompt_tokens,
            evaluated=usage.evaluated_tokens,
        )

    async def _spread_from(self, slot: int | None) -> None:
        """Copy the warmed step prefix from session ``slot`` into the other empty ones."""
        if self._spread is None or self._pins is None or slot is None:
            return
        others = [s for s in self._pins.empty() if s != slot]
        if others:
            await self._spread(slot, others)

    def _slot(self, prefix: Prefix) -> int | None:
        """Where a turn will send this request: the questions' slot for a shared question,
        the quick slot for one apart, the slot the next new session takes for the step
        (None: unpinned)."""
        if self._pins is None:
            return None
        if prefix.apart:
            return self._pins.quick
        return self._pins.questions if prefix.shared else self._pins.next_free()


__all__ = ["PLACEHOLDER", "FirstRequests", "Prefix", "WarmState", "Warmup", "step_prefix"]
