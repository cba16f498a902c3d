"""The HTTP channel: the OpenAI-compatible API, its guards and the turn as a response."""

from channels.http.api import Readiness
from channels.http.server import HttpChannel

__all__ = ["HttpChannel", "Readiness"]
