"""MCP: the agent uses Model Context Protocol servers' tools, and serves its own memory.

:mod:`agentd.mcp.servers` runs the configured servers (stdio or streamable HTTP) and keeps
their tools in the registry as ``<server>__<tool>``; :mod:`agentd.mcp.serve` is
``agentd mcp serve``. Nothing here is imported until MCP is used: the SDK is a heavy import.
"""
