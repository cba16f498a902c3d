"""The exceptions agentd raises.

Every error names what went wrong and what to do about it. Library errors are translated at the
boundary (``raise ... from exc``), so callers only ever catch these::

    AgentdError
    ├── ConfigError            bad or unreadable configuration (the CLI exits 78)
    ├── ScopeMissing           a store was used outside a tenant scope (fail closed)
    ├── StoredRowError         a persisted row could not be decoded (content never echoed)
    ├── LLMError               talking to the model server failed
    │   ├── LLMUnavailable     nothing answers at the configured address
    │   ├── LLMStatusError     the server answered with an HTTP error status
    │   └── LLMResponseError   the server answered with something that is not the protocol
    ├── ToolError              a tool call could not run (shown to the model as a tool result)
    ├── ModelError             a packaged model cannot be fetched, verified or found
    ├── SidecarError           the local llama-server cannot be started
    └── MemoryUnavailable      long-term memory cannot be reached
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


class LLMError(AgentdError):
    """Talking to the OpenAI-compatible model server failed."""


class LLMUnavailable(LLMError):
    """The model server could not be reached."""


class LLMStatusError(LLMError):
    """The model server answered with an HTTP error status."""

    def __init__(self, status_code: int, message: str) -> None:
        self.status_code = status_code
        super().__init__(message)


class LLMResponseError(LLMError):
    """The model server's answer does not follow the OpenAI protocol."""


class ToolError(AgentdError):
    """A tool call failed; the message is what the model sees."""


class ModelError(AgentdError):
    """A packaged model cannot be fetched, verified or found."""


class SidecarError(AgentdError):
    """The local llama-server sidecar cannot be started or did not become healthy."""


class MemoryUnavailable(AgentdError):
    """Long-term memory cannot be reached or used."""
