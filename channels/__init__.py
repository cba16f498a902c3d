"""Channels: the ways messages reach the agent (one module each, one protocol in base.py)."""
