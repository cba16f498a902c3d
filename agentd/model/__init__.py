"""The model server: OpenAI-compatible client, text tool calls, sidecar, packaged models."""
