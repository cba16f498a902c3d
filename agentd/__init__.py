"""agentd: a self-hosted agent runtime daemon."""

from agentd._version import __version__
from agentd.config import Settings, load_settings
from agentd.errors import (
    AgentdError,
    ConfigError,
    HistoryError,
    LLMError,
    LLMResponseError,
    LLMStatusError,
    LLMUnavailable,
    MemoryUnavailable,
    ScopeMissing,
    StoredRowError,
    ToolError,
)
from agentd.llm import LLMClient
from agentd.memory.history import HistoryStore, SQLiteHistory
from agentd.messages import Conversation, Message, ToolCall, decode_stored_message
from agentd.runtime import Runtime
from agentd.scope import Scope
from agentd.supervisor import Supervisor, TurnResult
from agentd.tools import ToolRegistry

__all__ = [
    "AgentdError",
    "ConfigError",
    "Conversation",
    "HistoryError",
    "HistoryStore",
    "LLMClient",
    "LLMError",
    "LLMResponseError",
    "LLMStatusError",
    "LLMUnavailable",
    "MemoryUnavailable",
    "Message",
    "Runtime",
    "SQLiteHistory",
    "Scope",
    "ScopeMissing",
    "Settings",
    "StoredRowError",
    "Supervisor",
    "ToolCall",
    "ToolError",
    "ToolRegistry",
    "TurnResult",
    "__version__",
    "decode_stored_message",
    "load_settings",
]
