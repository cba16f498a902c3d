"""What the history stores do with rows, on either engine: one place, so a fix lands once.

:class:`~agentd.memory.history.SQLiteHistory` and :class:`~agentd.memory.pg_history.PgHistory`
differ in their SQL and transactions only. Everything before a write and after a read is here:
the rows a group of messages becomes, strict decoding (one malformed row fails the whole read
with an error that names the row, never its content), what a resume or a request lookup returns,
the tail check of a summary, working memory's JSON.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agentd import scope as scopes
from agentd.errors import HistoryError, StoredRowError
from agentd.messages import Message, assistant, decode_stored_message

#: A message row as read: its id and its stored body.
Row = tuple[int, Any]


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """A stored session of the current scope: its message count and last write time."""

    session_id: str
    messages: int
    last_active: float


@dataclass(frozen=True, slots=True)
class StoredRequest:
    """A user message stored with a request key, and how far its turn got.

    ``answer`` is the turn's final assistant message (None while it has none: the turn failed,
    was cut off or still runs); ``latest`` says no later user message follows it.
    """

    message: Message
    answer: Message | None
    latest: bool


def session_key(session_id: str) -> tuple[str, str, str]:
    """The current scope's (tenant, app) and ``session_id``: the filter of every session row."""
    scope = scopes.current()
    return (scope.tenant, scope.app, session_id)


def decode_row(raw: Any, what: str) -> Message:
    """A stored message of ``raw``; StoredRowError naming ``what`` (never the content)."""
    if not isinstance(raw, str | bytes):
        raise StoredRowError(f"{what} is malformed: not text")
    try:
        return decode_stored_message(raw)
    except StoredRowError:
        pass
    # Raised outside the except block: no __context__ chain leads back to the parser's error.
    raise StoredRowError(
        f"{what} is malformed; the read was refused as a whole. Inspect or delete that row "
        "(or clear the session) to continue"
    )


def decode_messages(session_id: str | None, rows: Sequence[Row]) -> list[Message]:
    """The session's message ``rows`` (oldest first), decoded strictly."""
    return [decode_row(body, f"session {session_id!r}: stored row {rid}") for rid, body in rows]


def message_rows(
    session_id: str, messages: Sequence[Message], request_key: str | None
) -> list[tuple[Any, ...]]:
    """The ``messages`` table rows of a save, in the current scope: (tenant, agent_id,
    session_id, body, created, request_key). The request key goes with the first message (the
    user's), the others carry none."""
    scope = scopes.current()
    keys = [request_key, *[None] * (len(messages) - 1)]
    return [
        (scope.tenant, scope.app, session_id, m.to_stored(), m.timestamp, key)
        for m, key in zip(messages, keys, strict=True)
    ]


def stored_request(session_id: str, rows: Sequence[Row]) -> StoredRequest | None:
    """The request whose message is ``rows[0]`` (then the session's later rows), or None."""
    if not rows:
        return None
    what = f"session {session_id!r}: stored row"
    message = decode_row(rows[0][1], f"{what} {rows[0][0]}")
    # The turn's messages run up to the next user message: they end with its answer when
    # the turn finished (an assistant message that calls no tool).
    turn: list[Message] = []
    latest = True
    for rid, body in rows[1:]:
        stored = decode_row(body, f"{what} {rid}")
        if stored.role == "user":
            latest = False
            break
        turn.append(stored)
    done = bool(turn) and turn[-1].role == "assistant" and not turn[-1].tool_calls
    return StoredRequest(message, turn[-1] if done else None, latest)


def summary_body(summary: str | Message) -> str:
    """The stored body of a summary (a text becomes an assistant message marked ``summary``)."""
    if isinstance(summary, str):
        summary = assistant(summary)
        summary.metadata["summary"] = True
    return summary.to_stored()


def tail_start(session_id: str | None, rows: Sequence[Row], tail: Sequence[Message]) -> int:
    """The id of the first of ``rows`` (the session's newest ``len(tail)`` message rows), after
    checking they are ``tail``; HistoryError when they are not."""
    stored = [m.to_openai() for m in decode_messages(session_id, rows)]
    if stored != [m.to_openai() for m in tail]:
        raise HistoryError(
            f"session {session_id!r}: the messages kept after the summary are not "
            "the newest stored ones; the summary was not saved"
        )
    return int(rows[0][0])


def resumed(session_id: str, boundary: Sequence[Any] | None, rows: Sequence[Row]) -> list[Message]:
    """What a session resumes from: the newest ``boundary`` row (id, body, tail_from, kind)
    when it is a summary, then the message ``rows`` after it."""
    out = []
    if boundary is not None and boundary[3] == "summary":
        out.append(decode_row(boundary[1], f"session {session_id!r}: summary row {boundary[0]}"))
    out.extend(decode_messages(session_id, rows))
    return out


def resume_from(boundary: Sequence[Any] | None) -> int:
    """The first message id a resume reads: the newest boundary's ``tail_from``, else 0."""
    return int(boundary[2]) if boundary is not None else 0


def summary_texts(rows: Sequence[Row]) -> list[str]:
    """The texts of summary rows (id, body), decoded strictly."""
    return [decode_row(body, f"summary row {rid}").content for rid, body in rows]


def session_infos(rows: Sequence[Sequence[Any]]) -> list[SessionInfo]:
    """Rows of (session_id, message count, last created) as :class:`SessionInfo`."""
    return [SessionInfo(str(s), int(n), float(t)) for s, n, t in rows]


def encode_working(key: str, value: Any) -> str:
    """A working-memory value as stored (JSON); ValueError when it is not serialisable."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"working memory {key!r} is not JSON-serialisable") from exc


def decode_working(run_id: str, key: str, row: Sequence[Any] | None) -> Any:
    """The value of a working-memory row (None without one); StoredRowError, without the
    content, when it is malformed."""
    if row is None:
        return None
    try:
        return json.loads(row[0])
    except (TypeError, ValueError):
        pass
    raise StoredRowError(f"working memory of run {run_id!r}, key {key!r} is malformed")
