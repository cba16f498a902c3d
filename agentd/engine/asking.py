"""Short questions a guard puts to the model, answered with one of a few words.

Under a grammar (a local llama-server) the model can only write one of the options, in
whatever language the request came: this is how the turn's decisions about the request's
meaning are made, never by word lists. Every question is a model request of the turn: it is
counted against ``default.max_model_requests`` (only a spare one is spent) and its tokens
against the tenant's usage.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import structlog

from agentd.engine.turnstate import TurnState
from agentd.errors import LLMError
from agentd.messages import Message
from agentd.model import pinning
from agentd.model.usage import Usage

log = structlog.get_logger("agentd.engine.asking")

#: Told of each model request a turn makes, by kind (``step``, ``route``, ``intent``...).
OnRequest = Callable[[str], None]


class Asker:
    """Puts questions to the model's ``choose`` within the turn's request budget."""

    def __init__(self, model: object, on_request: OnRequest | None = None) -> None:
        self._choose = getattr(model, "choose", None)
        self._on_request = on_request

    @property
    def can_ask(self) -> bool:
        """Whether the model answers such questions at all."""
        return self._choose is not None

    def spend(self, state: TurnState, kind: str) -> None:
        """Count one model request of ``kind`` (steps count themselves through this too)."""
        state.requests.spend(kind)
        if self._on_request is not None:
            self._on_request(kind)

    async def ask(
        self,
        state: TurnState,
        kind: str,
        messages: Sequence[Message],
        options: Sequence[str],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        shared: bool = False,
        apart: bool = False,
        most: int = 1,
    ) -> str | None:
        """One of ``options``, or None: the model could not say, the question failed, or no
        spare request is left (a guard then does nothing). A ``shared`` question's prompt is
        the same for every session up to the request: it goes to the model server's slot kept
        for such questions (:func:`agentd.model.pinning.shared_question`); a question ``apart``
        shares its prompt with nothing: it goes to the slot for those
        (:func:`agentd.model.pinning.question_apart`). With ``most`` above 1 the answer is a
        list of up to that many options joined by ", " (see the model's ``choose``)."""
        if self._choose is None or not state.requests.spare():
            return None
        self.spend(state, kind)
        usage = Usage()
        try:
            extra: dict[str, Any] = {"usage": usage}
            if tools:
                extra["tools"] = tools
            if most > 1:
                extra["most"] = most
            with _where(shared=shared, apart=apart):
                answer = await self._choose(messages, options, **extra)
        except LLMError as exc:
            log.warning("turn.question_failed", kind=kind, error=str(exc))
            return None
        finally:
            state.usage.add(usage)
        return answer if isinstance(answer, str) else None


def _where(*, shared: bool, apart: bool) -> AbstractContextManager[None]:
    """The slot a question goes to (see :meth:`Asker.ask`)."""
    if shared:
        return pinning.shared_question()
    return pinning.question_apart() if apart else nullcontext()
