"""The public surface: agentd.__all__ is pinned, sorted, and every name resolves."""

from __future__ import annotations

import agentd

EXPORTED = [
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


def test_all_is_pinned() -> None:
    """Adding or removing a public name is a deliberate change to this list."""
    assert agentd.__all__ == EXPORTED


def test_all_is_sorted_and_resolves() -> None:
    """__all__ is sorted and every name in it is an attribute of the package."""
    assert agentd.__all__ == sorted(agentd.__all__)
    for name in agentd.__all__:
        assert hasattr(agentd, name), name


def test_public_classes_claim_the_package() -> None:
    """Public classes are defined in agentd's own modules."""
    for name in agentd.__all__:
        member = getattr(agentd, name)
        if isinstance(member, type):
            assert member.__module__.startswith("agentd."), name


def test_errors_form_one_tree() -> None:
    """Every exported error derives from AgentdError."""
    errors = [getattr(agentd, n) for n in agentd.__all__ if n.endswith(("Error", "Missing"))]
    errors += [agentd.LLMUnavailable, agentd.MemoryUnavailable]
    assert all(issubclass(e, agentd.AgentdError) for e in errors)
    assert issubclass(agentd.LLMUnavailable, agentd.LLMError)
