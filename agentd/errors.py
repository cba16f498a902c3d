"""The exceptions agentd raises.

Every error names what went wrong and what to do about it. Library errors are translated at the
boundary (``raise ... from exc``), so callers only ever catch these::

    AgentdError
    ├── ConfigError            bad or unreadable configuration (the CLI exits 78)
    ├── ScopeMissing           a store was used outside a tenant scope (fail closed)
    ├── StoredRowError         a persisted row could not be decoded (content never echoed)
    ├── HistoryError           the durable conversation store cannot be opened or written
    ├── StateLocked            another daemon holds this state (the CLI exits 75)
    ├── RetryConflict          a retried request (same request key) cannot be honoured
    │   └── RetryMismatch      the request key was used for a different message
    ├── LLMError               talking to the model server failed
    │   ├── LLMUnavailable     nothing answers at the configured address
    │   ├── LLMStatusError     the server answered with an HTTP error status
    │   │   └── ContextExceeded  the request does not fit the model's context (never retried)
    │   └── LLMResponseError   the server answered with something that is not the protocol
    ├── ToolError              a tool call could not run (shown to the model as a tool result)
    ├── ToolResultMismatch     client tool results that do not answer the session's pending calls
    ├── ModelError             a packaged model cannot be fetched, verified or found
    ├── SidecarError           the local llama-server cannot be started
    ├── ShuttingDown           the daemon is stopping and takes no new turns
    ├── QuotaExceeded          a tenant has used its turns per minute or tokens per day
    ├── ContextOverflow        the newest message alone does not fit the model's context
    ├── MemoryUnavailable      long-term memory cannot be reached
    ├── ChannelError           a channel cannot talk to its service
    │   ├── TelegramError      the Telegram Bot API failed or refused a request
    │   ├── MatrixError        the Matrix homeserver failed or refused a request
    │   └── EmailError         the IMAP or SMTP server failed or refused a request
    ├── InvalidMemory          a memory, key, tag or top_k the store refuses
    ├── McpError               an MCP server cannot be reached, started or called
    └── DaemonError            a running daemon's HTTP API refused or failed a request
        └── DaemonUnavailable  no daemon answers at the address
"""

from __future__ import annotations


class AgentdError(Exception):
    """Base class of every error agentd raises on purpose."""


class ConfigError(AgentdError):
    """A configuration value is invalid or the file cannot be read."""

    def __init__(self, key: str, source: str, reason: str) -> None:
        self.key = key
        self.source = source
        self.reason = reason
        super().__init__(f"config error: {key} (from {source}): {reason}")


class ScopeMissing(AgentdError):
    """A scoped store was called with no tenant scope set."""

    def __init__(self) -> None:
        super().__init__(
            "no tenant scope is set: wrap the call in `with agentd.scope.use(Scope(...))`"
        )


class StoredRowError(AgentdError):
    """A stored row is malformed. The message never contains the row's content."""


class HistoryError(AgentdError):
    """The durable conversation store cannot be opened, migrated or written."""


class StateLocked(AgentdError):
    """Another process holds the exclusive lock of this state (its history file).

    ``path`` is the lock file, ``pid`` the holder's process id as it wrote it (None when
    unreadable).
    """

    def __init__(self, path: str, pid: int | None) -> None:
        self.path = path
        self.pid = pid
        holder = f"process {pid}" if pid is not None else "another process"
        super().__init__(
            f"{path} is locked by {holder}: another agentd runs on this state. Stop it, or "
            "give this one its own state_dir and history.path"
        )


class RetryConflict(AgentdError):
    """A retry (a request key seen before) that cannot be answered: its turn was cut off and
    the session has moved on since, so running it now would answer out of order."""


class RetryMismatch(RetryConflict):
    """A request key already stored with a different user message."""


class LLMError(AgentdError):
    """Talking to the OpenAI-compatible model server failed."""


class LLMUnavailable(LLMError):
    """The model server could not be reached."""


class LLMStatusError(LLMError):
    """The model server answered with an HTTP error status."""

    def __init__(self, status_code: int, message: str) -> None:
        self.status_code = status_code
        super().__init__(message)


class ContextExceeded(LLMStatusError):
    """The request does not fit the model's context window (an HTTP 400 that says so).

    ``limit`` is the context size and ``requested`` the tokens the request needs as the server
    counted them (the prompt, plus the completion where the server counts it against the
    limit), each None when the server's answer does not say. ``requested - limit`` is what
    must go. Retrying the same request cannot help, so the client never does; the message
    never contains the request's content.
    """

    def __init__(
        self,
        status_code: int,
        *,
        limit: int | None = None,
        requested: int | None = None,
    ) -> None:
        self.limit = limit
        self.requested = requested
        if requested is not None and limit is not None:
            size = f" ({requested} tokens asked, {limit} fit)"
        elif limit is not None:
            size = f" ({limit} tokens fit)"
        else:
            size = ""
        super().__init__(
            status_code,
            f"model server answered HTTP {status_code}: the request does not fit the model's "
            f"context{size}; send a shorter conversation or raise the server's context size",
        )


class LLMResponseError(LLMError):
    """The model server's answer does not follow the OpenAI protocol."""


class ToolError(AgentdError):
    """A tool call failed; the message is what the model sees."""


class ToolResultMismatch(AgentdError):
    """A session's next turn brought tool results that do not answer its pending client calls."""


class ModelError(AgentdError):
    """A packaged model cannot be fetched, verified or found."""


class SidecarError(AgentdError):
    """The local llama-server sidecar cannot be started or did not become healthy."""


class MemoryUnavailable(AgentdError):
    """Long-term memory cannot be reached or used."""


class ShuttingDown(AgentdError):
    """The daemon is shutting down: no new turns are accepted."""

    def __init__(self) -> None:
        super().__init__("agentd is shutting down and accepts no new turns; try again shortly")


class QuotaExceeded(AgentdError):
    """A tenant reached one of its limits; its turn was refused before anything was stored.

    ``limit`` names the quota (``turns_per_minute`` or ``tokens_per_day``), ``allowed`` its
    configured value, ``retry_after`` the seconds until a turn may be admitted again.
    """

    def __init__(self, tenant: str, limit: str, allowed: int, retry_after: float) -> None:
        self.tenant = tenant
        self.limit = limit
        self.allowed = allowed
        self.retry_after = retry_after
        what = (
            f"{allowed:,} turns per minute"
            if limit == "turns_per_minute"
            else f"{allowed:,} model tokens for today (UTC)"
        )
        super().__init__(f"tenant {tenant!r} has used its {what}; try again in {self.wait}")

    @property
    def wait(self) -> str:
        """``retry_after`` for people: ``42 s``, ``5 min``, ``3 h 12 min`` (rounded up)."""
        return _duration(self.retry_after)


def _duration(seconds: float) -> str:
    """A wait for people, rounded up: ``42 s``, ``5 min``, ``3 h 12 min``."""
    whole = max(1, int(-(-seconds // 1)))
    if whole < 60:
        return f"{whole} s"
    minutes = -(-whole // 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min"


class ContextOverflow(AgentdError):
    """Not even the newest message (with what follows it) fits the model's context."""

    def __init__(self, *, needed: int, limit: int, room: int | None = None) -> None:
        self.needed = needed
        self.limit = limit
        self.room = room
        if room is None or room >= limit:
            text = (
                f"the message needs about {needed} tokens, more than this model's context "
                f"of {limit}"
            )
        else:
            text = (
                f"the message needs about {needed} tokens, and of this model's context of {limit} "
                f"only {room} are left for messages once the instructions, the tool descriptions "
                "and the answer have theirs"
            )
        super().__init__(text)


class ChannelError(AgentdError):
    """A channel could not reach or use the service it speaks to.

    ``retry_after`` is the seconds the service asked to wait before the next request (None
    when it did not say).
    """

    retry_after: float | None = None


class TelegramError(ChannelError):
    """A Bot API call failed. The message never contains the bot token.

    ``status`` is the HTTP status (0 when nothing answered), ``retry_after`` the seconds Telegram
    asked to wait (429), ``description`` Telegram's own explanation.
    """

    def __init__(
        self,
        method: str,
        description: str,
        *,
        status: int = 0,
        retry_after: float | None = None,
    ) -> None:
        self.method = method
        self.description = description
        self.status = status
        self.retry_after = retry_after
        where = f"HTTP {status}" if status else "no answer"
        super().__init__(f"telegram {method} failed ({where}): {description}")

    @property
    def retryable(self) -> bool:
        """True for network errors, 5xx and 429: the same request may succeed later."""
        return self.status == 0 or self.status == 429 or self.status >= 500


class MatrixError(ChannelError):
    """A Matrix client-server API call failed. The message never contains the access token.

    ``code`` is Matrix's ``errcode`` (``M_FORBIDDEN``...; empty when nothing answered),
    ``retry_after`` the seconds the homeserver asked to wait.
    """

    def __init__(
        self, action: str, description: str, *, code: str = "", retry_after: float | None = None
    ) -> None:
        self.action = action
        self.description = description
        self.code = code
        self.retry_after = retry_after
        where = code or "no answer"
        super().__init__(f"matrix {action} failed ({where}): {description}")

    @property
    def retryable(self) -> bool:
        """True when the same request may succeed later (network, rate limit, server error)."""
        return self.code in ("", "M_LIMIT_EXCEEDED", "M_UNKNOWN") or self.code.isdigit()


class EmailError(ChannelError):
    """An IMAP or SMTP exchange failed. The message never contains a password.

    ``permanent`` is True when the server refused the request itself (a bad recipient, a
    rejected login): sending the same again will not help.
    """

    def __init__(self, action: str, description: str, *, permanent: bool = False) -> None:
        self.action = action
        self.description = description
        self.permanent = permanent
        super().__init__(f"email {action} failed: {description}")


class DaemonError(AgentdError):
    """A running daemon's HTTP API answered with an error."""

    def __init__(self, message: str, status_code: int | None = None) -> None:
        self.status_code = status_code
        super().__init__(message)


class DaemonUnavailable(DaemonError):
    """No daemon answers at the configured address."""


class InvalidMemory(AgentdError):
    """A memory the store cannot take (too long, bad key or tags); the message says the limit."""


class McpError(AgentdError):
    """An MCP server cannot be reached, started or called (never carries its credentials)."""
