"""One chat message's turn: the model's answer, or what the sender is told instead.

The chat shows the bot typing while the turn runs. A tenant over its quota is told which limit
and when to try again; any other failure is logged as ``<channel>.turn_failed`` and answered
with what failed (:func:`~channels.chat.replies.failed`), so a sender never waits on silence.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

import anyio
import structlog

from agentd import scope as scopes
from agentd.engine.loop import TurnResult
from agentd.errors import AgentdError, QuotaExceeded
from channels.base import InboundMessage
from channels.chat.replies import failed

if TYPE_CHECKING:
    from agentd.engine.runtime import Runtime

#: Seconds the typing notice is given to stop after the turn.
TYPING_OFF_TIMEOUT = 5


async def run_turn(
    runtime: Runtime,
    inbound: InboundMessage,
    session: str,
    scope: scopes.Scope,
    *,
    audience: str,
    typing: Callable[[], Coroutine[Any, Any, None]],
    typing_off: Callable[[], Awaitable[None]] | None = None,
) -> str:
    """The answer to ``inbound`` in ``session``: the model's, or why there is none.

    ``typing`` shows the bot typing until it is cancelled (when the turn ends); ``typing_off``,
    when the channel has one, withdraws the notice after an answered turn.
    """
    log = structlog.get_logger(f"channels.{inbound.channel}")
    result: TurnResult | None = None
    async with anyio.create_task_group() as tg:
        tg.start_soon(typing)
        try:
            async with runtime.turn(
                session,
                inbound.text,
                channel=inbound.channel,
                scope=scope,
                stream=False,
                audience=audience,
                # A message answered again after a crash is stored and answered once.
                request_key=inbound.request_key,
            ) as events:
                result = await events.result()
        except QuotaExceeded as exc:
            return failed(exc)
        except AgentdError as exc:
            log.warning(
                f"{inbound.channel}.turn_failed", error=str(exc), exc_type=type(exc).__name__
            )
            return failed(exc)
        except Exception as exc:
            log.exception(f"{inbound.channel}.turn_failed")
            return failed(exc)
        finally:
            tg.cancel_scope.cancel()
    if typing_off is not None:
        with anyio.move_on_after(TYPING_OFF_TIMEOUT, shield=True):
            await typing_off()
    content = result.message.content if result is not None else ""
    return content if content.strip() else "(no answer)"
