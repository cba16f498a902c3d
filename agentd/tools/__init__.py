"""Built-in tools the agent can call (time, files, long-term memory)."""
