"""What the user said in the current turn (their request), carried in a contextvar.

A model saving a fact rewrites it: a small one translates it into English and shortens it
("Mi gato se llama Pelusa" saved as "The cat's name is Pelusa"), so a later question in the
user's own language, or in other words, misses it. The runtime sets the turn's request here
(:func:`use`) around the agent loop, and ``memory_save`` keeps those words beside the model's
content (:attr:`agentd.memory.longterm.Memory.words`). A heartbeat's or a scheduled task's
turn sets none: its request is the daemon's own prompt. Like the tenant scope
(:mod:`agentd.scope`), it is read from context, so a tool cannot be handed another turn's words.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager

#: Characters of the request kept: a fact is told in a sentence or two, and a long request
#: (a pasted file) would drown the fact in its memory's vector.
MAX_SAID_CHARS = 500

_current: contextvars.ContextVar[str] = contextvars.ContextVar("agentd_said", default="")


def get() -> str:
    """The current turn's request as kept with a memory ("" outside a turn)."""
    return _current.get()


def clipped(text: str, limit: int = MAX_SAID_CHARS) -> str:
    """``text`` with its runs of whitespace made one space, cut to ``limit`` characters."""
    return " ".join(text.split())[:limit].rstrip()


@contextmanager
def use(text: str) -> Iterator[str]:
    """Set the turn's request ``text`` (clipped) for the block and the tasks started in it."""
    token = _current.set(clipped(text))
    try:
        yield _current.get()
    finally:
        _current.reset(token)
