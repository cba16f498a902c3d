"""The turn: runtime, agent loop, session context, compaction, tool registry."""
