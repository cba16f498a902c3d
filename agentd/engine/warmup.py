"""Warm start: the model server evaluates the system prompt and the tool schemas once, early.

On 2 cores the ~1,500 tokens of the system prompt and the tool schemas take the model longer
to read than most answers take to write, and llama-server keeps what it read in its prompt
cache. So after the daemon is ready, and again after SIGHUP changed the prompt, one request
that begins exactly as every turn does (:meth:`Runtime.first_request`: the same system
message, the same tools, the same template) and asks for one token puts that prefix in the
cache; the first user turn then reads only its own words.

It never stands in a turn's way: it runs in the daemon's task group after ``READY=1``, and a
turn that starts before it is done cancels it (the turn reads the prefix itself; a request
running beside it on another server slot would only halve its speed). ``state`` is what
``/readyz`` shows as ``checks.warm``: ``off``, ``pending``, ``warming``, ``done``,
``skipped`` (a turn came first) or ``failed`` (logged; turns are cold, nothing else changes).

Before that, ``restore`` loads the prompt caches a previous run saved (the sidecar's slots,
:mod:`agentd.model.slots`). They begin with the system prompt and the tools, as every turn's
prompt does, so when it restored any the warm-up request is not sent (``done``): on the
server's slot of the best match it would replace a restored session's cache. With the
sessions pinned to slots (:mod:`agentd.model.pinning`), the request goes to the slot the next
new session will take (:func:`pinned_warm`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

import anyio
import structlog

from agentd.messages import Message, user
from agentd.model import pinning
from agentd.model.pinning import SlotPins
from agentd.model.usage import Usage

log = structlog.get_logger("agentd.engine.warmup")

WarmState = Literal["off", "pending", "warming", "done", "skipped", "failed"]
#: How every turn begins: its messages before the user's and the tools it offers.
FirstRequest = Callable[[], Awaitable[tuple[list[Message], list[dict[str, Any]] | None]]]
#: Evaluates a prompt and generates (almost) nothing: ``LLMClient.warm``.
Warm = Callable[[Sequence[Message], Sequence[dict[str, Any]] | None], Awaitable[Usage]]
#: Loads saved prompt caches into the model server; the tokens it restored.
Restore = Callable[[], Awaitable[int]]
#: The user's part of the warm-up request. The template renders everything before it as a
#: turn's request does; only what follows the prefix differs.
PLACEHOLDER = "Hello."


class Warmup:
    """Warms the model server's prompt cache once per prompt (see the module docstring)."""

    def __init__(
        self,
        first_request: FirstRequest,
        warm: Warm,
        *,
        enabled: bool,
        restore: Restore | None = None,
    ) -> None:
        self._first_request = first_request
        self._warm = warm
        self._restore = restore
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
        with anyio.CancelScope() as request:
            self._request = request
            try:
                messages, tools = await self._first_request()
                usage = await self._warm([*messages, user(PLACEHOLDER)], tools)
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


def pinned_warm(warm: Warm, pins: SlotPins | None) -> Warm:
    """``warm`` sent to the slot the next new session takes (unchanged without pins)."""
    if pins is None:
        return warm

    async def pinned(messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None) -> Usage:
        with pinning.use(pins.next_free()):
            return await warm(messages, tools)

    return pinned


__all__ = ["PLACEHOLDER", "WarmState", "Warmup", "pinned_warm"]
