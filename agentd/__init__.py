"""agentd: a self-hosted agent runtime daemon."""

from agentd._version import __version__
from agentd.config import Settings, load_settings
from agentd.engine.loop import AgentLoop, TurnResult
from agentd.engine.runtime import Runtime
from agentd.errors import (
    AgentdError,
    ConfigError,
    ContextExceeded,
    HistoryError,
    InvalidMemory,
    LLMError,
    LLMResponseError,
    LLMStatusError,
    LLMUnavailable,
    MemoryUnavailable,
    ScopeMissing,
    StoredRowError,
    ToolError,
)
from agentd.memory.factory import open_store
from agentd.memory.history import HistoryStore, SQLiteHistory
from agentd.memory.longterm import Memory, MemoryStore
from agentd.messages import Conversation, Message, ToolCall, decode_stored_message
from agentd.model.client import LLMClient
from agentd.scope import Scope
from agentd.tools.registry import ToolRegistry

__all__ = [
    "AgentLoop",
    "AgentdError",
    "ConfigError",
    "ContextExceeded",
    "Conversation",
    "HistoryError",
    "HistoryStore",
    "InvalidMemory",
    "LLMClient",
    "LLMError",
    "LLMResponseError",
    "LLMStatusError",
    "LLMUnavailable",
    "Memory",
    "MemoryStore",
    "MemoryUnavailable",
    "Message",
    "Runtime",
    "SQLiteHistory",
    "Scope",
    "ScopeMissing",
    "Settings",
    "StoredRowError",
    "ToolCall",
    "ToolError",
    "ToolRegistry",
    "TurnResult",
    "__version__",
    "decode_stored_message",
    "load_settings",
    "open_store",
]
