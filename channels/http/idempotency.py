"""The ``Idempotency-Key`` request header: a client's name for one chat request.

A session request sent again with the same key (a retry after a timeout, a dropped connection
or a daemon restart) does not store its message twice: the runtime answers with the stored
answer, or runs the turn on the stored message (see :mod:`agentd.engine.runtime`). Keys are
scoped by tenant and session and live as long as the session's history. A stateless request
stores nothing, so its key is checked but has no effect (a retry simply runs again).

The HTTP faces of a retry that cannot be honoured follow the IETF Idempotency-Key draft: the
key reused for another message is 422, a first attempt cut off before a session moved on is 409.
"""

from __future__ import annotations

import re

from agentd.errors import RetryConflict, RetryMismatch
from channels.http.wire import ApiError

HEADER = "idempotency-key"
MAX_KEY = 255
# Printable ASCII, no control characters; spaces only inside.
_KEY = re.compile(r"[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?")


def idempotency_key(raw: str | None) -> str | None:
    """The request's key, or None without one; ApiError 400 for a malformed key."""
    if raw is None:
        return None
    if len(raw) > MAX_KEY or not _KEY.fullmatch(raw):
        raise ApiError(
            400,
            f"Idempotency-Key must be 1 to {MAX_KEY} printable ASCII characters",
            param="Idempotency-Key",
            code="invalid_idempotency_key",
        )
    return raw


def retry_error(exc: RetryConflict) -> ApiError:
    """The HTTP face of a retry that cannot be answered."""
    if isinstance(exc, RetryMismatch):
        return ApiError(422, str(exc), param="Idempotency-Key", code="idempotency_key_reused")
    return ApiError(409, str(exc), param="Idempotency-Key", code="idempotency_conflict")
