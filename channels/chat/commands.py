"""What the chat commands do once a channel has recognised one.

Each channel parses its own syntax (``/reset@bot`` on Telegram, ``!reset`` on Matrix) into a
bare word; the words mean the same everywhere: ``help``, ``reset`` (or ``new``) starts a new
session for the sender's conversation (the chat's, or in a group the sender's own), ``status``
answers without the model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import structlog

from agentd import scope as scopes
from channels.base import InboundMessage

if TYPE_CHECKING:
    from agentd.engine.runtime import Runtime

RESET = "Started a new conversation."


class Generations(Protocol):
    """Where a chat's session generation is kept (the channel's ledger)."""

    async def reset(self, chat_id: str, member: str | None = None) -> None: ...


async def answer_command(
    word: str,
    runtime: Runtime,
    inbound: InboundMessage,
    session: str,
    *,
    ledger: Generations,
    help_text: str,
    member: str | None = None,
) -> str | None:
    """The answer to the command ``word``, or None when it is no command (the model answers).

    ``member`` is the sender's tenant in a group (None in a private chat): whose conversation
    ``reset`` starts over.
    """
    if word == "help":
        return help_text
    if word in ("reset", "new"):
        await runtime.close_session(session)
        await ledger.reset(inbound.chat_id, member)
        log = structlog.get_logger(f"channels.{inbound.channel}")
        log.info(f"{inbound.channel}.reset", old_session=session)
        return RESET
    if word == "status":
        return status_text(runtime, session)
    return None


def status_text(runtime: Runtime, session: str) -> str:
    """The answer to ``status``: the session, its tenant and how full its context is."""
    status = runtime.status(session)
    return (
        f"agentd is running.\nSession: {session}\n"
        f"Tenant: {scopes.current().tenant}\n"
        f"Messages in this session: {status.messages}\n"
        f"Context last turn: {status.context_line}\n"
        f"Turns in progress: {status.in_flight}"
    )
